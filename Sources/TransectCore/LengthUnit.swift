/// A unit of length for output. Distances are metres everywhere inside Transect; a unit is
/// applied only when a value is shown.
public enum LengthUnit: String, Sendable, CaseIterable {
    case metres = "m"
    case kilometres = "km"
    case feet = "ft"
    case miles = "mi"
    case yards = "yd"
    case nauticalMiles = "nmi"

    /// Metres in one of this unit (international foot, yard and statute mile; nautical mile of
    /// 1852 m).
    @inlinable
    public var metres: Double {
        switch self {
        case .metres: 1
        case .kilometres: 1000
        case .feet: 0.3048
        case .miles: 1609.344
        case .yards: 0.9144
        case .nauticalMiles: 1852
        }
    }

    /// The value of `metres` expressed in this unit.
    @inlinable
    public func convert(metres value: Double) -> Double { value / metres }

    /// The unit a symbol or a name denotes, as GIS users type them: the symbol (`m`, `ft`,
    /// `nmi`), or the name singular or plural, British or American (`metre`, `meters`, `foot`,
    /// `feet`, `kilometres`, `miles`, `yards`, `nautical-miles`). Case is ignored, and `_` or a
    /// space may stand for `-` (QGIS writes "nautical miles"). US survey feet are a different
    /// unit (2 ppm longer) and are not accepted as feet.
    public init?(name: String) {
        let key = String(name.lowercased().map { $0 == "_" || $0 == " " ? "-" : $0 })
        if let unit = LengthUnit(rawValue: key) { self = unit; return }
        switch key {
        case "metre", "metres", "meter", "meters": self = .metres
        case "kilometre", "kilometres", "kilometer", "kilometers": self = .kilometres
        case "foot", "feet", "international-foot", "international-feet": self = .feet
        case "mile", "miles", "statute-mile", "statute-miles": self = .miles
        case "yard", "yards": self = .yards
        case "nautical-mile", "nautical-miles": self = .nauticalMiles
        default: return nil
        }
    }
}

/// How distances are shown: a system that picks the unit by magnitude, or one fixed unit.
///
/// `metric` shows metres below 1 km and kilometres from 1 km; `imperial` shows feet below one
/// statute mile and miles from one mile. The choice is made per value, on its magnitude.
public enum UnitSystem: Sendable, Hashable {
    case metric
    case imperial
    case fixed(LengthUnit)

    /// Parses `metric`, `imperial`, or one unit by symbol or name (`m`, `km`, `ft`, `mi`,
    /// `yd`, `nmi`; `metres`, `feet`, `nautical-miles`, … as ``LengthUnit/init(name:)`` reads them).
    public init?(name: String) {
        switch name.lowercased() {
        case "metric": self = .metric
        case "imperial": self = .imperial
        default:
            guard let unit = LengthUnit(name: name) else { return nil }
            self = .fixed(unit)
        }
    }

    /// The unit this system uses to show a length of `metres` (sign ignored).
    ///
    /// The switch looks at the value as it would print: 999.996 m prints as `1.00 km`, not
    /// `1,000.00 m`, and 1,609.343 m as `1.00 mi`, not `5,280.00 ft`.
    public func unit(for metres: Double) -> LengthUnit {
        func shown(_ unit: LengthUnit) -> Double { (abs(unit.convert(metres: metres)) * 100).rounded(.toNearestOrAwayFromZero) / 100 }
        switch self {
        case .metric: return shown(.metres) >= 1000 ? .kilometres : .metres
        case .imperial: return shown(.feet) >= 5280 ? .miles : .feet
        case .fixed(let unit): return unit
        }
    }

    /// The unit for heights and short vertical lengths: metres in the metric system, feet in
    /// the imperial one, the fixed unit otherwise.
    public var heightUnit: LengthUnit {
        switch self {
        case .metric: .metres
        case .imperial: .feet
        case .fixed(let unit): unit
        }
    }

    /// `metres` formatted with two decimals, grouping separators and the unit symbol,
    /// for example `1,234.56 m` or `2.31 km`.
    public func format(_ metres: Double) -> String {
        let unit = unit(for: metres)
        return NumberFormatting.grouped(unit.convert(metres: metres), decimals: 2) + " " + unit.rawValue
    }
}

/// Locale-independent number formatting: the same bytes on every machine.
public enum NumberFormatting {
    /// `value` rounded half away from zero to `decimals` places, with a `,` every three
    /// integer digits and `.` as the decimal mark: `1234.567` → `1,234.57`.
    /// Non-finite values print as `nan`, `inf` and `-inf`.
    ///
    /// A value that rounds to zero prints without a sign, whatever its own sign: `-0.0` and
    /// `-0.004` are `0.00`, never `-0.00`. With `plusSign`, a value that rounds to a positive
    /// number shows `+` (`+1,181.88`), so a signed column reads `+12.00`, `0.00`, `-3.50`.
    public static func grouped(_ value: Double, decimals: Int = 2, plusSign: Bool = false) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        precondition((0...9).contains(decimals), "decimals must be in 0...9")
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        // Beyond 2^63 the integer path cannot hold the value; such lengths are not physical.
        guard scaled < 9.2e18 else { return String(value) }
        let units = UInt64(scaled)
        let divisor = UInt64(scale)
        let whole = units / divisor
        let fraction = units % divisor
        var digits = String(whole)
        var groupedDigits = ""
        groupedDigits.reserveCapacity(digits.count + digits.count / 3)
        while digits.count > 3 {
            groupedDigits = "," + digits.suffix(3) + groupedDigits
            digits.removeLast(3)
        }
        groupedDigits = digits + groupedDigits
        let sign = units == 0 ? "" : (value < 0 ? "-" : (plusSign ? "+" : ""))
        var result = sign + groupedDigits
        if decimals > 0 {
            let fractionDigits = String(fraction)
            result += "." + String(repeating: "0", count: decimals - fractionDigits.count) + fractionDigits
        }
        return result
    }

    /// `count` followed by `singular` or its plural, in agreement: `1 sample`, `162 samples`,
    /// `1,204 fixes` (with `plural: "fixes"`). The count is grouped as ``grouped(_:decimals:plusSign:)``
    /// groups it.
    ///
    /// - Parameters:
    ///   - count: how many; 1 (and only 1) takes the singular, as English does (`0 samples`).
    ///   - singular: the noun for one, for example `sample` or `invalid fix`.
    ///   - plural: the noun for any other count; `singular` + `s` when nil.
    public static func count(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        grouped(Double(count), decimals: 0) + " " + noun(singular, count: count, plural: plural)
    }

    /// `singular` when `count` is 1, else `plural` (`singular` + `s` when nil): for a noun
    /// whose count is written elsewhere, as in `1 of 3 rows`.
    public static func noun(_ singular: String, count: Int, plural: String? = nil) -> String {
        count == 1 ? singular : plural ?? singular + "s"
    }
}
