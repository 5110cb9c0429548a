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
    /// Rays a block sweeps together (their horizons in memory at once).
    static let raysPerBlock = 128
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
        try cellGeometry(
            width: w, height: h, observer: observer, georeference: georeference, geodesic: geodesic, distances: &distances,
            azimuths: &azimuths)

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
        let rayCountWanted = (2 * Double.pi * max(farthest, step) / step).rounded(.up)
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

        let parallel = stripedParallelLoop(threads: settings.threads)
        let block = raysPerBlock
        let knots = (samples - 1 + knotStep - 1) / knotStep + 1
        var horizons = [Double](repeating: 0, count: (block + 1) * samples)
        var gaps = [Int](repeating: .max, count: block + 1)
        var best = [(Double, Int)](repeating: (-.infinity, -1), count: block + 1)
        let pitch = settings.pitchDegrees
        let computesHeights = settings.computesHeights

        try classes.withUnsafeMutableBufferPointer { classOut in
            try minimumHeights.withUnsafeMutableBufferPointer { heightOut in
                try angles.withUnsafeMutableBufferPointer { angleOut in
                    try horizons.withUnsafeMutableBufferPointer { horizonBuffer in
                        try gaps.withUnsafeMutableBufferPointer { gapBuffer in
                            try best.withUnsafeMutableBufferPointer { bestBuffer in
                                let shared = SweepBuffers(
                                    classes: classOut, heights: heightOut, angles: angleOut, horizons: horizonBuffer, gaps: gapBuffer,
                                    best: bestBuffer)
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
                                            step: step, k: k, eye: eye, terrain: terrain, width: w, height: h,
                                            interpolation: settings.interpolation, shared: shared)
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
                                            for slot in wedges[a]..<wedges[a + 1] {
                                                let i = Int(cellOrder[slot])
                                                judge(
                                                    cell: i, wedge: q, fraction: cellAzimuths[i] / spacing - Double(a), distance: cellDistances[i],
                                                    target: terrain.value(column: i % w, row: i / w), targetHeight: targetHeight,
                                                    samples: samples, step: step, k: k, eye: eye, pitch: pitch,
                                                    computesHeights: computesHeights, terrain: terrain,
                                                    interpolation: settings.interpolation, shared: blockShared)
                                            }
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
        distances: inout [Double], azimuths: inout [Double]
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
        let lat1 = [Double](repeating: observer.latitude, count: m)
        let lon1 = [Double](repeating: observer.longitude, count: m)
        var s = [Double](repeating: .nan, count: m)
        var az = s
        var az2 = s
        lat1.withUnsafeBufferPointer { la1 in
            lon1.withUnsafeBufferPointer { lo1 in
                lat.withUnsafeBufferPointer { la2 in
                    lon.withUnsafeBufferPointer { lo2 in
                        s.withUnsafeMutableBufferPointer { sOut in
                            az.withUnsafeMutableBufferPointer { aOut in
                                az2.withUnsafeMutableBufferPointer { a2Out in
                                    geodesic.inverse(
                                        latitudes1: la1, longitudes1: lo1, latitudes2: la2, longitudes2: lo2, distances: sOut, azimuths1: aOut,
                                        azimuths2: a2Out)
                                }
                            }
                        }
                    }
                }
            }
        }
        var nx = [Double](repeating: .nan, count: m)
        var ny = nx
        for i in 0..<m where lon[i].isFinite && lat[i].isFinite && abs(lat[i]) <= 90 {
            let (sa, ca) = GeoMath.sincosd(az[i])
            nx[i] = s[i] * sa
            ny[i] = s[i] * ca
        }
        let across = columns.count
        for rj in 0..<rows.count {
            let r0 = rows[rj]
            let r1 = rj + 1 < rows.count ? rows[rj + 1] : r0
            for r in r0...r1 {
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
                        let x = (nx[a] * (1 - u) + nx[b] * u) * (1 - v) + (nx[c] * (1 - u) + nx[d] * u) * v
                        let y = (ny[a] * (1 - u) + ny[b] * u) * (1 - v) + (ny[c] * (1 - u) + ny[d] * u) * v
                        let i = r * w + col
                        distances[i] = (x * x + y * y).squareRoot()
                        var alpha = atan2(x, y) * 180 / .pi
                        if alpha < 0 { alpha += 360 }
                        if alpha >= 360 { alpha = 0 }
                        azimuths[i] = alpha
                    }
                }
            }
        }
    }

    /// Sweeps ray `q` of the block: its samples' positions between the knots, their terrain,
    /// and the running maximum of their slopes into `shared.horizons` row q; the index of its
    /// first sample in no data (inside the raster) into `shared.gaps[q]`, its highest slope and
    /// where into `shared.best[q]`.
    static func sweepRay(
        _ q: Int, knotColumns: [Double], knotRows: [Double], knots: Int, samples: Int, step: Double, k: Double, eye: Double,
        terrain: some ViewshedTerrain, width: Int, height: Int, interpolation: Interpolation, shared: SweepBuffers
    ) {
        let count = samples - 1
        guard count > 0 else {
            shared.horizons[q * samples] = -.infinity
            shared.gaps[q] = .max
            shared.best[q] = (-.infinity, -1)
            return
        }
        var columns = [Double](repeating: 0, count: count)
        var rows = columns
        let base = q * knots
        for j in 1...count {
            let m = j / knotStep
            let u = Double(j - m * knotStep) / Double(knotStep)
            let a = base + m
            let b = m + 1 < knots ? a + 1 : a
            columns[j - 1] = knotColumns[a] + u * (knotColumns[b] - knotColumns[a])
            rows[j - 1] = knotRows[a] + u * (knotRows[b] - knotRows[a])
        }
        // The ray ends where it leaves the raster (with the half cell of margin the taps of its
        // edge cells have): beyond, every sample would be no data, and no cell lies there.
        let w = Double(width)
        let h = Double(height)
        var last = count
        while last > 0 && !(columns[last - 1] >= -0.5 && rows[last - 1] >= -0.5 && columns[last - 1] <= w + 0.5 && rows[last - 1] <= h + 0.5) {
            last -= 1
        }
        var z = [Double](repeating: .nan, count: last)
        if last > 0 {
            terrain.sample(columns: Array(columns[0..<last]), rows: Array(rows[0..<last]), interpolation: interpolation, into: &z)
        }
        let out = shared.horizons.baseAddress! + q * samples
        out[0] = -.infinity
        var running = -Double.infinity
        var at = -1
        var gap = Int.max
        if last > 0 {
            for j in 1...last {
                let zj = z[j - 1]
                if zj.isNaN {
                    let c = columns[j - 1]
                    let r = rows[j - 1]
                    if gap == .max && c >= 0 && r >= 0 && c <= w && r <= h { gap = j }
                } else {
                    let s = Double(j) * step
                    let t = (zj - k * s * s - eye) / s
                    if t > running {
                        running = t
                        at = j
                    }
                }
                out[j] = running
            }
        }
        if last < count { for j in (last + 1)...count { out[j] = running } }
        shared.gaps[q] = gap
        shared.best[q] = (running, at)
    }

    /// Judges cell `i` in wedge `q` of the block (between the block's rays q and q + 1) at
    /// `fraction` of the way from the first to the second.
    @inline(__always)
    static func judge(
        cell i: Int, wedge q: Int, fraction f: Double, distance s: Double, target zt: Double, targetHeight: Double, samples: Int,
        step: Double, k: Double, eye: Double, pitch: ClosedRange<Double>?, computesHeights: Bool, terrain: some ViewshedTerrain,
        interpolation: Interpolation, shared: SweepBuffers
    ) {
        // Samples before the target: j·step ≤ s − step/2. Terrain within half a step (a quarter
        // of a cell) of the target is the target's own: as an obstacle it would compare the
        // target with itself, where the clearance of any line shrinks to nothing and rounding
        // in the millimetres decides. `LineOfSight` over a profile sampled at half a cell has
        // its last sample a step or less before its target, as the tests' brute force has.
        let before = min(samples - 1, max(0, Int(((s - step / 2) / step).rounded(.down))))
        // The rays' horizon up to the target's own neighbourhood, interpolated in azimuth.
        let far = max(0, before - nearSamples)
        let ha = shared.horizons[q * samples + far]
        let hb = shared.horizons[(q + 1) * samples + far]
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
        // target's own neighbourhood, where a ray beside the line reads another point of the
        // cell than the line does.
        if before > far {
            for j in (far + 1)...before {
                let (column, row) = shared.position(ray: q, fraction: f, sample: j)
                let z = terrain.sampleScalar(column: column, row: row, interpolation: interpolation)
                if z.isNaN {
                    gap = true
                    continue
                }
                let sj = Double(j) * step
                horizon = max(horizon, (z - k * sj * sj - eye) / sj)
            }
        }
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
            shared.angles[i] = Float((atan(t) - atan(horizon)) * 180 / .pi)
        }
    }
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
