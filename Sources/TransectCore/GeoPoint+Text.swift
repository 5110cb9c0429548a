extension NumberFormatting {
    /// `value` rounded half away from zero to `decimals` places, as the nearest double (so it
    /// prints short); `-0` becomes `0`. Values whose scaled magnitude has no fractional digits
    /// left (beyond 4.5e15) come back unchanged.
    public static func rounded(_ value: Double, decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = value * scale
        // Beyond 2^52 the value has no fractional digits to round.
        guard abs(scaled) < 4.5e15 else { return value }
        let r = scaled.rounded(.toNearestOrAwayFromZero) / scale
        return r == 0 ? 0 : r
    }

    /// The shortest text that reads back as `value`: whole numbers below 1e15 without a
    /// decimal point (`42`, not `42.0`), others as Swift prints them (`0.1`, `1e+20`), and
    /// `null` for values that are not finite (the JSON spelling).
    public static func shortest(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

extension GeoPoint {
    /// `LON,LAT` to at most eight decimals (about a millimetre), as messages name a point:
    /// `-119.5,37.75`.
    public var coordinateText: String {
        NumberFormatting.shortest(NumberFormatting.rounded(longitude, decimals: 8)) + ","
            + NumberFormatting.shortest(NumberFormatting.rounded(latitude, decimals: 8))
    }
}
