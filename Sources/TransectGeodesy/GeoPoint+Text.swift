import TransectSupport

extension GeoPoint {
    /// `LON,LAT` to at most eight decimals (about a millimetre), as messages name a point:
    /// `-119.5,37.75`.
    public var coordinateText: String {
        NumberFormatting.shortest(NumberFormatting.rounded(longitude, decimals: 8)) + ","
            + NumberFormatting.shortest(NumberFormatting.rounded(latitude, decimals: 8))
    }
}
