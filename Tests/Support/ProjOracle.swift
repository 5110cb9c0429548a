import CPROJ

// PROJ as the oracle of the tests: its copy of GeographicLib's C geodesic routines for our
// Karney port, and its coordinate operations for our projections. Every test target that checks
// against PROJ uses these, so there is one way of calling it.

/// PROJ's geodesic on an ellipsoid. The C functions are `geod_init`, `geod_geninverse` and
/// `geod_direct`.
public struct ProjGeodesic: Sendable {
    private let g: geod_geodesic

    public init(equatorialRadius a: Double, flattening f: Double) {
        var g = geod_geodesic()
        geod_init(&g, a, f)
        self.g = g
    }

    public static let wgs84 = ProjGeodesic(equatorialRadius: 6_378_137, flattening: 1 / 298.257223563)

    /// `geod_geninverse`: distance, azimuths, arc and reduced length m12 (metres).
    public func inverse(
        _ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double
    )
        -> (s12: Double, azi1: Double, azi2: Double, a12: Double, m12: Double)
    {
        var s12 = 0.0
        var azi1 = 0.0
        var azi2 = 0.0
        var m12 = 0.0
        let a12 = withUnsafePointer(to: g) { p in
            geod_geninverse(p, lat1, lon1, lat2, lon2, &s12, &azi1, &azi2, &m12, nil, nil, nil)
        }
        return (s12, azi1, azi2, a12, m12)
    }

    /// `geod_direct` (longitude reduced to [−180, 180], no GEOD_LONG_UNROLL).
    public func direct(
        _ lat1: Double, _ lon1: Double, _ azi1: Double, _ s12: Double
    )
        -> (lat2: Double, lon2: Double, azi2: Double)
    {
        var lat2 = 0.0
        var lon2 = 0.0
        var azi2 = 0.0
        withUnsafePointer(to: g) { p in
            geod_direct(p, lat1, lon1, azi1, s12, &lat2, &lon2, &azi2)
        }
        return (lat2, lon2, azi2)
    }
}

/// A PROJ coordinate operation between two CRSs, normalised to the order maps use: longitude
/// before latitude, easting before northing. The C functions are `proj_create_crs_to_crs`,
/// `proj_normalize_for_visualization` and `proj_trans`. Not thread-safe: one per test.
public final class ProjTransformation {
    private let context: OpaquePointer
    private let transform: OpaquePointer

    /// The operation from `source` to `target` ("EPSG:4326", …); throws when PROJ cannot make it
    /// (no proj.db, unknown code).
    public init(from source: String, to target: String) throws {
        guard let ctx = proj_context_create() else { throw ProjFailure("proj_context_create failed") }
        guard let raw = proj_create_crs_to_crs(ctx, source, target, nil) else {
            proj_context_destroy(ctx)
            throw ProjFailure("proj_create_crs_to_crs(\(source), \(target)) failed: is proj.db installed?")
        }
        defer { proj_destroy(raw) }
        guard let normalised = proj_normalize_for_visualization(ctx, raw) else {
            proj_context_destroy(ctx)
            throw ProjFailure("proj_normalize_for_visualization(\(source) → \(target)) failed")
        }
        context = ctx
        transform = normalised
    }

    deinit {
        proj_destroy(transform)
        proj_context_destroy(context)
    }

    /// Source → target; `z` is a height (or geocentric Z) where the CRSs have one.
    public func forward(_ x: Double, _ y: Double, _ z: Double = 0) -> (x: Double, y: Double, z: Double) {
        run(x, y, z, PJ_FWD)
    }

    /// Target → source.
    public func inverse(_ x: Double, _ y: Double, _ z: Double = 0) -> (x: Double, y: Double, z: Double) {
        run(x, y, z, PJ_INV)
    }

    private func run(_ x: Double, _ y: Double, _ z: Double, _ direction: PJ_DIRECTION) -> (x: Double, y: Double, z: Double) {
        let out = proj_trans(transform, direction, proj_coord(x, y, z, 0))
        return (out.xyz.x, out.xyz.y, out.xyz.z)
    }
}

/// Why PROJ could not make an oracle.
public struct ProjFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// |a − b| for angles in degrees, reduced modulo 360 to [0, 180]. Both NaN counts as equal.
public func angleError(_ a: Double, _ b: Double) -> Double {
    if a.isNaN && b.isNaN { return 0 }
    return (a - b).remainder(dividingBy: 360).magnitude
}

/// |a − b|, with both NaN counting as equal.
public func valueError(_ a: Double, _ b: Double) -> Double {
    if a.isNaN && b.isNaN { return 0 }
    return (a - b).magnitude
}
