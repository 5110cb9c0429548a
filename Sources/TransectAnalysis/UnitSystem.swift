import TransectSupport

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
