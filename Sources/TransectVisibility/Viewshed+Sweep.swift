import TransectGeodesy
import TransectRaster
import TransectSupport

#if canImport(Glibc)
import Glibc
#endif

extension Viewshed {
    /// Cells between the nodes of the lattice on which cells' distances and azimuths are
    /// computed exactly (see ``compute(observer:terrain:georeference:settings:demName:geodesic:)``).
    static let latticeStep = 8
    /// Samples between the knots of a sight ray at which its positions are computed exactly.
    static let knotStep = 64
    /// Samples before a target taken on its own line rather than from the rays' horizons: two
    /// cells' worth.
    static let nearSamples = 4
    /// Sight rays' spacing at the farthest cell in range, in sample steps (half cells). Rays a
    /// whole cell apart halve the sweep's work but judge a cone's own surface from its apex,
    /// where every sight line grazes, hidden on 49 cells of 6,561.
    static let raySpacingSteps = 1.0
    /// Rays a block sweeps together (their horizons in memory at once).
    static let raysPerBlock = 128
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
    /// **The sweep.** Sight rays leave the observer along geodesics at azimuths spaced so that
    /// neighbours are at most half a cell apart at the farthest cell in range; each is sampled
    /// every half cell (its positions computed exactly every ``knotStep`` samples, by Karney's
    /// direct problem and the georeference, and interpolated linearly between: a geodesic's
    /// curvature in a geographic raster's pixels, tan φ/R, departs from its chord by under 2 cm
    /// over 32 cells of 30 m at 40°, a thousandth of a cell), and keeps
    /// its horizon, the running maximum of t. A cell is judged on the two rays either side of
    /// its own azimuth: the horizon up to its distance, interpolated linearly in azimuth, against
    /// its T. Each cell's distance and azimuth are exact (Karney's inverse problem) at every
    /// ``latticeStep``-th cell and interpolated between as azimuthal equidistant coordinates,
    /// a smooth map (under a centimetre off over 8 cells of 30 m). So a cell's verdict can
    /// differ from its own sight line's only where the two rays' terrain differs from its line's,
    /// at the edges of what is visible; `make test` holds the difference under 0.1 % of cells,
    /// each at an edge.
    ///
    /// - Complexity: O(n + r·J) for n cells, r rays and J samples a ray: with half-cell
    ///   spacing, r·J ≈ 4π·D²/c² for the farthest distance D and cell side c, a small multiple
    ///   of n.
    public static func compute(
        observer: ViewshedObserver, terrain: some ViewshedTerrain, georeference: some ViewshedGeoreference,
        settings: ViewshedSettings, demName: String, geodesic: Geodesic = .wgs84
    ) throws -> Viewshed {
        let w = terrain.width
        let h = terrain.height
        let n = w * h
        // The observer.
        let at = try georeference.pixelCoordinates(longitudes: [observer.longitude], latitudes: [observer.latitude])
        let c0 = at.columns[0]
        let r0 = at.rows[0]
        guard c0.isFinite, r0.isFinite, c0 >= 0, r0 >= 0, c0 <= Double(w), r0 <= Double(h) else {
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

        // Half the smaller cell side at the observer, on the ellipsoid.
        let corners = try georeference.lonLat(columns: [c0, c0 + 1, c0], rows: [r0, r0, r0 + 1])
        func metres(_ a: Int, _ b: Int) -> Double {
            geodesic.inverse(
                latitude1: corners.latitudes[a], longitude1: corners.longitudes[a], latitude2: corners.latitudes[b],
                longitude2: corners.longitudes[b]
            ).distanceMetres
        }
        let step = 0.5 * min(metres(0, 1), metres(0, 2))
        guard step.isFinite, step > 0 else { throw ViewshedError.noCellSize(dem: demName) }

        // Every cell's distance and azimuth from the observer.
        var distances = [Double](repeating: .nan, count: n)
        var azimuths = [Double](repeating: .nan, count: n)
        let parallel = stripedParallelLoop(threads: settings.threads)
        try distances.withUnsafeMutableBufferPointer { d in
            try azimuths.withUnsafeMutableBufferPointer { a in
                try cellGeometry(
                    width: w, height: h, observer: observer, georeference: georeference, geodesic: geodesic, distances: d, azimuths: a,
                    parallel: parallel)
            }
        }

        // Cells in range, and the farthest of them.
        var classes = [UInt8](repeating: ViewshedClass.outOfRange.rawValue, count: n)
        let maxDistance = settings.maximumDistanceMetres ?? .infinity
        var farthest = 0.0
        var inRange = [Bool](repeating: false, count: n)
        for i in 0..<n {
            let s = distances[i]
            guard s.isFinite, s >= settings.minimumDistanceMetres, s <= maxDistance else { continue }
            if let (from, to) = settings.azimuthDegrees, !Self.azimuth(azimuths[i], liesFrom: from, to: to) { continue }
            inRange[i] = true
            farthest = max(farthest, s)
        }
        // Beyond 5,000 km the lattice of cell directions would straddle the antipode, where
        // neighbouring directions turn half round and interpolating between them means nothing.
        guard farthest <= maximumDistanceMetres else { throw ViewshedError.tooFar(metres: farthest, dem: demName) }
        let rayCountWanted = (2 * Double.pi * max(farthest, step) / (step * raySpacingSteps)).rounded(.up)
        guard rayCountWanted <= Double(maximumRays) else {
            throw ViewshedError.tooManyRays(count: Int(min(rayCountWanted, 1e15)), dem: demName)
        }
        let rays = max(16, Int(rayCountWanted))
        let spacing = 360 / Double(rays)
        let samples = Int((farthest / step).rounded(.up)) + 1

        // Cells by wedge (a counting sort): wedge a lies between rays a and a + 1.
        var wedgeStart = [Int](repeating: 0, count: rays + 1)
        var wedgeOf = [Int32](repeating: -1, count: n)
        for i in 0..<n where inRange[i] {
            let a = min(rays - 1, max(0, Int(azimuths[i] / spacing)))
            wedgeOf[i] = Int32(a)
            wedgeStart[a + 1] += 1
        }
        for a in 0..<rays { wedgeStart[a + 1] += wedgeStart[a] }
        var fill = wedgeStart
        var order = [Int32](repeating: 0, count: wedgeStart[rays])
        for i in 0..<n where wedgeOf[i] >= 0 {
            let a = Int(wedgeOf[i])
            order[fill[a]] = Int32(i)
            fill[a] += 1
        }
        wedgeOf = []
        inRange = []
        let cellOrder = order
        order = []
        let cellDistances = distances
        let cellAzimuths = azimuths
        let wedges = wedgeStart
        distances = []
        azimuths = []

        var minimumHeights = settings.computesHeights ? [Float](repeating: .nan, count: n) : []
        var angles = settings.computesHeights ? [Float](repeating: .nan, count: n) : []
        var horizon = [HorizonPoint](
            repeating: HorizonPoint(azimuthDegrees: 0, elevationDegrees: .nan, distanceMetres: .nan, crossesNoData: false), count: rays)

        let along = SampleTerms(samples: samples, step: step, k: k, eye: eye)
        let block = raysPerBlock
        let knots = (samples - 1 + knotStep - 1) / knotStep + 1
        var horizons = [Double](repeating: 0, count: (block + 1) * samples)
        var gaps = [Int](repeating: .max, count: block + 1)
        var lasts = [Int](repeating: 0, count: block + 1)
        var best = [(Double, Int)](repeating: (-.infinity, -1), count: block + 1)
        let pitch = settings.pitchDegrees
        let computesHeights = settings.computesHeights

        try classes.withUnsafeMutableBufferPointer { classOut in
            try minimumHeights.withUnsafeMutableBufferPointer { heightOut in
                try angles.withUnsafeMutableBufferPointer { angleOut in
                    try horizons.withUnsafeMutableBufferPointer { horizonBuffer in
                        try gaps.withUnsafeMutableBufferPointer { gapBuffer in
                            try best.withUnsafeMutableBufferPointer { bestBuffer in
                                try lasts.withUnsafeMutableBufferPointer { lastBuffer in
                                    let shared = SweepBuffers(
                                        classes: classOut, heights: heightOut, angles: angleOut, horizons: horizonBuffer, gaps: gapBuffer,
                                        lasts: lastBuffer, best: bestBuffer)
                                    var first = 0
                                    while first < rays {
                                        let last = min(first + block, rays)  // rays first...last, wedges first..<last
                                        let count = last - first + 1
                                        // Knots of the block's rays, exactly: Karney's direct problem, then the georeference.
                                        var lat1 = [Double](repeating: observer.latitude, count: count * knots)
                                        let lon1 = [Double](repeating: observer.longitude, count: count * knots)
                                        var azi = [Double](repeating: 0, count: count * knots)
                                        var dist = azi
                                        for q in 0..<count {
                                            for m in 0..<knots {
                                                azi[q * knots + m] = Double(first + q) * spacing
                                                dist[q * knots + m] = Double(m * knotStep) * step
                                            }
                                        }
                                        var lat2 = azi
                                        var lon2 = azi
                                        var azi2 = azi
                                        lat1.withUnsafeBufferPointer { la1 in
                                            lon1.withUnsafeBufferPointer { lo1 in
                                                azi.withUnsafeBufferPointer { az in
                                                    dist.withUnsafeBufferPointer { d in
                                                        lat2.withUnsafeMutableBufferPointer { la2 in
                                                            lon2.withUnsafeMutableBufferPointer { lo2 in
                                                                azi2.withUnsafeMutableBufferPointer { az2 in
                                                                    geodesic.direct(
                                                                        latitudes1: la1, longitudes1: lo1, azimuths1: az, distances: d, latitudes2: la2,
                                                                        longitudes2: lo2, azimuths2: az2)
                                                                }
                                                            }
                                                        }
                                                    }
                                                }
                                            }
                                        }
                                        lat1 = []
                                        let knotPixels = try georeference.pixelCoordinates(longitudes: lon2, latitudes: lat2)
                                        // The block's rays' horizons.
                                        let blockShared = shared.with(
                                            knotColumns: knotPixels.columns, knotRows: knotPixels.rows, knots: knots)
                                        parallel(count) { q in
                                            sweepRay(
                                                q, knotColumns: knotPixels.columns, knotRows: knotPixels.rows, knots: knots, samples: samples,
                                                along: along, terrain: terrain, width: w, height: h, interpolation: settings.interpolation,
                                                shared: shared)
                                        }
                                        for q in 0..<(last - first) {
                                            let (t, j) = shared.best[q]
                                            horizon[first + q] = HorizonPoint(
                                                azimuthDegrees: Double(first + q) * spacing,
                                                elevationDegrees: j >= 0 ? atan(t) * 180 / .pi : .nan,
                                                distanceMetres: j >= 0 ? Double(j) * step : .nan,
                                                crossesNoData: shared.gaps[q] != .max)
                                        }
                                        // The cells of the block's wedges.
                                        let blockFirst = first
                                        do {
                                            parallel(last - first) { q in
                                                let a = blockFirst + q
                                                judgeWedge(
                                                    q, cells: cellOrder[wedges[a]..<wedges[a + 1]], start: Double(a), spacing: spacing,
                                                    distances: cellDistances, azimuths: cellAzimuths, width: w, targetHeight: targetHeight,
                                                    samples: samples, step: step, k: k, eye: eye, pitch: pitch, computesHeights: computesHeights,
                                                    terrain: terrain, interpolation: settings.interpolation, shared: blockShared)
                                            }
                                        }
                                        first = last
                                    }
                                }
                            }
                        }
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

    /// Distances (metres) and azimuths (degrees in [0, 360)) of every cell centre from the
    /// observer: exact at the lattice's nodes (every ``latticeStep``-th row and column and the
    /// last), interpolated bilinearly between as azimuthal equidistant x = s·sin α, y = s·cos α.
    static func cellGeometry(
        width w: Int, height h: Int, observer: ViewshedObserver, georeference: some ViewshedGeoreference, geodesic: Geodesic,
        distances: UnsafeMutableBufferPointer<Double>, azimuths: UnsafeMutableBufferPointer<Double>, parallel: ParallelLoop
    ) throws {
        let columns = Array(stride(from: 0, to: w - 1, by: latticeStep)) + [w - 1]
        let rows = Array(stride(from: 0, to: h - 1, by: latticeStep)) + [h - 1]
        var nodeColumns: [Double] = []
        var nodeRows: [Double] = []
        for r in rows {
            for c in columns {
                nodeColumns.append(Double(c) + 0.5)
                nodeRows.append(Double(r) + 0.5)
            }
        }
        let (lon, lat) = try georeference.lonLat(columns: nodeColumns, rows: nodeRows)
        let m = lon.count
        let from = GeoPoint(longitude: observer.longitude, latitude: observer.latitude)
        let solved = geodesic.inverse(from: [GeoPoint](repeating: from, count: m), to: (0..<m).map { GeoPoint(longitude: lon[$0], latitude: lat[$0]) })
        let s = solved.map(\.distanceMetres)
        let az = solved.map(\.azimuth1Degrees)
        var nx = [Double](repeating: .nan, count: m)
        var ny = nx
        for i in 0..<m where lon[i].isFinite && lat[i].isFinite && abs(lat[i]) <= 90 {
            let (sa, ca) = GeoMath.sincosd(az[i])
            nx[i] = s[i] * sa
            ny[i] = s[i] * ca
        }
        let across = columns.count
        // Row bands between lattice rows on the workers: band j holds its first lattice row up
        // to the next band's first (the last band both of its lattice rows).
        let box = GeometryBuffers(distances: distances, azimuths: azimuths)
        let (nodesX, nodesY) = (nx, ny)
        let bands = max(1, rows.count - 1)
        parallel(bands) { rj in
            let r0 = rows[rj]
            let r1 = rj + 1 < rows.count ? rows[rj + 1] : r0
            let end = rj == bands - 1 ? r1 : r1 - 1
            for r in r0...end {
                let v = r1 > r0 ? Double(r - r0) / Double(r1 - r0) : 0
                for ci in 0..<across {
                    let c0 = columns[ci]
                    let c1 = ci + 1 < across ? columns[ci + 1] : c0
                    let a = rj * across + ci
                    let b = ci + 1 < across ? a + 1 : a
                    let c = rj + 1 < rows.count ? a + across : a
                    let d = ci + 1 < across ? c + 1 : c
                    for col in c0...c1 {
                        let u = c1 > c0 ? Double(col - c0) / Double(c1 - c0) : 0
                        let x = (nodesX[a] * (1 - u) + nodesX[b] * u) * (1 - v) + (nodesX[c] * (1 - u) + nodesX[d] * u) * v
                        let y = (nodesY[a] * (1 - u) + nodesY[b] * u) * (1 - v) + (nodesY[c] * (1 - u) + nodesY[d] * u) * v
                        let i = r * w + col
                        box.distances[i] = (x * x + y * y).squareRoot()
                        var alpha = atan2(x, y) * 180 / .pi
                        if alpha < 0 { alpha += 360 }
                        if alpha >= 360 { alpha = 0 }
                        box.azimuths[i] = alpha
                    }
                }
            }
        }
    }

    /// Sweeps ray `q` of the block: its samples' positions between the knots, their terrain,
    /// and the running maximum of their slopes into `shared.horizons` row q; the index of its
    /// first sample in no data (inside the raster) into `shared.gaps[q]`, its highest slope and
    /// where into `shared.best[q]`. `along` holds each sample's distance terms, the same for
    /// every ray.
    static func sweepRay(
        _ q: Int, knotColumns: [Double], knotRows: [Double], knots: Int, samples: Int, along: SampleTerms,
        terrain: some ViewshedTerrain, width: Int, height: Int, interpolation: Interpolation, shared: SweepBuffers
    ) {
        let count = samples - 1
        let out = shared.horizons.baseAddress! + q * samples
        out[0] = -.infinity
        guard count > 0 else {
            shared.lasts[q] = 0
            shared.gaps[q] = .max
            shared.best[q] = (-.infinity, -1)
            return
        }
        // The ray ends where it leaves the raster (with the half cell of margin the taps of its
        // edge cells have): beyond, every sample would be no data, and no cell lies there. Rays
        // are straight to a thousandth of a cell between knots, so the first knot outside bounds
        // the samples to place, and the last of them inside is found among a knot step's.
        let w = Double(width)
        let h = Double(height)
        func inside(_ c: Double, _ r: Double) -> Bool { c >= -0.5 && r >= -0.5 && c <= w + 0.5 && r <= h + 0.5 }
        let base = q * knots
        var placed = count
        for m in 1..<max(knots, 1) where !inside(knotColumns[base + m], knotRows[base + m]) {
            placed = min(count, m * knotStep)
            break
        }
        // Positions of samples 1...placed, knot segment by knot segment.
        var columns = [Double](repeating: 0, count: placed)
        var rows = columns
        columns.withUnsafeMutableBufferPointer { cs in
            rows.withUnsafeMutableBufferPointer { rs in
                var j = 1
                while j <= placed {
                    let m = j / knotStep
                    let a = base + m
                    let b = m + 1 < knots ? a + 1 : a
                    let (c0, dc) = (knotColumns[a], knotColumns[b] - knotColumns[a])
                    let (r0, dr) = (knotRows[a], knotRows[b] - knotRows[a])
                    let end = min(placed, (m + 1) * knotStep - 1)
                    while j <= end {
                        let u = Double(j - m * knotStep) / Double(knotStep)
                        cs[j - 1] = c0 + u * dc
                        rs[j - 1] = r0 + u * dr
                        j += 1
                    }
                }
            }
        }
        var last = placed
        while last > 0 && !inside(columns[last - 1], rows[last - 1]) { last -= 1 }
        columns.removeSubrange(last...)
        rows.removeSubrange(last...)
        var z = [Double](repeating: .nan, count: last)
        if last > 0 { terrain.sample(columns: columns, rows: rows, interpolation: interpolation, into: &z) }
        var running = -Double.infinity
        var at = -1
        var gap = Int.max
        z.withUnsafeBufferPointer { z in
            let drop = along.drop
            let inverse = along.inverseDistance
            for j in stride(from: 1, through: last, by: 1) {
                let zj = z[j - 1]
                if zj.isNaN {
                    let c = columns[j - 1]
                    let r = rows[j - 1]
                    if gap == .max && c >= 0 && r >= 0 && c <= w && r <= h { gap = j }
                } else {
                    let t = (zj - drop[j]) * inverse[j]
                    if t > running {
                        running = t
                        at = j
                    }
                }
                out[j] = running
            }
        }
        shared.lasts[q] = last
        shared.gaps[q] = gap
        shared.best[q] = (running, at)
    }

    /// Judges the `cells` of the block's wedge `q` (between its rays q and q + 1; `start` is
    /// the wedge's index, so a cell lies `azimuth / spacing − start` of the way across). The
    /// samples each cell takes on its own line are gathered first and read in one batch of the
    /// terrain's kernel (the same bits as one by one).
    static func judgeWedge(
        _ q: Int, cells: ArraySlice<Int32>, start: Double, spacing: Double, distances: [Double], azimuths: [Double], width w: Int,
        targetHeight: Double, samples: Int, step: Double, k: Double, eye: Double, pitch: ClosedRange<Double>?, computesHeights: Bool,
        terrain: some ViewshedTerrain, interpolation: Interpolation, shared: SweepBuffers
    ) {
        guard !cells.isEmpty else { return }
        var columns: [Double] = []
        var rows: [Double] = []
        columns.reserveCapacity(cells.count * nearSamples)
        rows.reserveCapacity(cells.count * nearSamples)
        for cell in cells {
            let i = Int(cell)
            let (before, far) = sampleRange(distance: distances[i], samples: samples, step: step)
            guard before > far else { continue }
            let f = azimuths[i] / spacing - start
            for j in (far + 1)...before {
                let (c, r) = shared.position(ray: q, fraction: f, sample: j)
                columns.append(c)
                rows.append(r)
            }
        }
        var near = [Double](repeating: .nan, count: columns.count)
        if !columns.isEmpty { terrain.sample(columns: columns, rows: rows, interpolation: interpolation, into: &near) }
        var next = 0
        for cell in cells {
            let i = Int(cell)
            let s = distances[i]
            let f = azimuths[i] / spacing - start
            let (before, far) = sampleRange(distance: s, samples: samples, step: step)
            // A ray's horizon stands still after it leaves the raster.
            let ha = shared.horizons[q * samples + min(far, shared.lasts[q])]
            let hb = shared.horizons[(q + 1) * samples + min(far, shared.lasts[q + 1])]
            // The rays' horizon up to the target's own neighbourhood, interpolated in azimuth.
            var horizon: Double
            if ha == -.infinity {
                horizon = hb
            } else if hb == -.infinity {
                horizon = ha
            } else {
                horizon = ha + f * (hb - ha)
            }
            var gap = min(shared.gaps[q], shared.gaps[q + 1]) <= far
            // The last samples before the target on its own line (between the two rays at the
            // target's fraction, which passes through the target): there the terrain is the
            // target's own neighbourhood, where a ray beside the line reads another point of
            // the cell than the line does.
            if before > far {
                for j in (far + 1)...before {
                    let z = near[next]
                    next += 1
                    if z.isNaN {
                        gap = true
                        continue
                    }
                    let sj = Double(j) * step
                    horizon = max(horizon, (z - k * sj * sj - eye) / sj)
                }
            }
            judge(
                cell: i, distance: s, target: terrain.value(column: i % w, row: i / w), horizon: horizon, gap: gap,
                targetHeight: targetHeight, k: k, eye: eye, pitch: pitch, computesHeights: computesHeights, shared: shared)
        }
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

    /// Judges cell `i` at distance `s` with terrain `zt` against the highest slope between it
    /// and the eye, `horizon`; `gap` when the line crosses no data.
    @inline(__always)
    static func judge(
        cell i: Int, distance s: Double, target zt: Double, horizon: Double, gap: Bool, targetHeight: Double, k: Double, eye: Double,
        pitch: ClosedRange<Double>?, computesHeights: Bool, shared: SweepBuffers
    ) {
        guard !zt.isNaN else {
            shared.classes[i] = ViewshedClass.unknown.rawValue
            return
        }
        guard s > 0 else {
            shared.classes[i] = ViewshedClass.visible.rawValue
            if computesHeights {
                shared.heights[i] = 0
                shared.angles[i] = .nan
            }
            return
        }
        let reduced = zt - k * s * s - eye
        let t = (reduced + targetHeight) / s
        if let pitch, !pitch.contains(atan(t) * 180 / .pi) { return }
        let hidden = t < horizon
        shared.classes[i] = (hidden ? ViewshedClass.hidden : (gap ? ViewshedClass.unknown : ViewshedClass.visible)).rawValue
        if computesHeights && !gap {
            shared.heights[i] = Float(max(0, horizon * s - reduced))
            shared.angles[i] = horizon == -.infinity ? .nan : Float((atan(t) - atan(horizon)) * 180 / .pi)
        }
    }
}

/// What a ray sample's slope takes from its distance j·step alone, for every ray: the eye and
/// the curvature drop k·s² to subtract, and 1/s to multiply by, t = (z − (eye + k·s²))·(1/s).
struct SampleTerms: Sendable {
    /// eye + k·s², metres.
    let drop: [Double]
    /// 1/s, per metre (infinite at j = 0, never used).
    let inverseDistance: [Double]

    init(samples: Int, step: Double, k: Double, eye: Double) {
        drop = (0..<max(samples, 1)).map { j in
            let s = Double(j) * step
            return eye + k * s * s
        }
        inverseDistance = (0..<max(samples, 1)).map { 1 / (Double($0) * step) }
    }
}

/// Every cell's distance and azimuth, written by the workers of ``Viewshed/cellGeometry``.
///
/// `@unchecked Sendable` is safe because each worker writes the rows of its own band, no two
/// bands share a row, and nothing reads them before the loop returns.
struct GeometryBuffers: @unchecked Sendable {
    let distances: UnsafeMutableBufferPointer<Double>
    let azimuths: UnsafeMutableBufferPointer<Double>
}

/// The sweep's buffers, written by the workers of one parallel loop at a time.
///
/// `@unchecked Sendable` is safe because within a loop each worker writes only its own rows of
/// `horizons`, `gaps` and `best` (ray q) or its own cells of `classes`, `heights` and `angles`
/// (each cell lies in one wedge), and reads rows only after the loop that wrote them returned.
struct SweepBuffers: @unchecked Sendable {
    let classes: UnsafeMutableBufferPointer<UInt8>
    let heights: UnsafeMutableBufferPointer<Float>
    let angles: UnsafeMutableBufferPointer<Float>
    let horizons: UnsafeMutableBufferPointer<Double>
    let gaps: UnsafeMutableBufferPointer<Int>
    /// The last sample of each ray inside the raster: its horizon is written up to there.
    let lasts: UnsafeMutableBufferPointer<Int>
    let best: UnsafeMutableBufferPointer<(Double, Int)>
    /// The block's rays' knots in pixel space, `knots` a ray.
    var knotColumns: [Double] = []
    var knotRows: [Double] = []
    var knots = 0

    func with(knotColumns: [Double], knotRows: [Double], knots: Int) -> SweepBuffers {
        var copy = self
        copy.knotColumns = knotColumns
        copy.knotRows = knotRows
        copy.knots = knots
        return copy
    }

    /// Pixel coordinates of sample `j` on the line `fraction` of the way from the block's ray
    /// `q` to ray `q + 1`: each ray's position between its knots, as ``Viewshed/sweepRay`` takes
    /// it, interpolated between the two.
    @inline(__always)
    func position(ray q: Int, fraction f: Double, sample j: Int) -> (column: Double, row: Double) {
        let step = Viewshed.knotStep
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
