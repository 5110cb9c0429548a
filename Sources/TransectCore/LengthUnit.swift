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
}

/// How distances are shown: a system that picks the unit by magnitude, or one fixed unit.
///
/// `metric` shows metres below 1 km and kilometres from 1 km; `imperial` shows feet below one
/// statute mile and miles from one mile. The choice is made per value, on its magnitude.
public enum UnitSystem: Sendable, Hashable {
    case metric
    case imperial
    case fixed(LengthUnit)

    /// Parses `metric`, `imperial` or a unit symbol (`m`, `km`, `ft`, `mi`, `yd`, `nmi`).
    public init?(name: String) {
        switch name.lowercased() {
        case "metric": self = .metric
        case "imperial": self = .imperial
        default:
            guard let unit = LengthUnit(rawValue: name.lowercased()) else { return nil }
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
    public static func grouped(_ value: Double, decimals: Int = 2) -> String {
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
        let negative = value < 0 && units != 0
        var result = negative ? "-" + groupedDigits : groupedDigits
        if decimals > 0 {
            let fractionDigits = String(fraction)
            result += "." + String(repeating: "0", count: decimals - fractionDigits.count) + fractionDigits
        }
        return result
    }
}
