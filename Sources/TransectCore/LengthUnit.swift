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
