/// The sight rays' azimuths: the turn is cut into ``sectors`` equal sectors, and each sector's
/// rays are spread evenly across it, as many as its farthest cell in range needs to have its
/// neighbouring rays at most ``Viewshed/raySpacingSteps`` sample steps apart there. A sector
/// reaching only to a near edge of the raster takes few rays; rays reaching farther than a
/// sector's cells are not swept. Ray q lies at ``azimuths``[q]; wedge q between rays q and
/// q + 1; the last ray, at 360°, is the first again.
struct RayFan: Sendable {
    /// Equal sectors of the turn.
    static let sectors = 256
    /// Each ray's azimuth, degrees, increasing from 0 to 360 (the last).
    let azimuths: [Double]
    /// Sector s's first ray.
    let sectorStart: [Int]
    /// Sector s's rays.
    let sectorRays: [Int]

    /// The rays for sectors whose farthest cells in range lie `farthest[s]` metres away (0
    /// where none), neighbours `spacingSteps` steps of `step` metres apart at most there
    /// (check ``count(farthest:step:spacingSteps:)`` first).
    init(farthest: [Double], step: Double, spacingSteps: Double) {
        let width = 360 / Double(Self.sectors)
        let radians = width * .pi / 180
        var starts: [Int] = []
        var counts: [Int] = []
        var total = 0
        for s in 0..<Self.sectors {
            let wanted = (radians * max(farthest[s], step) / (step * spacingSteps)).rounded(.up)
            let n = Int(min(max(wanted, 1), Double(Int32.max)))
            starts.append(total)
            counts.append(n)
            total += n
        }
        starts.append(total)
        var azimuths: [Double] = []
        azimuths.reserveCapacity(total + 1)
        for s in 0..<Self.sectors {
            let inner = width / Double(counts[s])
            for i in 0..<counts[s] { azimuths.append(Double(s) * width + Double(i) * inner) }
        }
        azimuths.append(360)
        self.azimuths = azimuths
        sectorStart = starts
        sectorRays = counts
    }

    /// The rays that would be swept for `farthest` before any is placed: the size check.
    static func count(farthest: [Double], step: Double, spacingSteps: Double) -> Double {
        let radians = 360 / Double(sectors) * .pi / 180
        return farthest.reduce(0) { $0 + max(1, (radians * max($1, step) / (step * spacingSteps)).rounded(.up)) }
    }

    /// Rays in the fan (the last, at 360°, not counted: it is the first again).
    var count: Int { azimuths.count - 1 }

    /// The sector of `azimuth` (degrees in [0, 360)).
    @inline(__always)
    static func sector(of azimuth: Double) -> Int {
        min(sectors - 1, max(0, Int(azimuth / (360 / Double(sectors)))))
    }

    /// The wedge of `azimuth` (degrees in [0, 360)): the ray at or before it.
    @inline(__always)
    func wedge(of azimuth: Double) -> Int {
        let s = Self.sector(of: azimuth)
        let width = 360 / Double(Self.sectors)
        let n = sectorRays[s]
        let i = min(n - 1, max(0, Int((azimuth - Double(s) * width) / (width / Double(n)))))
        return sectorStart[s] + i
    }
}
