import TransectSupport

/// A unit of speed for output. Speeds are metres per second inside; a unit is applied only
/// when a value is shown.
public enum SpeedUnit: String, Sendable, CaseIterable {
    case kilometresPerHour = "km/h"
    case milesPerHour = "mph"
    case knots = "kn"

    /// Metres per second in one of this unit (statute mile of 1609.344 m, nautical mile of
    /// 1852 m, per hour of 3600 s).
    @inlinable
    public var metresPerSecond: Double {
        switch self {
        case .kilometresPerHour: 1000.0 / 3600
        case .milesPerHour: 1609.344 / 3600
        case .knots: 1852.0 / 3600
        }
    }

    /// `value` metres per second in this unit.
    @inlinable
    public func convert(metresPerSecond value: Double) -> Double {
        // Multiplying by 3600 first and dividing by the unit's metres keeps whole km/h whole.
        switch self {
        case .kilometresPerHour: value * 3600 / 1000
        case .milesPerHour: value * 3600 / 1609.344
        case .knots: value * 3600 / 1852
        }
    }

    /// `metresPerSecond` with two decimals, grouping separators and the unit, e.g. `4.32 km/h`.
    public func format(_ metresPerSecond: Double) -> String {
        NumberFormatting.grouped(convert(metresPerSecond: metresPerSecond), decimals: 2) + " " + rawValue
    }
}

extension UnitSystem {
    /// The speed unit that goes with these lengths: km/h for metric, metres and kilometres;
    /// mph for imperial, feet, yards and miles; knots for nautical miles.
    public var speedUnit: SpeedUnit {
        switch self {
        case .metric: .kilometresPerHour
        case .imperial: .milesPerHour
        case .fixed(let unit):
            switch unit {
            case .metres, .kilometres: .kilometresPerHour
            case .feet, .yards, .miles: .milesPerHour
            case .nauticalMiles: .knots
            }
        }
    }
}
