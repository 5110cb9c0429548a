import TransectSupport

/// A point as the user wrote it: `LON,LAT` or `LON,LAT,Z` (or X,Y[,Z] in a CRS the caller
/// names). Spaces and tabs around each number are allowed; each number follows `NumberText`.
public struct PointArgument: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var z: Double?

    public init(x: Double, y: Double, z: Double? = nil) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// Parses `text`. The message of a failure does not name the input (the caller knows it:
    /// an option, a file and line) and wraps it as a usage or data error.
    ///
    /// Example: `PointArgument.parse("-119.5, 37.7")` is x −119.5, y 37.7, no z;
    /// `"0x1p3,1"` fails: `'0x1p3' in '0x1p3,1' is not a number`.
    public static func parse(_ text: String) -> Result<PointArgument, PointError> {
        if text.utf8.contains(0) { return .failure(.malformed("the coordinates contain a NUL byte")) }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingAsciiSpaces }
        guard parts.count == 2 || parts.count == 3 else {
            return .failure(.malformed("'\(text.printable)' is not LON,LAT or LON,LAT,Z"))
        }
        var numbers: [Double] = []
        for part in parts {
            guard let v = NumberText.double(part) else {
                // nan, inf and overflowing decimals are numbers of a kind, just not finite ones.
                let infinite = Double(part).map { !$0.isFinite } ?? false
                return .failure(.malformed("'\(part.printable)' in '\(text.printable)' is not \(infinite ? "a finite number" : "a number")"))
            }
            numbers.append(v)
        }
        if parts.count == 3, let problem = checkHeight(numbers[2], name: "height") { return .failure(problem) }
        return .success(PointArgument(x: numbers[0], y: numbers[1], z: parts.count == 3 ? numbers[2] : nil))
    }

    /// Heights beyond ±100,000 km (far past geostationary orbit) are refused: they describe no
    /// place, and near the largest doubles the 3D distance overflows to infinity.
    public static let heightLimitMetres = GeoPoint.heightLimitMetres

    /// Checks that a height (metres) lies within ±``heightLimitMetres``.
    public static func checkHeight(_ z: Double, name: String) -> PointError? {
        abs(z) <= heightLimitMetres ? nil : .malformed("\(name) \(JSON.format(z)) m is beyond \(GeoPoint.heightLimitText)")
    }

    /// Checks that a longitude/latitude lies in range: latitude in [−90, 90], longitude in
    /// [−540, 540] (a line may cross the antimeridian written as 190°, not wrap the earth).
    /// When the latitude is out of range but the pair the other way round is a valid one (the
    /// latitude within ±180°, the longitude within ±90°), the message asks whether it was
    /// written LAT,LON: `37.7,-119.5` gets "did you mean -119.5,37.7?".
    public static func checkGeographic(longitude: Double, latitude: Double) -> PointError? {
        if !(-90...90).contains(latitude) {
            let swapped = (-90...90).contains(longitude) && (-180...180).contains(latitude)
            let hint = swapped ? " (did you mean \(JSON.format(latitude)),\(JSON.format(longitude))? points are LON,LAT)" : ""
            return .malformed("latitude \(JSON.format(latitude)) is beyond ±90°" + hint)
        }
        if !(-540...540).contains(longitude) { return .malformed("longitude \(JSON.format(longitude)) is beyond ±540°") }
        return nil
    }
}

/// Coordinate text, for callers that want the plain tuple (a fuzzer, a test).
public enum CoordinateText {
    /// `LON,LAT[,Z]` as `PointArgument.parse` reads it.
    public static func parse(_ text: String) -> Result<(x: Double, y: Double, z: Double?), PointError> {
        PointArgument.parse(text).map { ($0.x, $0.y, $0.z) }
    }
}

/// Why coordinate text or a coordinate is not acceptable; `text` is a one-line message that
/// does not name the input.
public enum PointError: Error, Equatable, Sendable {
    case malformed(String)
    public var text: String { if case .malformed(let t) = self { t } else { "" } }
}
