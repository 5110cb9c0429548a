import TransectGeodesy
import TransectRaster
import TransectSupport

/// What a viewshed says of one cell.
///
/// The raw values are the Byte raster's: `gdal_viewshed`'s where it has them (visible 255,
/// hidden 0), and two of ours for what it cannot say.
public enum ViewshedClass: UInt8, Sendable, CaseIterable {
    /// The sight line to the target above the cell is blocked by terrain.
    case hidden = 0
    /// Beyond `--max-distance`, nearer than `--min-distance`, outside `--azimuth` or `--pitch`,
    /// or where the CRS gives the cell no place on the earth.
    case outOfRange = 1
    /// No terrain blocks the sight line, but it crosses no-data (or the cell itself has none):
    /// never called visible.
    case unknown = 2
    /// The sight line clears every terrain sample between the observer and the target.
    case visible = 255
}

/// One observer: a place, and its eye's height above the ground or above the datum.
public struct ViewshedObserver: Sendable, Hashable {
    /// How the eye's height is given.
    public enum Height: Sendable, Hashable {
        /// Metres above the terrain under the observer (sampled as every sample is).
        case aboveGround(Double)
        /// Metres above the DEM's vertical datum.
        case absolute(Double)
    }

    /// WGS84 longitude and latitude, degrees.
    public var longitude: Double
    public var latitude: Double
    public var height: Height
    /// The target height for this observer's sight lines, metres above the target's ground;
    /// nil takes the settings'.
    public var targetHeightMetres: Double?
    /// How messages name the observer (`--observer 6.86,45.83`, `observers.csv line 4`).
    public var name: String

    public init(longitude: Double, latitude: Double, height: Height, targetHeightMetres: Double? = nil, name: String) {
        self.longitude = longitude
        self.latitude = latitude
        self.height = height
        self.targetHeightMetres = targetHeightMetres
        self.name = name
    }
}

/// How sight lines are judged and what is computed besides the classes.
public struct ViewshedSettings: Sendable {
    /// Target height above each cell's ground, metres (default 0: the ground itself).
    public var targetHeightMetres: Double
    /// The curvature coefficient cc: terrain at geodesic distance d is lowered by
    /// cc·d²/(2R), as ``EarthCurvature`` and `profile`'s line of sight take it.
    public var curvature: Double
    /// Cells nearer than this, metres, are out of range.
    public var minimumDistanceMetres: Double
    /// Cells farther than this, metres, are out of range; nil: the whole DEM.
    public var maximumDistanceMetres: Double?
    /// Only cells whose azimuth from the observer lies clockwise from `from` to `to` (degrees);
    /// nil: every direction.
    public var azimuthDegrees: (from: Double, to: Double)?
    /// Only cells whose sight line's pitch (degrees above the observer's level, curvature
    /// included) lies in this range; nil: any.
    public var pitchDegrees: ClosedRange<Double>?
    /// How the terrain is read between cell centres, as `profile --interpolation`.
    public var interpolation: Interpolation
    /// Whether to compute the minimum visible target height and the angle above the horizon.
    public var computesHeights: Bool
    /// Workers; the result is the same bits for any count.
    public var threads: Int
    /// Whether to trace the horizon (``Viewshed/horizon``): every ray sampled from the eye for
    /// its own highest slope, where the sweep takes a ray's horizon near the eye from its
    /// neighbours' (see ``Viewshed/innerRaySpacingSteps``). The cells' verdicts are the same
    /// bits either way.
    public var tracesHorizon: Bool

    public init(
        targetHeightMetres: Double = 0, curvature: Double = EarthCurvature.defaultCurvatureCoefficient,
        minimumDistanceMetres: Double = 0, maximumDistanceMetres: Double? = nil, azimuthDegrees: (from: Double, to: Double)? = nil,
        pitchDegrees: ClosedRange<Double>? = nil, interpolation: Interpolation = .bilinear, computesHeights: Bool = false,
        threads: Int = 1, tracesHorizon: Bool = true
    ) {
        self.targetHeightMetres = targetHeightMetres
        self.curvature = curvature
        self.minimumDistanceMetres = minimumDistanceMetres
        self.maximumDistanceMetres = maximumDistanceMetres
        self.azimuthDegrees = azimuthDegrees
        self.pitchDegrees = pitchDegrees
        self.interpolation = interpolation
        self.computesHeights = computesHeights
        self.threads = max(1, threads)
        self.tracesHorizon = tracesHorizon
    }
}

/// The viewshed of one observer over a raster: a class per cell, in the raster's row-major
/// order, and what the sweep learnt on the way.
public struct Viewshed: Sendable {
    public let width: Int
    public let height: Int
    /// ``ViewshedClass`` raw values, `width × height`, row after row.
    public var classes: [UInt8]
    /// The least target height above the ground that would be visible, metres (0 where the
    /// ground is); `nan` where unknown or out of range, and where the sight line crosses no
    /// data (terrain there could hide more). Empty unless asked for.
    public var minimumVisibleHeightMetres: [Float]
    /// The target's elevation angle above the horizon in its direction (negative: below it),
    /// degrees; `nan` where unknown or out of range, where the sight line crosses no data, and
    /// where no terrain lies between the eye and the target. Empty unless asked for.
    public var angleAboveHorizonDegrees: [Float]
    /// The horizon: for each sight ray, its azimuth and the highest elevation angle of the
    /// terrain along it (curvature included) within range. Empty unless
    /// ``ViewshedSettings/tracesHorizon``.
    public var horizon: [HorizonPoint]
    /// The observer's pixel coordinates, ground and eye heights (metres above the datum).
    public var observerColumn: Double
    public var observerRow: Double
    public var observerGroundMetres: Double
    public var observerEyeMetres: Double
    /// The step between samples along a sight ray and the rays' angular spacing at the
    /// farthest distance, metres: half the DEM's smaller cell side at the observer.
    public var sampleStepMetres: Double
    /// How many sight rays were swept.
    public var rayCount: Int

    /// Cells of `kind`.
    public func count(of kind: ViewshedClass) -> Int { classes.reduce(0) { $0 + ($1 == kind.rawValue ? 1 : 0) } }
}

/// One ray's horizon.
public struct HorizonPoint: Sendable, Hashable {
    /// Clockwise from north, degrees in [0, 360).
    public var azimuthDegrees: Double
    /// The highest terrain's elevation angle seen from the eye, degrees; `nan` when the ray
    /// has no terrain with data within range.
    public var elevationDegrees: Double
    /// Geodesic distance to that terrain, metres (`nan` with it).
    public var distanceMetres: Double
    /// Whether the ray crossed no data before its end (the true horizon may be higher).
    public var crossesNoData: Bool
}

/// A viewshed the data or the request does not allow.
public enum ViewshedError: UserFacingError, Equatable {
    case observerOutside(observer: String, dem: String)
    case observerOnNoData(observer: String, dem: String)
    case noCellSize(dem: String)
    case tooManyRays(count: Int, dem: String)
    case wrapsAround(dem: String)
    case tooFar(metres: Double, dem: String)
    case reachesPole(observer: String, metres: Double, dem: String)

    public var message: String {
        switch self {
        case .observerOutside(let o, let dem): "observer \(o) lies outside DEM '\(dem)'"
        case .observerOnNoData(let o, let dem):
            "observer \(o) stands on no data in DEM '\(dem)': give its height as LON,LAT,Z"
        case .noCellSize(let dem): "DEM '\(dem)' has no cell size on the ground at the observer"
        case .wrapsAround(let dem):
            "DEM '\(dem)' wraps around the earth in longitude, which the viewshed's sight rays do not cross: cut it with gdal_translate -projwin"
        case .tooFar(let metres, let dem):
            "cells of DEM '\(dem)' lie up to \(NumberFormatting.grouped(metres / 1000, decimals: 0)) km from the observer, farther than the viewshed's 5,000 km: limit the distance (viewshed --max-distance) or cut the DEM"
        case .reachesPole(let o, let metres, let dem):
            "the viewshed from observer \(o) over DEM '\(dem)', which wraps around the earth, would reach the pole \(NumberFormatting.grouped(metres / 1000, decimals: 0)) km away, past which sight rays cannot follow a geographic raster's cells: limit its distance below that (viewshed --max-distance)"
        case .tooManyRays(let count, let dem):
            "the viewshed over DEM '\(dem)' would sweep \(NumberFormatting.grouped(Double(count), decimals: 0)) sight rays: limit its distance (viewshed --max-distance) or cut the DEM (gdal_translate -projwin)"
        }
    }

    public var isUsageError: Bool {
        switch self {
        case .observerOutside, .tooManyRays, .wrapsAround, .tooFar, .reachesPole: true
        case .observerOnNoData, .noCellSize: false
        }
    }
}
