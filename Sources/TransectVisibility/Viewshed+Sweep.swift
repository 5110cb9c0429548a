import TransectGeodesy
import TransectRaster
import TransectSupport

#if canImport(Glibc)
import Glibc
#endif

extension Viewshed {
    /// Cells between the nodes of the lattice on which cells' distances and azimuths are
    /// computed exactly (see ``compute(observer:terrain:georeference:settings:demName:geodesic:)``):
    /// the first where it interpolates within ``latticeTolerance``, else the last.
    static let latticeSteps = [64, 32, 16, 8]
    /// The most a cell's or a sight ray's interpolated position may be off, estimated from the
    /// lattice's second differences (``LatticeNodes/interpolationError()``,
    /// ``RayLattice/interpolationError()``), in cells: a thousandth, a few centimetres on cells
    /// of 30 m. A projected raster's map is nearly affine (the 4096² UTM hills: 8e-5 of a cell
    /// over 64 cells); a geographic raster's curves with tan φ/R (1″ cells at 38°: 1.6e-3 over
    /// 64 cells, 4e-4 over 32).
    static let latticeTolerance = 1e-3
    /// Cells (of the smaller side) between the nodes of the lattice the rays' positions are
    /// interpolated on (``RayLattice``): the first within ``latticeTolerance``, else the last.
    static let rayLatticeSteps = [64, 32, 16]
    /// Samples between the knots of a sight ray, whose positions come from the ``RayLattice``;
    /// samples between knots are placed linearly: the first whose chords stray from the rays'
    /// paths by at most ``latticeTolerance`` of a cell (``RayLattice/knotStep(sampleStep:)``),
    /// else the last. A projected raster's rays are straight to 3e-4 of a cell over 128 cells
    /// (the 4096² UTM hills: 256 samples); a geographic raster's bend with tan φ/R (1″ cells
    /// at 38°: 3e-4 over 32 cells, 64 samples). Each a multiple of ``coarseSpan``.
    static let knotSteps = [256, 128, 64]
    /// Samples of a ray's stretch that ``TerrainBlocks/coarse`` blocks bound at once (32
    /// cells), within one knot segment; a ray's own samples start at such a stretch.
    static let coarseSpan = 64
    /// Samples of a ray's stretch that ``TerrainBlocks`` bound at once: a stretch whose terrain
    /// cannot rise above the ray's horizon so far is not sampled (it would not change it).
    static let cullSpan = 16
    /// Samples of the longest stretch bounded at once (``TerrainBlocks/far``'s blocks), four
    /// coarse ones: beyond the visible ground near the eye, most of a ray's stretches cannot
    /// rise above its horizon, and one look rules out four coarse stretches (on the 4096²
    /// hills, 94 % of the coarse stretches looked at were ruled out, 1.9 million looks).
    static let farSpan = 4 * coarseSpan
    /// Samples before a target taken on its own line rather than from the rays' horizons: two
    /// cells' worth.
    static let nearSamples = 4
    /// Sight rays' spacing at the farthest cell in range of their sector (``RayFan``), in
    /// sample steps (half cells). Rays a whole cell apart halve the sweep's work but judge a
    /// cone's own surface from its apex, where every sight line grazes, hidden on 49 cells of
    /// 6,561; a whole step leaves rough synthetic terrain at the 0.1 % of cells `make test`
    /// allows to differ from their own sight lines, 0.9 of a step under it.
    static let raySpacingSteps = 0.9
    /// The widest gap, in sample steps, between the rays a cell nearer than the farthest is
    /// judged between. The fan spaces its rays for the farthest cell of their sector, so nearer
    /// the eye they crowd: at a tenth of the way, ten rays sample each step across. So within
    /// a block each ray but its two ends has two parents, the rays 2^L either side of it (L its
    /// index's trailing zero bits: every other ray's are the rays beside it, every fourth's two
    /// away, and so on), and samples its own terrain only from where they lie this far apart
    /// (``SweepBuffers/ownFrom``, the first sample of a ``coarseSpan``); before, its horizon is
    /// theirs interpolated in azimuth, as a cell's between its two rays, and its own samples
    /// start from that horizon. A cell nearer than the farthest is so judged between rays at most half as far
    /// apart as at the farthest: rough synthetic terrain then differs from its own sight lines
    /// on as many cells as with every ray sampled from the eye (19 of 19,600), where the whole
    /// spacing would take it to 21, past the 0.1 % `make test` allows. The sweep of the 4096²
    /// hills so reads 3.5 million samples rather than 11.5 million; from Half Dome, 5.6 million
    /// rather than 6.5.
    static let innerRaySpacingSteps = raySpacingSteps / 2
    /// Rays a block sweeps together (their horizons in memory at once): a power of two, so that
    /// every ray between its ends has its parents in the block.
    static let raysPerBlock = 128
    /// Tiles (of 8 × 8 cells) of a block a worker judges at a time, taken by whichever worker
    /// is free (``sharedParallelLoop(threads:)``): tiles hidden whole cost a fraction of those
    /// judged cell by cell.
    static let tilesPerChunk = 64
    /// The farthest cell a viewshed judges, metres: well short of a quarter of the earth's
    /// circumference, where the cells' directions on their lattice stay smooth.
    static let maximumDistanceMetres = 5_000_000.0
    /// The most sight rays one viewshed sweeps: 2π × 660 km at 15 m cells.
    static let maximumRays = 1 << 22

    /// The viewshed of `observer` over `terrain`.
    ///
    /// **The model.** The target above a cell centre is visible when the straight sight line
    /// from the observer's eye to it passes above every terrain sample between them, terrain
    /// sampled along the geodesic every half cell with `settings.interpolation` (as `profile`
    /// samples) and lowered by cc·d²/(2R) at geodesic distance d (as ``EarthCurvature`` and
    /// `profile`'s line of sight take it). In slopes: with t(d) = (z(d) − cc·d²/(2R) − eye)/d for
    /// a sample and T = (z_target + h − cc·D²/(2R) − eye)/D for the target at distance D, the
    /// target is hidden when some sample has t > T (the terrain is above the line), which is
    /// `LineOfSight`'s rule; a sample in no data makes the line `unknown` unless terrain with
    /// data already hides the target.
    ///
    /// **The sweep.** Sight rays leave the observer along geodesics, spread over the turn's
    /// ``RayFan`` sectors so that neighbours are at most ``raySpacingSteps`` steps apart at the
    /// farthest cell in range of their sector; each is sampled every half cell (its positions
    /// at its knots, every 256th, 128th or 64th sample (``knotSteps``), from a ``RayLattice``,
    /// exact at its nodes by Karney's direct problem and the georeference, its nodes every
    /// 64th, 32nd or 16th cell, the coarsest that interpolates within ``latticeTolerance`` of a
    /// cell; and placed linearly between knots, the longest chords that stray from the path by
    /// at most that: a geodesic's curvature in a geographic raster's pixels, tan φ/R, departs
    /// from its chord by under 2 cm over 32 cells of 30 m at 40°, a thousandth of a cell), and
    /// keeps its horizon, the running
    /// maximum of t. A cell is judged on the two rays either side of its own azimuth: the
    /// horizon up to its own neighbourhood, interpolated linearly in azimuth, against its T,
    /// and where that does not already hide it, its own line's last ``nearSamples`` samples.
    /// Each cell's distance and azimuth are exact (Karney's inverse problem) on a lattice of
    /// every 64th cell (every 32nd, 16th or 8th where that would interpolate a cell's position
    /// more than ``latticeTolerance`` of a cell off) and interpolated between as azimuthal
    /// equidistant coordinates, a smooth map (about 1 cm off over 32 cells of 30 m on a
    /// geographic raster, far less on a projected one). So a cell's verdict can
    /// differ from its own sight line's only where the two rays' terrain differs from its line's,
    /// at the edges of what is visible; `make test` holds the difference under 0.1 % of cells,
    /// each at an edge.
    ///
    /// **Shortcuts that change no bit.** A ray's stretch (``farSpan`` samples, then its
    /// ``coarseSpan``-sample parts, then their ``cullSpan``-sample parts) whose terrain cannot
    /// rise above the ray's horizon so far, by the highest cell of the ``TerrainBlocks`` under
    /// it, is not sampled: its samples could not change the running maximum. A cell whose slope lies below every ray's horizon in its
    /// block at its distance (``SweepBuffers/floors``) is hidden without finding its wedge, and
    /// a tile of cells whose highest block and nearest distance keep every slope below them
    /// without a cell's geometry (``tileBelowFloors``); a block may so hide a cell of another
    /// block's wedges that no block judged yet, whose own block's verdict then stands. A cell the
    /// rays' horizon hides does not read its own last samples. The tests hold the result to the
    /// same sweep without the first two, bit for bit.
    ///
    /// - Complexity: O(n + r·J) for n cells, r rays and J samples a ray: with half-cell
    ///   spacing, r·J ≈ 4π·D²/c² for the farthest distance D and cell side c (less where the
    ///   sectors reach less far), a small multiple of n; stretches below the horizon cost a look
    ///   at their blocks instead of their samples.
    /// - Parameters:
    ///   - prepared: what the viewshed reads of `terrain` whatever the observer, made once for
    ///     many observers over it; nil makes it here.
    ///   - geometry: the observer's cells' geometry over the terrain's raster
    ///     (``cellGeometry(observer:width:height:georeference:settings:geodesic:)``), made before
    ///     the terrain was read; nil, or one made for other inputs, makes it here.
    @_specialize(where Terrain == Float32ElevationGrid)
    @_specialize(where Terrain == ElevationGrid)
    public static func compute<Terrain: ViewshedTerrain>(
        observer: ViewshedObserver, terrain: Terrain, georeference: any ViewshedGeoreference,
        settings: ViewshedSettings, demName: String, geodesic: Geodesic = .wgs84, prepared: ViewshedTerrainPreparation? = nil,
        geometry: ViewshedCellGeometry? = nil
    ) throws -> Viewshed {
        try compute(
            observer: observer, terrain: terrain, georeference: georeference, settings: settings, demName: demName, geodesic: geodesic,
            shortcuts: true, prepared: prepared, geometry: geometry)
    }

    /// ``compute(observer:terrain:georeference:settings:demName:geodesic:prepared:)``; without
    /// `shortcuts`, its rays sampled whole (no stretch skipped on ``TerrainBlocks``' bounds)
    /// and every cell found its wedge (none hidden on its block's ``SweepBuffers/floors``):
    /// the same bytes, which the tests hold it to.
    static func compute<Terrain: ViewshedTerrain>(
        observer: ViewshedObserver, terrain: Terrain, georeference: any ViewshedGeoreference,
        settings: ViewshedSettings, demName: String, geodesic: Geodesic, shortcuts: Bool, prepared: ViewshedTerrainPreparation? = nil,
        geometry given: ViewshedCellGeometry? = nil
    ) throws -> Viewshed {
        let w = terrain.width
        let h = terrain.height
        let n = w * h
        // The observer.
        guard let (c0, r0) = try observerPixel(observer, width: w, height: h, georeference: georeference) else {
            throw ViewshedError.observerOutside(observer: observer.name, dem: demName)
        }
        var groundOut = [Double.nan]
        terrain.sample(columns: [c0], rows: [r0], interpolation: settings.interpolation, into: &groundOut)
        let ground = groundOut[0]
        let eye: Double
        switch observer.height {
        case .aboveGround(let above):
            guard !ground.isNaN else { throw ViewshedError.observerOnNoData(observer: observer.name, dem: demName) }
            eye = ground + above
        case .absolute(let z): eye = z
        }
        let targetHeight = observer.targetHeightMetres ?? settings.targetHeightMetres
        let k = settings.curvature / (2 * EarthCurvature.meanRadiusMetres)

        let step = try sampleStep(column: c0, row: r0, georeference: georeference, geodesic: geodesic)
        guard step.isFinite, step > 0 else { throw ViewshedError.noCellSize(dem: demName) }

        // Every cell's distance and azimuth from the observer, and where their plane reaches.
        let parallel = stripedParallelLoop(threads: settings.threads)
        let sweeping = sharedWorkerLoop(threads: settings.threads)
        let geometry =
            try given.flatMap { $0.serves(observer: observer, width: w, height: h, settings: settings, geodesic: geodesic) ? $0 : nil }
            ?? cellGeometry(
                width: w, height: h, observer: observer, georeference: georeference, geodesic: geodesic, settings: settings, parallel: parallel)
        let (extent, tiles, sectorFarthest) = (geometry.extent, geometry.tiles, geometry.farthest)
        // The farthest cell in range in each sector sets its rays.
        let farthest = sectorFarthest.max() ?? 0
        // Beyond 5,000 km the lattice of cell directions would straddle the antipode, where
        // neighbouring directions turn half round and interpolating between them means nothing.
        guard farthest <= maximumDistanceMetres else { throw ViewshedError.tooFar(metres: farthest, dem: demName) }
        let rayCountWanted = RayFan.count(farthest: sectorFarthest, step: step, spacingSteps: raySpacingSteps)
        guard rayCountWanted <= Double(maximumRays) else {
            throw ViewshedError.tooManyRays(count: Int(min(rayCountWanted, 1e15)), dem: demName)
        }
        let fan = RayFan(farthest: sectorFarthest, step: step, spacingSteps: raySpacingSteps)
        let rays = fan.count
        let samples = Int((farthest / step).rounded(.up)) + 1

        // The rays' positions, from the plane's points within range (made with the geometry
        // where it was made first).
        let lattice =
            try geometry.rays.flatMap { $0.step == step ? $0.lattice : nil }
            ?? RayLattice(
                observer: observer, extent: extent, farthest: farthest, step: step, georeference: georeference, geodesic: geodesic,
                parallel: parallel, threads: settings.threads)

        // On huge pages where the kernel lends them (see HugePages), like the rays' horizons.
        var classes = [UInt8](unsafeUninitializedCapacity: n) { cells, count in
            HugePages.advise(cells)
            cells.initialize(repeating: ViewshedClass.outOfRange.rawValue)
            count = n
        }
        var minimumHeights = settings.computesHeights ? [Float](repeating: .nan, count: n) : []
        var angles = settings.computesHeights ? [Float](repeating: .nan, count: n) : []
        var horizon: [HorizonPoint] = []
        if settings.tracesHorizon { horizon.reserveCapacity(rays) }
        let along = SampleTerms(samples: samples, step: step, k: k, eye: eye)
        precondition(prepared.map { $0.blocks.width == w && $0.blocks.height == h } ?? true, "a preparation of another terrain")
        let blocks = shortcuts ? (prepared?.blocks ?? TerrainBlocks(terrain: terrain, parallel: parallel)) : nil
        let block = raysPerBlock
        let knotStep = lattice.knotStep(sampleStep: step)
        let knots = (samples - 1 + knotStep - 1) / knotStep + 1
        let pitch = settings.pitchDegrees
        let computesHeights = settings.computesHeights
        classes.withUnsafeMutableBufferPointer { classOut in
            minimumHeights.withUnsafeMutableBufferPointer { heightOut in
                angles.withUnsafeMutableBufferPointer { angleOut in
                    let shared = SweepBuffers(
                        classes: classOut, heights: heightOut, angles: angleOut, rays: block + 1, samples: samples, knots: knots,
                        knotStep: knotStep, workers: settings.threads)
                    let traces = settings.tracesHorizon
                    let scratch = (0..<settings.threads).map { _ in JudgeScratch() }
                    defer { shared.deallocateScratch() }
                    var first = 0
                    let listing = BlockListing(tiles: tiles.facts.count)
                    while first < rays {
                        let last = min(first + block, rays)  // rays first...last, wedges first..<last
                        // The block's rays' horizons, and the tiles of its wedges (which need no
                        // horizon) found by whichever worker takes them first, beside the rays:
                        // on the calling thread alone, the other worker would wait for them.
                        let blockFirst = first
                        // Each ray folds its horizons into its worker's floors as it ends (see
                        // SweepBuffers.foldFloors), rather than the calling thread after them all.
                        if shortcuts { shared.resetFloors() }
                        // Rays in the order of their parents first (see innerRaySpacingSteps);
                        // a ray waits for its parents' horizons, swept by the other worker or
                        // already done, before its own.
                        let order = shared.arrange(block: fan.azimuths[first...last], samples: samples)
                        sweeping(last - first + 2) { worker, item in
                            if item == 0 {
                                listing.list(tiles, from: fan.azimuths[blockFirst], to: fan.azimuths[last])
                                return
                            }
                            let q = order[item - 1]
                            let from = shared.ownFrom[q]
                            func sweep(from: Int = 0, horizon: Double = -.infinity, gap: Int = .max) {
                                sweepRay(
                                    q, azimuthDegrees: fan.azimuths[blockFirst + q], lattice: lattice, samples: samples, along: along,
                                    terrain: terrain, blocks: blocks, interpolation: settings.interpolation, shared: shared, from: from,
                                    horizon: horizon, gap: gap)
                            }
                            // The horizon wants the ray's own, from the eye: swept whole first.
                            if traces || from == 0 {
                                sweep()
                                shared.traced[q] = (shared.best[q], shared.gaps[q])
                            }
                            if from > 0 {
                                let start = shared.inherited(ray: q)
                                sweep(from: from, horizon: start.horizon, gap: start.gap)
                            }
                            if shortcuts { shared.foldFloors(ray: q, worker: worker) }
                            shared.ready.raise(q)
                        }
                        if shortcuts { shared.finishFloors() }
                        if traces {
                            for q in 0..<(last - first) {
                                let ((t, j), gap) = shared.traced[q]
                                horizon.append(
                                    HorizonPoint(
                                        azimuthDegrees: fan.azimuths[first + q],
                                        elevationDegrees: j >= 0 ? atan(t) * 180 / .pi : .nan,
                                        distanceMetres: j >= 0 ? Double(j) * step : .nan,
                                        crossesNoData: gap != .max))
                            }
                        }
                        // The cells of the block's wedges (wedge a between rays a and a + 1), tile
                        // by tile, a run of tiles a worker.
                        let blockTiles = listing.found
                        let chunks = (blockTiles.count + tilesPerChunk - 1) / tilesPerChunk
                        let blockLast = last
                        sweeping(chunks) { worker, c in
                            judgeCells(
                                tiles: blockTiles[(c * tilesPerChunk)..<min(blockTiles.count, (c + 1) * tilesPerChunk)], of: tiles,
                                rays: blockFirst..<blockLast, fan: fan, settings: settings, width: w, targetHeight: targetHeight, samples: samples, step: step,
                                k: k, eye: eye, pitch: pitch,
                                computesHeights: computesHeights, terrain: terrain, interpolation: settings.interpolation, blocks: blocks,
                                shared: shared, scratch: scratch[worker])
                        }
                        first = last
                    }
                }
            }
        }
        return Viewshed(
            width: w, height: h, classes: classes, minimumVisibleHeightMetres: minimumHeights, angleAboveHorizonDegrees: angles,
            horizon: horizon, observerColumn: c0, observerRow: r0, observerGroundMetres: ground, observerEyeMetres: eye,
            sampleStepMetres: step, rayCount: rays)
    }

    /// Whether `azimuth` lies clockwise from `from` to `to` (degrees, any turn); `from == to`
    /// is a full turn.
    static func azimuth(_ azimuth: Double, liesFrom from: Double, to: Double) -> Bool {
        func reduce(_ a: Double) -> Double {
            let r = a.truncatingRemainder(dividingBy: 360)
            return r < 0 ? r + 360 : r
        }
        let span = reduce(to - from)
        return span == 0 || reduce(azimuth - from) <= span
    }

    /// ``cellGeometry(width:height:observer:georeference:geodesic:settings:parallel:)`` on
    /// `settings.threads` workers: what a viewshed of `observer` over a raster of `width` ×
    /// `height` cells computes before it reads the terrain, so that a caller can compute it
    /// while the terrain is read.
    public static func cellGeometry(
        observer: ViewshedObserver, width: Int, height: Int, georeference: some ViewshedGeoreference, settings: ViewshedSettings,
        geodesic: Geodesic = .wgs84
    ) throws -> ViewshedCellGeometry {
        let parallel = stripedParallelLoop(threads: settings.threads)
        var geometry = try cellGeometry(
            width: width, height: height, observer: observer, georeference: georeference, geodesic: geodesic, settings: settings,
            parallel: parallel)
        // The sight rays' lattice too, where the sweep would make it: an observer on the raster
        // with a cell size, its farthest cell and rays within the sweep's limits (which the
        // sweep checks again, and reports).
        guard let (c0, r0) = try observerPixel(observer, width: width, height: height, georeference: georeference) else { return geometry }
        let step = try sampleStep(column: c0, row: r0, georeference: georeference, geodesic: geodesic)
        let farthest = geometry.farthest.max() ?? 0
        guard step.isFinite, step > 0, farthest <= maximumDistanceMetres,
            RayFan.count(farthest: geometry.farthest, step: step, spacingSteps: raySpacingSteps) <= Double(maximumRays)
        else { return geometry }
        geometry.rays = (
            step,
            try RayLattice(
                observer: observer, extent: geometry.extent, farthest: farthest, step: step, georeference: georeference, geodesic: geodesic,
                parallel: parallel, threads: settings.threads)
        )
        return geometry
    }

    /// The observer's pixel coordinates on a raster of `width` × `height` cells, nil off it.
    static func observerPixel(
        _ observer: ViewshedObserver, width: Int, height: Int, georeference: some ViewshedGeoreference
    ) throws -> (column: Double, row: Double)? {
        let at = try georeference.pixelCoordinates(longitudes: [observer.longitude], latitudes: [observer.latitude])
        let (c0, r0) = (at.columns[0], at.rows[0])
        guard c0.isFinite, r0.isFinite, c0 >= 0, r0 >= 0, c0 <= Double(width), r0 <= Double(height) else { return nil }
        return (c0, r0)
    }

    /// Half the smaller side, on the ellipsoid, of the cell at pixel (`column`, `row`): the step
    /// between a sight line's samples.
    static func sampleStep(column c0: Double, row r0: Double, georeference: some ViewshedGeoreference, geodesic: Geodesic) throws -> Double {
        let corners = try georeference.lonLat(columns: [c0, c0 + 1, c0], rows: [r0, r0, r0 + 1])
        func metres(_ a: Int, _ b: Int) -> Double {
            geodesic.inverse(
                latitude1: corners.latitudes[a], longitude1: corners.longitudes[a], latitude2: corners.latitudes[b],
                longitude2: corners.longitudes[b]
            ).distanceMetres
        }
        return 0.5 * min(metres(0, 1), metres(0, 2))
    }

    /// The lattice of every cell's distance and azimuth from the observer (``CellTiles``):
    /// exact at its nodes (every row and column of one of ``latticeSteps``, and the last), interpolated
    /// bilinearly between as azimuthal equidistant x = s·sin α, y = s·cos α; the nodes' extent
    /// in x and y, metres; and the farthest cell in range of `settings` in each ``RayFan``
    /// sector (0 where none), found tile by tile on the workers: a tile within one sector (with
    /// no azimuth limits to check) needs its cells' distances alone.
    static func cellGeometry(
        width w: Int, height h: Int, observer: ViewshedObserver, georeference: some ViewshedGeoreference, geodesic: Geodesic,
        settings: ViewshedSettings, parallel: ParallelLoop
    ) throws -> ViewshedCellGeometry {
        // The coarsest lattice that interpolates within its tolerance, else the finest.
        var nodes = try LatticeNodes(
            step: latticeSteps[0], width: w, height: h, observer: observer, georeference: georeference, geodesic: geodesic,
            threads: settings.threads, parallel: parallel)
        for step in latticeSteps.dropFirst() where !(nodes.interpolationError() <= latticeTolerance) {
            nodes = try LatticeNodes(
                step: step, width: w, height: h, observer: observer, georeference: georeference, geodesic: geodesic,
                threads: settings.threads, parallel: parallel)
        }
        let (nx, ny) = (nodes.x, nodes.y)
        let m = nx.count
        var xBounds = (Double.infinity, -Double.infinity)
        var yBounds = xBounds
        for i in 0..<m where nx[i].isFinite && ny[i].isFinite {
            xBounds = (min(xBounds.0, nx[i]), max(xBounds.1, nx[i]))
            yBounds = (min(yBounds.0, ny[i]), max(yBounds.1, ny[i]))
        }
        let extent = xBounds.0 <= xBounds.1 ? (x: xBounds.0...xBounds.1, y: yBounds.0...yBounds.1) : (x: 0.0...0.0, y: 0.0...0.0)
        let tiles = CellTiles(
            nodesX: nx, nodesY: ny, latticeStep: nodes.step, latticeColumns: nodes.columns, latticeRows: nodes.rows, width: w, height: h,
            parallel: parallel)
        // The farthest cell in range in each sector, in two passes over the tiles, a tile row an
        // item. The first takes the tiles within one sector whose farthest corner cell is in
        // range, which is their farthest cell (``CellTiles/farthestDistance(of:)``), with no
        // azimuth limits to check; the second takes the other tiles cell by cell, except those
        // whose every cell lies nearer than the first pass found in each sector it touches.
        let limited = settings.azimuthDegrees != nil
        @Sendable func inRange(_ d: Double) -> Bool { Self.inRange(distance: d, azimuth: 0, settings: settings) }
        let firstPass = ParallelFill.array(count: tiles.down, chunk: 1, parallel: parallel) { tj -> (farthest: [Double], bounds: [Double]) in
            var farthest = [Double](repeating: 0, count: RayFan.sectors)
            var bounds = [Double](repeating: .nan, count: tiles.across)
            for ti in 0..<tiles.across {
                let t = tj * tiles.across + ti
                guard !limited, let sole = tiles.soleSector(of: t) else { continue }
                let d = tiles.farthestDistance(of: t)
                bounds[ti] = d
                if inRange(d) { farthest[sole] = max(farthest[sole], d) }
            }
            return (farthest, bounds)
        }
        let found = (0..<RayFan.sectors).map { sector in firstPass.reduce(0.0) { max($0, $1.farthest[sector]) } }
        let secondPass = ParallelFill.array(count: tiles.down, chunk: 1, parallel: parallel) { tj -> [Double] in
            var farthest = [Double](repeating: 0, count: RayFan.sectors)
            withUnsafeTemporaryAllocation(of: Double.self, capacity: 4 * CellTiles.maximumCells) { scratch in
                let x = scratch.baseAddress!
                let y = x + CellTiles.maximumCells
                let distances = y + CellTiles.maximumCells
                let azimuths = distances + CellTiles.maximumCells
                for ti in 0..<tiles.across {
                    let t = tj * tiles.across + ti
                    if !limited, let sole = tiles.soleSector(of: t) {
                        // Taken by the first pass unless its farthest corner is out of range.
                        let bound = firstPass[tj].bounds[ti]
                        guard !inRange(bound), bound > settings.minimumDistanceMetres, bound > found[sole] else { continue }
                        // Distances alone, as GeoMath.polar takes them: √(x² + y²).
                        let count = tiles.coordinates(of: t, xs: x, ys: y)
                        for k in 0..<count {
                            let d = (x[k] * x[k] + y[k] * y[k]).squareRoot()
                            guard inRange(d) else { continue }
                            farthest[sole] = max(farthest[sole], d)
                        }
                        continue
                    }
                    if !limited, let sectors = tiles.sectors(of: t) {
                        // Its cells can lie no farther than its farthest corner.
                        let bound = tiles.farthestDistance(of: t)
                        if sectors.allSatisfy({ bound <= found[$0 % RayFan.sectors] }) { continue }
                    }
                    let count = tiles.geometry(of: t, xs: x, ys: y, distances: distances, azimuths: azimuths)
                    for k in 0..<count {
                        guard Self.inRange(distance: distances[k], azimuth: azimuths[k], settings: settings) else { continue }
                        let sector = RayFan.sector(of: azimuths[k])
                        farthest[sector] = max(farthest[sector], distances[k])
                    }
                }
            }
            return farthest
        }
        let sectorFarthest = (0..<RayFan.sectors).map { sector in secondPass.reduce(found[sector]) { max($0, $1[sector]) } }
        return ViewshedCellGeometry(
            longitude: observer.longitude, latitude: observer.latitude, width: w, height: h,
            minimumDistanceMetres: settings.minimumDistanceMetres, maximumDistanceMetres: settings.maximumDistanceMetres,
            azimuthDegrees: settings.azimuthDegrees, ellipsoid: geodesic.ellipsoid, extent: extent, tiles: tiles, farthest: sectorFarthest)
    }

    /// Sweeps ray `q` of the block from its sample `from` (0: the eye) on: its samples'
    /// positions between the knots, their terrain, and the running maximum of their slopes,
    /// starting from `horizon`, into `shared.horizons` row q (a stretch that `blocks` show
    /// cannot raise it is not sampled, its horizon held in `shared.spanHorizons`); the index of
    /// its first sample in no data (inside the raster), or `gap` when that is before `from`,
    /// into `shared.gaps[q]`, its highest slope and where into `shared.best[q]` (where −1: none
    /// of its own samples rose above `horizon`). `along` holds each sample's distance terms, the
    /// same for every ray. From a later sample (see ``innerRaySpacingSteps``), `horizon` and
    /// `gap` are its parents' there (``SweepBuffers/inherited(ray:)``).
    static func sweepRay(
        _ q: Int, azimuthDegrees: Double, lattice: RayLattice, samples: Int, along: SampleTerms, terrain: some ViewshedTerrain,
        blocks: TerrainBlocks?, interpolation: Interpolation, shared: SweepBuffers, from: Int = 0, horizon: Double = -.infinity,
        gap inheritedGap: Int = .max
    ) {
        let knots = shared.knots
        let knotStep = shared.knotStep
        let base = q * knots
        let knotColumns = shared.knotColumns
        let knotRows = shared.knotRows
        // The ray ends where it leaves the raster (with the half cell of margin the taps of its
        // edge cells have): beyond, every sample would be no data, and no cell lies there.
        let w = Double(terrain.width)
        let h = Double(terrain.height)
        func inside(_ c: Double, _ r: Double) -> Bool { c >= -0.5 && r >= -0.5 && c <= w + 0.5 && r <= h + 0.5 }
        // The ray's knots, every knotStep samples (its points on the observer's azimuthal
        // equidistant plane lie on a line from the origin), up to the first past the raster and
        // one more: all its own samples and its cells' last samples take. A cell's samples lie
        // inside the raster, and a ray beside them less than half a cell from them, inside its
        // margin, so before that knot. The others are NaN, which no sample would pass unseen.
        let (sa, ca) = GeoMath.sincosd(azimuthDegrees)
        var outside = knots
        var m = 0
        while m < knots && m <= outside + 1 {
            let d = Double(m * knotStep) * along.step
            let (c, r) = lattice.pixel(x: d * sa, y: d * ca)
            knotColumns[base + m] = c
            knotRows[base + m] = r
            if m >= 1 && outside == knots && !inside(c, r) { outside = m }
            m += 1
        }
        for k in m..<knots {
            knotColumns[base + k] = .nan
            knotRows[base + k] = .nan
        }
        let count = samples - 1
        let out = shared.horizons.baseAddress! + q * samples
        out[0] = -.infinity
        // A stretch's horizon where it stands still across it, NaN where `out` holds it.
        let spanOut = shared.spanHorizons.baseAddress! + q * shared.spans
        spanOut[0] = .nan
        // Its horizon at each stretch's first sample (see SweepBuffers.stretchStarts).
        let starts = shared.stretchStarts.baseAddress! + q * shared.spans
        starts[0] = -.infinity
        guard count > 0 else {
            shared.lasts[q] = 0
            shared.gaps[q] = .max
            shared.best[q] = (-.infinity, -1)
            for span in 0..<shared.spans { starts[span] = -.infinity }
            return
        }
        // Rays are straight to a thousandth of a cell between knots, so the first knot outside
        // bounds the samples to place, and the last of them inside is found among a knot step's.
        let placed = outside < knots ? min(count, outside * knotStep) : count
        @inline(__always) func position(_ j: Int) -> (Double, Double) {
            let m = j / knotStep
            let a = base + m
            let b = m + 1 < knots ? a + 1 : a
            let u = Double(j - m * knotStep) / Double(knotStep)
            return (knotColumns[a] + u * (knotColumns[b] - knotColumns[a]), knotRows[a] + u * (knotRows[b] - knotRows[a]))
        }
        // The last sample inside: on the knot segment into the first knot outside, where the
        // straight path leaves the raster's rectangle once, found by halving; elsewhere (a ray
        // that never leaves) looked for back from its end.
        var last = placed
        if outside < knots && !inside(position(placed).0, position(placed).1) {
            var lo = (outside - 1) * knotStep
            var hi = placed
            while hi - lo > 1 {
                let mid = (lo + hi) / 2
                let (c, r) = position(mid)
                if inside(c, r) { lo = mid } else { hi = mid }
            }
            last = lo
        } else {
            while last > 0 {
                let (c, r) = position(last)
                if inside(c, r) { break }
                last -= 1
            }
        }
        // The running maximum, its sample and the first gap, kept in the closure below and
        // handed out once: captured across it, they would live in a box checked for exclusive
        // access at every touch.
        var (running, at, gap) = (horizon, -1, inheritedGap)
        let radius = interpolation.radius
        let z = UnsafeMutablePointer<Double>.allocate(capacity: cullSpan)
        defer { z.deallocate() }
        (running, at, gap) = along.drop.withUnsafeBufferPointer { drop in
            along.inverseDistance.withUnsafeBufferPointer { inverse in
                var (running, at, gap) = (running, at, gap)
                guard let drop = drop.baseAddress, let inverse = inverse.baseAddress else { return (running, at, gap) }
                // Whether samples j...end (within one knot segment) cannot raise the horizon
                // so far: their terrain at most the blocks' bound around them, lowered by the
                // smaller of their ends' drops, over the nearer end's distance when that is
                // above the eye's level and the farther one's when below.
                @inline(__always) func cannotRise(
                    _ j: Int, _ end: Int, _ blocks: TerrainBlocks, _ level: TerrainBlocks.Level, below running: Double
                ) -> Bool {
                    let (ca, ra) = position(j)
                    let (cb, rb) = position(end)
                    // The box's cells: positions of knots inside the raster's margin or one past
                    // it, which `bound` checks against the raster (a radius of at most 2 moves
                    // them little), so floored without Swift's trap for a value beyond Int.
                    let high = blocks.bound(
                        columns: KernelHints.floorIndex(min(ca, cb)) &- radius, KernelHints.floorIndex(max(ca, cb)) &+ radius,
                        rows: KernelHints.floorIndex(min(ra, rb)) &- radius, KernelHints.floorIndex(max(ra, rb)) &+ radius,
                        interpolation: interpolation, level: level)
                    let rise = high - min(drop[j], drop[end])
                    let slope = rise >= 0 ? rise * inverse[j] : rise * inverse[end]
                    return slope < running - 1e-9 * (1 + abs(running))
                }
                // The same over a stretch that may cross knots, its box around the knots between
                // too (the samples lie on the segments between knots).
                @inline(__always) func cannotRiseAcross(_ j: Int, _ end: Int, _ blocks: TerrainBlocks, below running: Double) -> Bool {
                    var (c0, r0) = position(j)
                    var (c1, r1) = (c0, r0)
                    for m in stride(from: j / knotStep + 1, through: end / knotStep, by: 1) {
                        let (c, r) = (knotColumns[base + m], knotRows[base + m])
                        (c0, c1, r0, r1) = (min(c0, c), max(c1, c), min(r0, r), max(r1, r))
                    }
                    let (c, r) = position(end)
                    (c0, c1, r0, r1) = (min(c0, c), max(c1, c), min(r0, r), max(r1, r))
                    let high = blocks.bound(
                        columns: KernelHints.floorIndex(c0) &- radius, KernelHints.floorIndex(c1) &+ radius,
                        rows: KernelHints.floorIndex(r0) &- radius, KernelHints.floorIndex(r1) &+ radius,
                        interpolation: interpolation, level: blocks.far)
                    let rise = high - min(drop[j], drop[end])
                    let slope = rise >= 0 ? rise * inverse[j] : rise * inverse[end]
                    return slope < running - 1e-9 * (1 + abs(running))
                }
                // Stretches of cullSpan samples, each farSpan and each coarseSpan first as a
                // whole: a stretch that cannot reach the horizon so far keeps it, unsampled. A stretch after one
                // that raised the horizon is sampled without asking the blocks: the ray is
                // climbing terrain in sight, where the bounds almost never cull (2.5 % of such
                // stretches on the 4096² hills, 0.5 % from Half Dome, against 63 % and 52 % of
                // the others), and a look costs about a quarter of a stretch's samples.
                let first = max(1, from)
                var j = first
                var rose = false
                while j <= last {
                    if !rose && (j % farSpan == 0 || j == first), let blocks {
                        let end = min(last, (j / farSpan + 1) * farSpan - 1)
                        if end / coarseSpan > j / coarseSpan && cannotRiseAcross(j, end, blocks, below: running) {
                            for span in (j / cullSpan)...(end / cullSpan) {
                                spanOut[span] = running
                                if span > 0 { starts[span] = running }
                            }
                            j = end + 1
                            continue
                        }
                    }
                    if !rose && (j % coarseSpan == 0 || j == first) {
                        let end = min(last, (j / coarseSpan + 1) * coarseSpan - 1)
                        if let blocks, cannotRise(j, end, blocks, blocks.coarse, below: running) {
                            for span in (j / cullSpan)...(end / cullSpan) {
                                spanOut[span] = running
                                if span > 0 { starts[span] = running }
                            }
                            j = end + 1
                            continue
                        }
                    }
                    let end = min(last, (j / cullSpan + 1) * cullSpan - 1)
                    if !rose, let blocks, cannotRise(j, end, blocks, blocks.fine, below: running) {
                        spanOut[j / cullSpan] = running
                        if j > 1 { starts[j / cullSpan] = running }
                        j = end + 1
                        continue
                    }
                    let m = j / knotStep
                    let a = base + m
                    let b = m + 1 < knots ? a + 1 : a
                    terrain.sampleSegment(
                        column: knotColumns[a], row: knotRows[a], columnSpan: knotColumns[b] - knotColumns[a],
                        rowSpan: knotRows[b] - knotRows[a], fraction: 1 / Double(knotStep), first: j - m * knotStep, count: end - j + 1,
                        interpolation: interpolation, into: z)
                    spanOut[j / cullSpan] = .nan
                    let before = running
                    for i in j...end {
                        let zi = z[i &- j]
                        if zi.isNaN {
                            let (c, r) = position(i)
                            if gap == .max && c >= 0 && r >= 0 && c <= w && r <= h { gap = i }
                        } else {
                            let t = (zi - drop[i]) * inverse[i]
                            if t > running {
                                running = t
                                at = i
                            }
                        }
                        out[i] = running
                    }
                    if j > 1 { starts[j / cullSpan] = out[j] }
                    rose = running > before
                    j = end + 1
                }
                return (running, at, gap)
            }
        }
        shared.lasts[q] = last
        shared.gaps[q] = gap
        // A ray that leaves the raster before its own samples start keeps its parents'
        // horizon at its last sample.
        if last < from { running = shared.horizon(ray: q, sample: last) }
        shared.best[q] = (running, at)
    }

    /// Judges the cells of `tiles` (the block's, from ``CellTiles/tiles(from:to:seen:mark:)``)
    /// in range whose wedge a is one of `rays` (the block's wedges): each between the block's
    /// rays q = a − `rays.lowerBound` and q + 1, at azimuths `from` and `to`, so the cell lies
    /// `(azimuth − from) / (to − from)` of the way across.
    ///
    /// Two passes. The first judges every cell on the rays' horizon up to its own
    /// neighbourhood: a target below it is hidden whatever its last samples hold, since they can
    /// only raise the horizon, so most hidden cells never read their own line (unless heights
    /// are wanted, which need the whole horizon). The second gathers the last samples of the
    /// cells left, reads them in one batch of the terrain's kernel (the same bits as one by one)
    /// and judges them.
    static func judgeCells(
        tiles: ArraySlice<Int32>, of all: CellTiles, rays: Range<Int>, fan: RayFan, settings: ViewshedSettings, width w: Int,
        targetHeight: Double, samples: Int, step: Double, k: Double, eye: Double,
        pitch: ClosedRange<Double>?, computesHeights: Bool, terrain: some ViewshedTerrain, interpolation: Interpolation,
        blocks: TerrainBlocks?, shared: SweepBuffers, scratch: JudgeScratch
    ) {
        let firstRay = rays.lowerBound
        // The block's wedges lie from `lower` to `upper`; a cell's own wedge decides (the
        // wedges' arithmetic rounds), found first only within a hair of either end.
        let lower = fan.azimuths[rays.lowerBound]
        let upper = fan.azimuths[rays.upperBound]
        let hair = 1e-9
        let limited = settings.azimuthDegrees != nil
        // What a cell in range holds until its own block judges it.
        let unjudged = ViewshedClass.outOfRange.rawValue
        // A cell's wedge where its azimuth `alpha` lies in the block's (−1 well inside them,
        // where any of the block's wedges is found later), nil where it lies in another block's.
        @inline(__always) func blockWedge(_ alpha: Double) -> Int? {
            guard alpha >= lower - CellTiles.margin, alpha <= upper + CellTiles.margin else { return nil }
            if alpha > lower + hair && alpha < upper - hair { return -1 }
            let a = fan.wedge(of: alpha)
            return rays.contains(a) ? a : nil
        }
        // The worker's arrays, taken (so appends find them uniquely held) and handed back
        // emptied with their capacity.
        var (left, columns, rows, near) = scratch.take()
        defer {
            left.removeAll(keepingCapacity: true)
            columns.removeAll(keepingCapacity: true)
            rows.removeAll(keepingCapacity: true)
            near.removeAll(keepingCapacity: true)
            scratch.keep(left, columns, rows, near)
        }
        // Each tile's cells' distances and azimuths, as every pass computes them.
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 4 * CellTiles.maximumCells) { geometry in
            let xs = geometry.baseAddress!
            let ys = xs + CellTiles.maximumCells
            let distances = ys + CellTiles.maximumCells
            let azimuths = distances + CellTiles.maximumCells
            for tile in tiles {
                let (tileRows, tileColumns) = all.cells(of: Int(tile))
                // A tile inside the block's wedges (away from their ends by more than its
                // margin) holds only the block's cells.
                let inside = !limited && all.lies(Int(tile), between: lower + hair, and: upper - hair)
                // A tile whose every cell is below the floors (as each would find): its cells
                // not yet judged hidden, without their geometry (see `own` below).
                if !limited && pitch == nil && !computesHeights, let blocks,
                    tileBelowFloors(
                        Int(tile), of: all, rows: tileRows, columns: tileColumns, blocks: blocks, settings: settings, targetHeight: targetHeight,
                        samples: samples, step: step, k: k, eye: eye, floors: shared.floors)
                {
                    for row in tileRows { hideUnjudged(shared.classes, (row * w + tileColumns.lowerBound)..<(row * w + tileColumns.upperBound)) }
                    continue
                }
                // Azimuths where limits need them first; elsewhere only where the floors do not
                // hide a cell.
                if limited {
                    _ = all.geometry(of: Int(tile), xs: xs, ys: ys, distances: distances, azimuths: azimuths)
                } else {
                    let count = all.coordinates(of: Int(tile), xs: xs, ys: ys)
                    for k in 0..<count {
                        distances[k] = (xs[k] * xs[k] + ys[k] * ys[k]).squareRoot()
                        azimuths[k] = .nan
                    }
                }
                var cell = 0
                for row in tileRows {
                    for i in (row * w + tileColumns.lowerBound)..<(row * w + tileColumns.upperBound) {
                        let here = cell
                        var alpha = azimuths[here]
                        let s = distances[here]
                        cell += 1
                        var a = -1
                        // Whether the cell is known to be the block's: a cell of another block's
                        // wedges is judged by that block, and here only where every block would
                        // judge it alike (no data, the observer's own cell) or on this block's
                        // floors, hidden, only while no block judged it. Every cell in range is
                        // judged by its own block, before or after, and that verdict stands.
                        var own = inside
                        if limited {
                            guard let wedge = blockWedge(alpha) else { continue }
                            a = wedge
                            own = true
                        }
                        // Without azimuth limits, a cell's azimuth is not needed yet.
                        guard inRange(distance: s, azimuth: alpha, settings: settings) else { continue }
                        let zt = terrain.elevation(index: i)
                        guard !zt.isNaN else {
                            shared.classes[i] = ViewshedClass.unknown.rawValue
                            continue
                        }
                        guard s > 0 else {
                            finish(
                                cell: i, distance: s, reduced: 0, slope: 0, horizon: -.infinity, gap: false, computesHeights: computesHeights,
                                shared: shared)
                            continue
                        }
                        let reduced = zt - k * s * s - eye
                        let t = (reduced + targetHeight) / s
                        if let pitch, !pitch.contains(atan(t) * 180 / .pi) { continue }
                        let (before, far) = sampleRange(distance: s, samples: samples, step: step)
                        // Below every ray's horizon in the block up to the target's neighbourhood:
                        // hidden, whichever two rays it lies between (see SweepBuffers.floors).
                        if !computesHeights && t < shared.floors[far / cullSpan] {
                            if own || shared.classes[i] == unjudged { shared.classes[i] = ViewshedClass.hidden.rawValue }
                            continue
                        }
                        if alpha.isNaN {
                            // The first cell of the tile that needs its azimuth: the whole tile's,
                            // as everywhere (the distances come out the same bits).
                            _ = all.geometry(of: Int(tile), xs: xs, ys: ys, distances: distances, azimuths: azimuths)
                            alpha = azimuths[here]
                        }
                        if !own {
                            guard let wedge = blockWedge(alpha) else { continue }
                            a = wedge
                        }
                        if a < 0 { a = fan.wedge(of: alpha) }
                        let q = a - firstRay
                        let from = fan.azimuths[a]
                        let f = (alpha - from) / (fan.azimuths[a + 1] - from)
                        // The rays' horizon up to the target's own neighbourhood, interpolated in azimuth.
                        let horizon = SweepBuffers.blend(
                            shared.horizon(ray: q, sample: far), shared.horizon(ray: q + 1, sample: far), fraction: f)
                        if t < horizon && !computesHeights {
                            shared.classes[i] = ViewshedClass.hidden.rawValue
                            continue
                        }
                        let gap = min(shared.gaps[q], shared.gaps[q + 1]) <= far
                        guard before > far else {
                            finish(
                                cell: i, distance: s, reduced: reduced, slope: t, horizon: horizon, gap: gap, computesHeights: computesHeights,
                                shared: shared)
                            continue
                        }
                        // The last samples before the target on its own line (between the two rays at the
                        // target's fraction, which passes through the target): there the terrain is the
                        // target's own neighbourhood, where a ray beside the line reads another point of
                        // the cell than the line does.
                        left.append(PendingCell(cell: i, distance: s, reduced: reduced, slope: t, horizon: horizon, gap: gap, before: before, far: far))
                        for j in (far + 1)...before {
                            let (c, r) = shared.position(ray: q, fraction: f, sample: j)
                            columns.append(c)
                            rows.append(r)
                        }
                    }
                }
            }
        }
        guard !left.isEmpty else { return }
        near.append(contentsOf: repeatElement(.nan, count: columns.count))
        terrain.sample(columns: columns, rows: rows, interpolation: interpolation, into: &near)
        var next = 0
        for p in left {
            var horizon = p.horizon
            var gap = p.gap
            for j in (p.far + 1)...p.before {
                let z = near[next]
                next += 1
                if z.isNaN {
                    gap = true
                    continue
                }
                let sj = Double(j) * step
                horizon = max(horizon, (z - k * sj * sj - eye) / sj)
            }
            finish(
                cell: p.cell, distance: p.distance, reduced: p.reduced, slope: p.slope, horizon: horizon, gap: gap,
                computesHeights: computesHeights, shared: shared)
        }
    }

    /// Cells `range` of `classes` that no block judged yet (out of range until their block
    /// judges them) made hidden, the others left: eight cells at a time as one 64-bit word, its
    /// bytes equal to the unjudged class found without a branch and cleared (hidden is 0).
    @inline(__always)
    static func hideUnjudged(_ classes: UnsafeMutableBufferPointer<UInt8>, _ range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= classes.count, "cells of the raster")
        let unjudged = ViewshedClass.outOfRange.rawValue
        guard ViewshedClass.hidden.rawValue == 0, let base = classes.baseAddress else {
            for i in range where classes[i] == unjudged { classes[i] = ViewshedClass.hidden.rawValue }
            return
        }
        let raw = UnsafeMutableRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        var i = range.lowerBound
        while i + 8 <= range.upperBound {
            let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            // A byte of `x` is 0 exactly where the cell is unjudged; such a byte, and only such,
            // has its high bit clear in ((x & 0x7F…) + 0x7F…) | x.
            let x = word ^ (ones &* UInt64(unjudged))
            let zero = ~(((x & low7) &+ low7) | x) & ~low7
            let mask = (zero >> 7) &* 0xFF
            raw.storeBytes(of: word & ~mask, toByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < range.upperBound {
            if base[i] == unjudged { base[i] = ViewshedClass.hidden.rawValue }
            i += 1
        }
    }

    /// Whether every cell of tile `t` (whose cells are `rows` × `columns`) that is in range
    /// lies below `floors` where ``judgeCells`` compares it with them, so is hidden: its cells
    /// are no higher than the highest of its ``TerrainBlocks``, no nearer than
    /// ``CellTiles/distanceBounds(of:)``'s nearest (where the floors, rising with distance, are
    /// lowest) and no farther than its farthest, so a target's slope (z + h − eye)/s − k·s is at
    /// most the larger of that height's over either distance less k times the nearer one (the
    /// farther one for a negative k). A tile in reach of no data, not wholly in range, or whose
    /// turn takes half a turn or more (the observer's own, whose nearest cell the bound does not
    /// know), is left to its cells.
    @inline(__always)
    static func tileBelowFloors(
        _ t: Int, of tiles: CellTiles, rows: Range<Int>, columns: Range<Int>, blocks: TerrainBlocks, settings: ViewshedSettings,
        targetHeight: Double, samples: Int, step: Double, k: Double, eye: Double, floors: UnsafeMutableBufferPointer<Double>
    ) -> Bool {
        let level = blocks.fine
        var top = -Double.infinity
        for j in (rows.lowerBound &>> level.shift)...((rows.upperBound - 1) &>> level.shift) {
            for i in (columns.lowerBound &>> level.shift)...((columns.upperBound - 1) &>> level.shift) {
                top = max(top, level.highest[j * level.across + i])
            }
        }
        guard top.isFinite, tiles.turn(of: t).span < 360 else { return false }
        let (nearest, farthest) = tiles.distanceBounds(of: t)
        guard nearest > 0, inRange(distance: nearest, azimuth: 0, settings: settings), inRange(distance: farthest, azimuth: 0, settings: settings)
        else { return false }
        let rise = top + targetHeight - eye
        var slope = max(rise / nearest, rise / farthest) + max(-k * nearest, -k * farthest)
        slope += 1e-9 * (1 + abs(slope))
        return slope < floors[sampleRange(distance: nearest, samples: samples, step: step).far / cullSpan]
    }

    /// The last sample before a target at distance `s` and the last one the rays' horizons
    /// answer for (``nearSamples`` before it): samples j·step ≤ s − step/2 are before the
    /// target. Terrain within half a step (a quarter of a cell) of the target is the target's
    /// own: as an obstacle it would compare the target with itself, where the clearance of any
    /// line shrinks to nothing and rounding in the millimetres decides. `LineOfSight` over a
    /// profile sampled at half a cell has its last sample a step or less before its target, as
    /// the tests' brute force has.
    @inline(__always)
    static func sampleRange(distance s: Double, samples: Int, step: Double) -> (before: Int, far: Int) {
        let before = min(samples - 1, max(0, Int(((s - step / 2) / step).rounded(.down))))
        return (before, max(0, before - nearSamples))
    }

    /// Judges cell `i` at distance `s` (0: the observer's own cell, visible), its target's slope
    /// `t` and its height above the line of zero slope, `reduced` (curvature and eye taken
    /// off), against the highest slope between it and the eye, `horizon`; `gap` when the line
    /// crosses no data.
    @inline(__always)
    static func finish(
        cell i: Int, distance s: Double, reduced: Double, slope t: Double, horizon: Double, gap: Bool, computesHeights: Bool,
        shared: SweepBuffers
    ) {
        guard s > 0 else {
            shared.classes[i] = ViewshedClass.visible.rawValue
            if computesHeights {
                shared.heights[i] = 0
                shared.angles[i] = .nan
            }
            return
        }
        let hidden = t < horizon
        shared.classes[i] = (hidden ? ViewshedClass.hidden : (gap ? ViewshedClass.unknown : ViewshedClass.visible)).rawValue
        if computesHeights && !gap {
            shared.heights[i] = Float(max(0, horizon * s - reduced))
            shared.angles[i] = horizon == -.infinity ? .nan : Float((atan(t) - atan(horizon)) * 180 / .pi)
        }
    }
}

/// A judging worker's arrays of cells waiting for their own lines' last samples and of those
/// samples, kept from one run of tiles to the next so that each appends into capacity already
/// there (a fresh array a run grew and freed them: some 3 % of Half Dome's CPU).
///
/// `@unchecked Sendable` is safe because each belongs to one worker of the loop
/// (``sharedWorkerLoop(threads:)``), which takes and keeps them within one item.
final class JudgeScratch: @unchecked Sendable {
    private var left: [PendingCell] = []
    private var columns: [Double] = []
    private var rows: [Double] = []
    private var near: [Double] = []

    /// The arrays, empty, now the caller's alone.
    func take() -> ([PendingCell], [Double], [Double], [Double]) {
        defer { (left, columns, rows, near) = ([], [], [], []) }
        return (left, columns, rows, near)
    }

    /// The arrays back, emptied by the caller with their capacity kept (emptied here, they
    /// would still be the caller's too, and be copied).
    func keep(_ left: [PendingCell], _ columns: [Double], _ rows: [Double], _ near: [Double]) {
        (self.left, self.columns, self.rows, self.near) = (left, columns, rows, near)
    }
}

/// A cell the rays' horizon did not hide, waiting for its own line's last samples.
struct PendingCell {
    let cell: Int
    let distance: Double
    let reduced: Double
    let slope: Double
    let horizon: Double
    let gap: Bool
    let before: Int
    let far: Int
}

/// What a ray sample's slope takes from its distance j·step alone, for every ray: the eye and
/// the curvature drop k·s² to subtract, and 1/s to multiply by, t = (z − (eye + k·s²))·(1/s).
struct SampleTerms: Sendable {
    /// Between samples, metres.
    let step: Double
    /// eye + k·s², metres.
    let drop: [Double]
    /// 1/s, per metre (infinite at j = 0, never used).
    let inverseDistance: [Double]

    init(samples: Int, step: Double, k: Double, eye: Double) {
        self.step = step
        drop = (0..<max(samples, 1)).map { j in
            let s = Double(j) * step
            return eye + k * s * s
        }
        inverseDistance = (0..<max(samples, 1)).map { 1 / (Double($0) * step) }
    }
}

/// The sweep's buffers, written by the workers of one parallel loop at a time.
///
/// `@unchecked Sendable` is safe because within a loop each worker writes only its own rows of
/// the scratch (ray q), its own floors (``workerFloors``, ``tails``) or its own cells of
/// `classes`, `heights` and `angles` (each cell lies in one wedge), and reads rows only after
/// the loop that wrote them returned, or, a ray's parents' rows, after their flags in ``ready``
/// are raised (which publishes them).
struct SweepBuffers: @unchecked Sendable {
    let classes: UnsafeMutableBufferPointer<UInt8>
    let heights: UnsafeMutableBufferPointer<Float>
    let angles: UnsafeMutableBufferPointer<Float>
    /// Each ray's running horizon, `samples` a ray, where its stretch was sampled
    /// (``horizon(ray:sample:samples:)`` reads it).
    let horizons: UnsafeMutableBufferPointer<Double>
    /// Each ray's horizon across each of its ``Viewshed/cullSpan``-sample stretches that it
    /// crossed unsampled (the horizon stands still there), NaN where the stretch was sampled;
    /// ``spans`` a ray.
    let spanHorizons: UnsafeMutableBufferPointer<Double>
    let spans: Int
    /// Each ray's horizon at the first sample of each of its stretches from its first own
    /// sample to its last, ``spans`` a ray, written as the ray is swept: what ``floors`` take
    /// the lowest of.
    let stretchStarts: UnsafeMutableBufferPointer<Double>
    /// The lowest horizon of the block's rays whose last sample lies in the stretch before,
    /// ``spans`` + 1 a worker: a ray's horizon stands still past its end, so it holds for every
    /// stretch from there on (``finishFloors()``).
    let tails: UnsafeMutableBufferPointer<Double>
    /// Each worker's ``floors`` as its rays fold into them, ``spans`` a worker, and how many.
    let workerFloors: UnsafeMutableBufferPointer<Double>
    let workers: Int
    /// Each ray's first sample in no data inside the raster (`Int.max`: none).
    let gaps: UnsafeMutableBufferPointer<Int>
    /// The lowest of the block's rays' horizons at every ``Viewshed/cullSpan``-th sample, a
    /// little lower for rounding: a cell whose sight line's slope is below the entry at or
    /// before its last sample from the rays (`far`) is below both its rays' horizons there
    /// (a horizon only rises along its ray, and stands still after its end), so below their
    /// interpolation: hidden, without finding its wedge.
    let floors: UnsafeMutableBufferPointer<Double>
    /// The last sample of each ray inside the raster: its horizon is written up to there.
    let lasts: UnsafeMutableBufferPointer<Int>
    /// Each ray's highest slope and its sample (−1: none).
    let best: UnsafeMutableBufferPointer<(Double, Int)>
    /// The block's rays' knots in pixel space, `knots` a ray.
    let knotColumns: UnsafeMutableBufferPointer<Double>
    let knotRows: UnsafeMutableBufferPointer<Double>
    let knots: Int
    /// Samples between knots (``Viewshed/knotSteps``).
    let knotStep: Int
    /// Samples a ray.
    let samples: Int
    /// Each ray's first own sample (the first of a ``Viewshed/coarseSpan``; 0 for rays sampled
    /// from the eye): before it, its horizon is its ``parents``' interpolated (see
    /// ``Viewshed/innerRaySpacingSteps``).
    let ownFrom: UnsafeMutableBufferPointer<Int>
    /// Each ray's two parents in the block and how far across from the first to the second
    /// its azimuth lies (itself twice for rays sampled from the eye).
    let parents: UnsafeMutableBufferPointer<(Int, Int, Double)>
    /// Each ray's highest slope and where, and its first sample in no data, along its whole
    /// length: what the horizon (``Viewshed/horizon``) reports.
    let traced: UnsafeMutableBufferPointer<((Double, Int), Int)>
    /// Raised as each ray of the block is swept: its horizons are ready for the rays it parents.
    let ready: ReadyFlags

    /// The sweep's buffers over the cells' outputs, with scratch for `rays` rays of `samples`
    /// samples and `knots` knots (freed by ``deallocateScratch()``).
    init(
        classes: UnsafeMutableBufferPointer<UInt8>, heights: UnsafeMutableBufferPointer<Float>, angles: UnsafeMutableBufferPointer<Float>,
        rays: Int, samples: Int, knots: Int, knotStep: Int, workers: Int = 1
    ) {
        self.classes = classes
        self.heights = heights
        self.angles = angles
        horizons = .allocate(capacity: rays * samples)
        HugePages.advise(horizons)
        horizons.initialize(repeating: -.infinity)
        spans = (samples + Viewshed.cullSpan - 1) / Viewshed.cullSpan
        spanHorizons = .allocate(capacity: rays * spans)
        spanHorizons.initialize(repeating: .nan)
        stretchStarts = .allocate(capacity: rays * spans)
        stretchStarts.initialize(repeating: -.infinity)
        self.workers = max(1, workers)
        tails = .allocate(capacity: self.workers * (spans + 1))
        tails.initialize(repeating: .infinity)
        workerFloors = .allocate(capacity: self.workers * spans)
        workerFloors.initialize(repeating: .infinity)
        gaps = .allocate(capacity: rays)
        gaps.initialize(repeating: .max)
        lasts = .allocate(capacity: rays)
        lasts.initialize(repeating: 0)
        floors = .allocate(capacity: (samples + Viewshed.cullSpan - 1) / Viewshed.cullSpan)
        floors.initialize(repeating: -.infinity)
        best = .allocate(capacity: rays)
        best.initialize(repeating: (-.infinity, -1))
        knotColumns = .allocate(capacity: rays * knots)
        knotColumns.initialize(repeating: .nan)
        knotRows = .allocate(capacity: rays * knots)
        knotRows.initialize(repeating: .nan)
        self.knots = knots
        self.knotStep = knotStep
        self.samples = samples
        ownFrom = .allocate(capacity: rays)
        ownFrom.initialize(repeating: 0)
        parents = .allocate(capacity: rays)
        parents.initialize(repeating: (0, 0, 0))
        traced = .allocate(capacity: rays)
        traced.initialize(repeating: ((-.infinity, -1), .max))
        ready = ReadyFlags(count: rays)
    }

    /// Frees the scratch ``init(classes:heights:angles:rays:samples:knots:)`` allocated.
    func deallocateScratch() {
        horizons.deallocate()
        spanHorizons.deallocate()
        stretchStarts.deallocate()
        tails.deallocate()
        workerFloors.deallocate()
        gaps.deallocate()
        lasts.deallocate()
        floors.deallocate()
        best.deallocate()
        knotColumns.deallocate()
        knotRows.deallocate()
        ownFrom.deallocate()
        parents.deallocate()
        traced.deallocate()
        ready.deallocate()
    }

    /// Ray `q`'s horizon at sample `j`: at its last inside the raster beyond that (it stands
    /// still after the ray leaves the raster), its parents' interpolated before its first own
    /// sample.
    @inline(__always)
    func horizon(ray q: Int, sample j: Int) -> Double {
        let at = min(j, lasts[q])
        guard at >= ownFrom[q] else { return parentsHorizon(ray: q, sample: at) }
        let held = spanHorizons[q &* spans &+ at / Viewshed.cullSpan]
        return held.isNaN ? horizons[q &* samples &+ at] : held
    }

    /// Ray `q`'s parents' horizons at sample `j`, interpolated at its azimuth.
    func parentsHorizon(ray q: Int, sample j: Int) -> Double {
        let (a, b, f) = parents[q]
        return Self.blend(horizon(ray: a, sample: j), horizon(ray: b, sample: j), fraction: f)
    }

    /// Two rays' horizons `fraction` of the way from `a` to `b`: either alone where the other
    /// has none yet (−∞, the eye's own sample).
    @inline(__always)
    static func blend(_ a: Double, _ b: Double, fraction f: Double) -> Double {
        if a == -.infinity { return b }
        if b == -.infinity { return a }
        return a + f * (b - a)
    }

    /// What ray `q`, sampled from its first own sample on, starts from, once its parents are
    /// swept (it waits for them): their horizon just before, interpolated at its azimuth, and
    /// their first sample in no data where that lies before.
    func inherited(ray q: Int) -> (horizon: Double, gap: Int) {
        let (a, b, _) = parents[q]
        ready.wait(for: a)
        ready.wait(for: b)
        let from = ownFrom[q]
        let gap = min(gaps[a], gaps[b])
        return (parentsHorizon(ray: q, sample: from - 1), gap < from ? gap : .max)
    }

    /// Sets the block's rays (at `azimuths`, degrees: its first ray's to its last's, at most
    /// ``Viewshed/raysPerBlock`` + 1) up for the sweep: each ray's ``parents`` and
    /// ``ownFrom`` (the first sample of the ``Viewshed/coarseSpan`` where their gap widens past
    /// ``Viewshed/innerRaySpacingSteps``, `samples` where it never does), every flag of
    /// ``ready`` lowered; returns the rays in an order that sweeps parents first (the block's
    /// ends, then rays 2^L apart for L from the highest down).
    func arrange(block azimuths: ArraySlice<Double>, samples: Int) -> [Int] {
        let first = azimuths.startIndex
        let end = azimuths.count - 1
        precondition(end >= 1 && end <= Viewshed.raysPerBlock && Viewshed.raysPerBlock.nonzeroBitCount == 1, "a block of rays")
        ready.lowerAll()
        var order = [0, end]
        ownFrom[0] = 0
        parents[0] = (0, 0, 0)
        ownFrom[end] = 0
        parents[end] = (end, end, 0)
        var level = Viewshed.raysPerBlock.trailingZeroBitCount - 1
        while level >= 0 {
            let half = 1 << level
            for q in stride(from: half, to: end, by: 2 * half) {
                let a = q - half
                let b = min(q + half, end)
                let from = azimuths[first + a]
                let width = azimuths[first + b] - from
                // The sample where the parents lie innerRaySpacingSteps steps apart, down to a
                // coarse stretch's first.
                let apart = Viewshed.innerRaySpacingSteps / (width * .pi / 180)
                let start = apart < Double(samples) ? Int(apart) / Viewshed.coarseSpan * Viewshed.coarseSpan : samples
                ownFrom[q] = start
                parents[q] = (a, b, (azimuths[first + q] - from) / width)
                order.append(q)
            }
            level -= 1
        }
        return order
    }

    /// Every worker's floors and tails made ready for a block's rays to fold theirs in
    /// (``foldFloors(ray:worker:)``).
    func resetFloors() {
        for k in 0..<workerFloors.count { workerFloors[k] = .infinity }
        for k in 0..<tails.count { tails[k] = .infinity }
    }

    /// Ray `q`'s horizons at its stretches' starts (``stretchStarts``) from its first own
    /// sample to its last folded into `worker`'s floors, and its horizon at its end into its
    /// ``tails``, once it is swept, by the worker that swept it: no other writes them, so no
    /// lock. The least of the block's rays' is the same whichever worker folded which. Its
    /// stretches before its first own sample lower nothing: their horizons are its parents'
    /// interpolated, never below the lower of theirs.
    func foldFloors(ray q: Int, worker: Int) {
        let starts = stretchStarts.baseAddress! + q * spans
        let floors = workerFloors.baseAddress! + worker * spans
        let last = lasts[q] / Viewshed.cullSpan
        for span in (ownFrom[q] / Viewshed.cullSpan)..<min(last + 1, spans) { floors[span] = min(floors[span], starts[span]) }
        let tail = worker * (spans + 1) + last + 1
        tails[tail] = min(tails[tail], best[q].0)
    }

    /// ``floors``: the least of every worker's, given the rays' horizons past their ends (the
    /// lowest of their ``tails`` so far), lowered a little for rounding, once every ray of the
    /// block folded its own in.
    func finishFloors() {
        var ended = Double.infinity
        for span in 0..<spans {
            var lowest = Double.infinity
            for worker in 0..<workers {
                ended = min(ended, tails[worker * (spans + 1) + span])
                lowest = min(lowest, workerFloors[worker * spans + span])
            }
            lowest = min(lowest, ended)
            floors[span] = lowest - 1e-9 * (1 + abs(lowest))
        }
    }

    /// Pixel coordinates of sample `j` on the line `fraction` of the way from the block's ray
    /// `q` to ray `q + 1`: each ray's position between its knots, as ``Viewshed/sweepRay`` takes
    /// it, interpolated between the two.
    @inline(__always)
    func position(ray q: Int, fraction f: Double, sample j: Int) -> (column: Double, row: Double) {
        let step = knotStep
        let m = j / step
        let u = Double(j - m * step) / Double(step)
        let next = m + 1 < knots ? 1 : 0
        let a = q * knots + m
        let b = a + knots
        let ca = knotColumns[a] + u * (knotColumns[a + next] - knotColumns[a])
        let ra = knotRows[a] + u * (knotRows[a + next] - knotRows[a])
        let cb = knotColumns[b] + u * (knotColumns[b + next] - knotColumns[b])
        let rb = knotRows[b] + u * (knotRows[b + next] - knotRows[b])
        return (ca + f * (cb - ca), ra + f * (rb - ra))
    }
}

/// An observer's cells' distances and azimuths over a raster, and the farthest cell in range
/// in each ``RayFan`` sector (``Viewshed/cellGeometry(observer:width:height:georeference:settings:geodesic:)``):
/// all a viewshed computes before it reads the terrain, with what it was computed for.
public struct ViewshedCellGeometry: Sendable {
    let longitude: Double
    let latitude: Double
    let width: Int
    let height: Int
    let minimumDistanceMetres: Double
    let maximumDistanceMetres: Double?
    let azimuthDegrees: (from: Double, to: Double)?
    let ellipsoid: Ellipsoid
    /// The lattice nodes' extent in azimuthal equidistant x and y, metres.
    let extent: (x: ClosedRange<Double>, y: ClosedRange<Double>)
    let tiles: CellTiles
    /// The farthest cell in range in each sector, metres (0 where none).
    let farthest: [Double]
    /// The sight rays' lattice and the sample step it was made for, where it was made with the
    /// geometry (``Viewshed/cellGeometry(observer:width:height:georeference:settings:geodesic:)``).
    var rays: (step: Double, lattice: RayLattice)?

    /// Whether this is the geometry a viewshed of `observer` over a raster of `width` ×
    /// `height` cells with `settings` and `geodesic` would compute (the threads aside, which
    /// change no bit).
    func serves(observer: ViewshedObserver, width w: Int, height h: Int, settings: ViewshedSettings, geodesic: Geodesic) -> Bool {
        longitude == observer.longitude && latitude == observer.latitude && width == w && height == h
            && minimumDistanceMetres == settings.minimumDistanceMetres && maximumDistanceMetres == settings.maximumDistanceMetres
            && azimuthDegrees?.from == settings.azimuthDegrees?.from && azimuthDegrees?.to == settings.azimuthDegrees?.to
            && ellipsoid == geodesic.ellipsoid
    }
}

/// The tiles of a block's wedges, found by one of the sweep's workers (``CellTiles/tiles(from:to:seen:mark:)``)
/// with the marks of the tiles met, one a tile, that it keeps from block to block.
///
/// `@unchecked Sendable` is safe because one worker a block calls ``list(_:from:to:)``, and the
/// caller reads ``found`` only after the block's workers have all returned.
private final class BlockListing: @unchecked Sendable {
    private var seen: [Int32]
    private var mark: Int32 = 0
    private(set) var found: [Int32] = []

    init(tiles: Int) { seen = [Int32](repeating: 0, count: tiles) }

    func list(_ tiles: CellTiles, from: Double, to: Double) {
        mark += 1
        found = tiles.tiles(from: from, to: to, seen: &seen, mark: mark)
    }
}
