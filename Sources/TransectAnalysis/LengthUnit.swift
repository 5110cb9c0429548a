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
        if let unit = LengthUnit(rawValue: key) {
            self = unit
            return
        }
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
