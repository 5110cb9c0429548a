import TransectSupport

/// What a figure is written as, from its file name's extension: PNG, the vector formats SVG
/// and PDF (cairo's surfaces), or a Cloud-Optimized GeoTIFF (maps only, through GDAL).
public enum FigureFormat: String, CaseIterable, Sendable {
    case png, svg, pdf
    case geotiff = "tif"

    /// The format `path`'s extension names (`.png`, `.svg`, `.pdf`, `.tif`, `.tiff`, in any
    /// case), or nil for any other extension or none.
    public init?(path: String) {
        guard let ext = Self.fileExtension(path) else { return nil }
        switch ext.lowercased() {
        case "png": self = .png
        case "svg": self = .svg
        case "pdf": self = .pdf
        case "tif", "tiff": self = .geotiff
        default: return nil
        }
    }

    /// The extension of `path`'s last component (after its last dot), nil when it has none.
    public static func fileExtension(_ path: String) -> String? {
        FileExtension.of(path)
    }

    /// The extensions written as this format, the first the usual one.
    public var extensions: [String] {
        switch self {
        case .png: ["png"]
        case .svg: ["svg"]
        case .pdf: ["pdf"]
        case .geotiff: ["tif", "tiff"]
        }
    }

    /// The vector document kind, for SVG and PDF.
    public var vector: VectorDocument.Kind? {
        switch self {
        case .svg: .svg
        case .pdf: .pdf
        case .png, .geotiff: nil
        }
    }
}

/// A vector figure to draw: SVG or PDF, at a resolution that sets the page's physical size
/// (the drawing's pixels at `dpi` dots an inch) and, for PDF, the creation date recorded.
public struct VectorDocument: Sendable, Equatable {
    public enum Kind: String, Sendable { case svg, pdf }
    public var kind: Kind
    /// Dots an inch: a W × H pixel figure is a (W × 72 / dpi) × (H × 72 / dpi) point page.
    public var dpi: Double
    /// The PDF's creation and modification date, ISO 8601 (`2026-12-02T00:00:00Z`): fixed, so
    /// the same figure gives the same bytes. ``date(sourceDateEpoch:)`` makes it.
    public var date: String
    /// The page in points when a physical size was asked for (the pixels are that size at
    /// `dpi`, rounded): the page is exactly it. Nil: the pixels at `dpi`.
    public var pagePoints: (width: Double, height: Double)?

    public init(
        kind: Kind, dpi: Double, date: String = VectorDocument.date(sourceDateEpoch: nil), pagePoints: (width: Double, height: Double)? = nil
    ) {
        self.kind = kind
        self.dpi = dpi
        self.date = date
        self.pagePoints = pagePoints
    }

    public static func == (a: VectorDocument, b: VectorDocument) -> Bool {
        a.kind == b.kind && a.dpi == b.dpi && a.date == b.date && a.pagePoints?.width == b.pagePoints?.width
            && a.pagePoints?.height == b.pagePoints?.height
    }

    /// The date a document records: `SOURCE_DATE_EPOCH` (seconds since 1970, UTC) when it is
    /// set to a whole number of seconds from 0 to 253402300799, the Unix epoch otherwise (the
    /// reproducible-builds convention: the same inputs give the same bytes, whenever they run).
    public static func date(sourceDateEpoch: String?) -> String {
        var seconds: Int64 = 0
        if let text = sourceDateEpoch, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), text.utf8.count <= 12,
            let value = Int64(text), value <= 253_402_300_799
        {
            seconds = value
        }
        let days = seconds / 86_400
        let rest = seconds % 86_400
        let (y, m, d) = civilDate(daysSinceEpoch: days)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let year = String(repeating: "0", count: max(0, 4 - String(y).count)) + String(y)
        return "\(year)-\(two(m))-\(two(d))T\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))Z"
    }

    /// The proleptic Gregorian date `days` days after 1970-01-01 (Howard Hinnant's
    /// days-from-civil inverse), for days ≥ 0.
    static func civilDate(daysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = z / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
