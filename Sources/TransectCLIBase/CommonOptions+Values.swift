import TransectRaster

/// The values behind the common options' text: the EGM96 grid `--geoid egm96` names, bare EPSG
/// codes, interpolation names.
extension CommonOptions {
    /// EGM96 at 15′ from Debian's proj-data.
    package static let egm96Path = "/usr/share/proj/egm96_15.gtx"

    /// A bare EPSG code (`32611`, as QGIS and pyproj users write it) as `EPSG:32611`; any other
    /// definition as given. GDAL's own reader takes no bare numbers.
    @Sendable package static func epsgCode(_ definition: String) -> String {
        let digits = definition.trimmingAsciiSpaces
        guard (1...9).contains(digits.utf8.count), digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return definition
        }
        return "EPSG:" + digits
    }

    /// The interpolation a name denotes: `nearest` (also GDAL's `near`), `bilinear`, `cubic`;
    /// case ignored.
    package static func interpolation(named name: String) -> Interpolation? {
        let key = name.lowercased()
        return key == "near" ? .nearest : Interpolation(rawValue: key)
    }
}
