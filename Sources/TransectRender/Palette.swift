/// Canvas colours shared by the styles.
enum Palette {
    static let canvas = Color(hex: 0xF2F1EE)
    /// Where the DEM has no data, as 0xRRGGBB.
    static let noDataHex: UInt32 = 0xE9E7E2
    static let noData = Color(hex: noDataHex)
    /// ``noData`` as the bytes of an RGB pixel.
    static let noDataRGB = (red: UInt8(noDataHex >> 16 & 0xff), green: UInt8(noDataHex >> 8 & 0xff), blue: UInt8(noDataHex & 0xff))
}
