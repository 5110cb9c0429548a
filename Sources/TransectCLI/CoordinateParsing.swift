import TransectCore
import TransectFormats

/// A point as the user wrote it: `LON,LAT` or `LON,LAT,Z` (or X,Y[,Z] in `--crs`).
struct PointArgument {
    var x: Double
    var y: Double
    var z: Double?

    /// Parses `text`; `what` names the input in messages (for example `--from`).
    /// Throws a message without the input's name; callers wrap it as usage or data error.
    static func parse(_ text: String) -> Result<PointArgument, PointError> {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
        guard parts.count == 2 || parts.count == 3 else {
            return .failure(.malformed("'\(text)' is not LON,LAT or LON,LAT,Z"))
        }
        var numbers: [Double] = []
        for part in parts {
            guard let v = Double(part) else { return .failure(.malformed("'\(part)' in '\(text)' is not a number")) }
            guard v.isFinite else { return .failure(.malformed("'\(part)' in '\(text)' is not a finite number")) }
            numbers.append(v)
        }
        return .success(PointArgument(x: numbers[0], y: numbers[1], z: parts.count == 3 ? numbers[2] : nil))
    }

    /// Checks that a longitude/latitude lies in range.
    static func checkGeographic(longitude: Double, latitude: Double) -> PointError? {
        if !(-90...90).contains(latitude) { return .malformed("latitude \(JSON.format(latitude)) is beyond ±90°") }
        if !(-540...540).contains(longitude) { return .malformed("longitude \(JSON.format(longitude)) is beyond ±540°") }
        return nil
    }
}

enum PointError: Error {
    case malformed(String)
    var text: String { if case .malformed(let t) = self { t } else { "" } }
}

extension Substring {
    var trimmingSpaces: String {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s.removeLast() }
        return String(s)
    }
}
