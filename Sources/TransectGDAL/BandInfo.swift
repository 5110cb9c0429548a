import CGDAL
import TransectSupport

/// Facts about a raster band that sampling needs, read once (``RasterBand/info``).
struct BandInfo: Equatable {
    var noData: Double?
    var scale: Double
    var offset: Double
    var unitType: String
    var dataType: GDALDataType

    /// The no-data value as it compares with values read as doubles: a Float32 band stores the
    /// value rounded to single precision (ETOPO5's −1e34 is −9.99999984e33 on disk).
    var noDataAsRead: Double? {
        guard let noData else { return nil }
        return dataType == GDT_Float32 ? Double(Float(noData)) : noData
    }

    /// Metres per stored unit of elevation, from the band's unit type; nil for units that are not
    /// lengths we know.
    static func metresPerUnit(_ unitType: String) -> Double? {
        switch unitType.lowercased().trimmingWhitespace {
        case "", "m", "metre", "metres", "meter", "meters": 1
        case "ft", "foot", "feet", "international foot", "ft (international)": 0.3048
        case "us-ft", "ftus", "us survey foot", "us survey feet", "foot_us", "us_survey_foot", "survey foot":
            1200.0 / 3937.0
        case "km", "kilometre", "kilometer", "kilometres", "kilometers": 1000
        case "cm", "centimetre", "centimeter", "centimetres", "centimeters": 0.01
        case "dm", "decimetre", "decimeter": 0.1
        default: nil
        }
    }
}
