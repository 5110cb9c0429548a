#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CGDAL
import TransectSupport

/// Writes GIS layers through OGR's own drivers (GeoJSON, GeoJSONSeq, GPKG, FlatGeobuf), one
/// feature at a time, so a batch of any size streams through a constant amount of memory.
///
/// ```swift
/// let writer = try LayerWriter(path: "out.gpkg", format: .gpkg)
/// let layer = try writer.createLayer("measurements", geometry: .lineString, fields: fields)
/// try writer.write(layer, fid: 1, values: values, geometry: .lineString(line))
/// try writer.close()
/// ```
///
/// The bytes depend on the features, their order and GDAL's version alone:
/// - GeoPackage's `gpkg_contents.last_change` is GDAL's `OGR_CURRENT_DATE`, set here from
///   ``date`` (`SOURCE_DATE_EPOCH`, else a fixed date); SQLite's journal is off (the file is a
///   temporary that only a finished run renames into place, so a journal would guard nothing)
///   and features go in transactions of ``featuresPerTransaction`` counted from the file's first
///   feature, so a run and a merge of its shards make the same database page for page.
/// - FlatGeobuf is written without its spatial index (`SPATIAL_INDEX=NO`): the index sorts all
///   features at the end, which holds every feature's box in memory and stages a temporary
///   file beside the output; without it features stream in input order.
/// - GeoJSON is RFC 7946 (longitude, latitude; no `crs` member) with ``coordinateDecimals``
///   decimals; GeoJSONSeq writes one feature a line, so parts of a batch concatenate.
///
/// Not thread-safe: one writer belongs to one thread. The corresponding GDAL functions are
/// `GDALCreate`, `GDALDatasetCreateLayer`, `OGR_L_CreateFeature` and `GDALClose`.
public final class LayerWriter {
    /// A layer's geometry type: points and line strings with Z (lon, lat, height), their 2D
    /// twins (a map's places, trails and labels, whose geometries are written without their z),
    /// or a 2D polygon (a frame's extent).
    public enum GeometryType: Sendable {
        case point, lineString, multiLineString, polygon
        case point2D, lineString2D, multiLineString2D

        var ogr: OGRwkbGeometryType {
            switch self {
            case .point: wkbPoint25D
            case .lineString: wkbLineString25D
            case .multiLineString: wkbMultiLineString25D
            case .polygon: wkbPolygon
            case .point2D: wkbPoint
            case .lineString2D: wkbLineString
            case .multiLineString2D: wkbMultiLineString
            }
        }

        var is2D: Bool {
            switch self {
            case .polygon, .point2D, .lineString2D, .multiLineString2D: true
            default: false
            }
        }
    }

    /// A field's type: OGR's Real, Integer64 or String.
    public enum FieldType: Sendable { case real, integer, string }

    /// A field of a layer.
    public struct Field: Sendable {
        public var name: String
        public var type: FieldType
        public init(_ name: String, _ type: FieldType) {
            self.name = name
            self.type = type
        }
    }

    /// A field's value in one feature; `.null` leaves it unset (null in every format).
    public enum Value: Sendable, Equatable {
        case real(Double)
        case integer(Int)
        case string(String)
        case null

        /// A real, or null for nil.
        public static func real(_ value: Double?) -> Value { value.map { .real($0) } ?? .null }
    }

    /// A feature's geometry: vertices as parallel coordinate arrays (x, y and z of each).
    public enum Geometry: Sendable {
        case point(x: Double, y: Double, z: Double)
        case lineString(x: [Double], y: [Double], z: [Double])
        case multiLineString([(x: [Double], y: [Double], z: [Double])])
        /// One closed ring, 2D (the first vertex repeated last is added here).
        case polygon(x: [Double], y: [Double])
    }

    /// A layer made by ``createLayer(_:geometry:fields:crs:)``.
    public struct Layer: Sendable, Hashable {
        let index: Int
    }

    /// Decimals of the coordinates GeoJSON writes: those of the CSV's longitudes and latitudes.
    public static let coordinateDecimals = 9
    /// Features a GeoPackage transaction holds before it commits and the next begins.
    public static let featuresPerTransaction = 100_000

    private let path: String
    private let label: String
    private let format: LayerFormat
    private var dataset: GDALDatasetH?
    private var layers: [(handle: OGRLayerH, feature: OGRFeatureH, fields: [Field], type: GeometryType)] = []
    private let transactions: Bool
    private var inTransaction = false
    private var featuresInTransaction = 0
    /// The thread-local configuration this writer set, put back when it closes.
    private var configuration: [(key: String, previous: String?)] = []

    /// Creates the file at `path` in `format`; `label` is the name errors give (the user's
    /// output path, when `path` is its temporary).
    ///
    /// A file already at `path` is removed first: the drivers refuse to write over a file
    /// (even the empty temporary an ``OutputTransaction`` stages).
    public init(path: String, format: LayerFormat, label: String? = nil) throws(TerrainError) {
        GDALEnvironment.ensure()
        self.path = path
        self.label = label ?? path
        self.format = format
        let failure = { [label = self.label] (reason: String) in TerrainError.cannotWriteLayer(path: label, reason: reason) }
        for (key, value) in [
            ("OGR_CURRENT_DATE", Self.date), ("OGR_SQLITE_JOURNAL", "OFF"), ("OGR_SQLITE_SYNCHRONOUS", "OFF"), ("OGR_SQLITE_CACHE", "64"),
        ] {
            configuration.append((key, CPLGetThreadLocalConfigOption(key, nil).map { String(cString: $0) }))
            CPLSetThreadLocalConfigOption(key, value)
        }
        let driver = try gdal(
            fallback: "GDAL has no \(format.driverName) driver", { GDALGetDriverByName(format.driverName) }, orThrow: failure)
        unlink(path)
        dataset = try gdal({ GDALCreate(driver, path, 0, 0, 0, GDT_Unknown, nil) }, orThrow: failure)
        transactions = format == .gpkg
    }

    deinit {
        if let dataset { GDALClose(dataset) }
        for layer in layers { OGR_F_Destroy(layer.feature) }
        restoreConfiguration()
    }

    /// The `OGR_CURRENT_DATE` files record: `SOURCE_DATE_EPOCH` as an ISO 8601 UTC time when
    /// it is set to a whole number of seconds, else 2000-01-01T00:00:00Z.
    public static var date: String {
        date(sourceDateEpoch: getenv("SOURCE_DATE_EPOCH").map { String(cString: $0) })
    }

    /// ``date`` for a given `SOURCE_DATE_EPOCH` text.
    public static func date(sourceDateEpoch: String?) -> String {
        var seconds = time_t(946_684_800)
        if let text = sourceDateEpoch, let value = Int(text), value >= 0, value < 253_402_300_800 { seconds = time_t(value) }
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let year = String(parts.tm_year + 1900)
        return year + "-" + two(parts.tm_mon + 1) + "-" + two(parts.tm_mday) + "T" + two(parts.tm_hour) + ":" + two(parts.tm_min) + ":"
            + two(parts.tm_sec) + "Z"
    }

    /// Adds a layer named `name` of `geometry` with `fields`, in `crs` (WGS84 longitude,
    /// latitude when nil). GeoJSON, GeoJSONSeq and FlatGeobuf hold one layer a file.
    public func createLayer(_ name: String, geometry: GeometryType, fields: [Field], crs: SpatialReference? = nil) throws(TerrainError) -> Layer {
        guard let dataset else { preconditionFailure("LayerWriter.createLayer after close") }
        let failure = { [label] (reason: String) in TerrainError.cannotWriteLayer(path: label, reason: reason) }
        let reference: SpatialReference
        if let crs { reference = crs } else { reference = try SpatialReference.wgs84() }
        let geographic = OSRIsGeographic(reference.handle) != 0
        let made: Result<OGRLayerH, TerrainError> = withCStringList(format.layerOptions(geographic: geographic)) { list in
            Result { () throws(TerrainError) in
                try gdal({ GDALDatasetCreateLayer(dataset, name, reference.handle, geometry.ogr, list) }, orThrow: failure)
            }
        }
        let layer = try made.get()
        for field in fields {
            let type: OGRFieldType =
                switch field.type {
                case .real: OFTReal
                case .integer: OFTInteger64
                case .string: OFTString
                }
            let definition = OGR_Fld_Create(field.name, type)
            defer { OGR_Fld_Destroy(definition) }
            try gdal(succeeds: { OGR_L_CreateField(layer, definition, 1) == OGRERR_NONE }, orThrow: failure)
        }
        let feature = try gdal({ OGR_F_Create(OGR_L_GetLayerDefn(layer)) }, orThrow: failure)
        layers.append((layer, feature, fields, geometry))
        return Layer(index: layers.count - 1)
    }

    /// Writes one feature to `layer`: `values` in the order of its fields, `fid` as its feature
    /// id (the GeoPackage's primary key, GeoJSON's `id`), `geometry` nil for none.
    public func write(_ layer: Layer, fid: Int?, values: [Value], geometry: Geometry?) throws(TerrainError) {
        guard let dataset else { preconditionFailure("LayerWriter.write after close") }
        let failure = { [label] (reason: String) in TerrainError.cannotWriteLayer(path: label, reason: reason) }
        if transactions && !inTransaction {
            try gdal(succeeds: { OGRErr(GDALDatasetStartTransaction(dataset, 0)) == OGRERR_NONE }, orThrow: failure)
            inTransaction = true
        }
        let (handle, feature, fields, type) = layers[layer.index]
        precondition(values.count == fields.count, "a feature has one value a field")
        for (k, value) in values.enumerated() {
            let i = Int32(k)
            switch value {
            case .real(let v): OGR_F_SetFieldDouble(feature, i, v)
            case .integer(let v): OGR_F_SetFieldInteger64(feature, i, GIntBig(v))
            case .string(let v): OGR_F_SetFieldString(feature, i, v)
            case .null: OGR_F_SetFieldNull(feature, i)
            }
        }
        OGR_F_SetFID(feature, GIntBig(fid ?? Int(OGRNullFID)))
        let made = try geometry.map { g throws(TerrainError) in try Self.make(g, failure: failure) }
        if let made, type.is2D { OGR_G_FlattenTo2D(made) }
        OGR_F_SetGeometryDirectly(feature, made)
        try gdal(succeeds: { OGR_L_CreateFeature(handle, feature) == OGRERR_NONE }, orThrow: failure)
        featuresInTransaction += 1
        if transactions && featuresInTransaction == Self.featuresPerTransaction {
            try commitTransaction()
        }
    }

    private func commitTransaction() throws(TerrainError) {
        guard inTransaction, let dataset else { return }
        inTransaction = false
        featuresInTransaction = 0
        let failure = { [label] (reason: String) in TerrainError.cannotWriteLayer(path: label, reason: reason) }
        try gdal(succeeds: { OGRErr(GDALDatasetCommitTransaction(dataset)) == OGRERR_NONE }, orThrow: failure)
    }

    /// Commits, finishes and closes the file (the GeoPackage's spatial index, the GeoJSON's
    /// closing brackets); a failure of any of them throws.
    public func close() throws(TerrainError) {
        guard let dataset else { return }
        let failure = { [label] (reason: String) in TerrainError.cannotWriteLayer(path: label, reason: reason) }
        defer { restoreConfiguration() }
        let committed = Result { () throws(TerrainError) in try commitTransaction() }
        for layer in layers { OGR_F_Destroy(layer.feature) }
        layers = []
        self.dataset = nil
        try gdal(
            succeeds: {
                GDALFlushCache(dataset)
                GDALClose(dataset)
                return CPLGetLastErrorType() != CE_Failure
            }, orThrow: failure)
        try committed.get()
    }

    private func restoreConfiguration() {
        for (key, previous) in configuration.reversed() { CPLSetThreadLocalConfigOption(key, previous) }
        configuration = []
    }

    /// An OGR geometry for `geometry`, owned by the caller.
    private static func make(_ geometry: Geometry, failure: (String) -> TerrainError) throws(TerrainError) -> OGRGeometryH {
        func line(_ type: OGRwkbGeometryType, _ x: [Double], _ y: [Double], _ z: [Double]) throws(TerrainError) -> OGRGeometryH {
            let g = try gdal({ OGR_G_CreateGeometry(type) }, orThrow: failure)
            let count = Int32(x.count)
            x.withUnsafeBytes { xb in
                y.withUnsafeBytes { yb in
                    z.withUnsafeBytes { zb in
                        let stride = Int32(MemoryLayout<Double>.stride)
                        OGR_G_SetPoints(g, count, xb.baseAddress, stride, yb.baseAddress, stride, zb.baseAddress, stride)
                    }
                }
            }
            return g
        }
        switch geometry {
        case .point(let x, let y, let z):
            let g = try gdal({ OGR_G_CreateGeometry(wkbPoint25D) }, orThrow: failure)
            OGR_G_SetPoint(g, 0, x, y, z)
            return g
        case .lineString(let x, let y, let z):
            return try line(wkbLineString25D, x, y, z)
        case .multiLineString(let parts):
            let g = try gdal({ OGR_G_CreateGeometry(wkbMultiLineString25D) }, orThrow: failure)
            for part in parts {
                let l = try line(wkbLineString25D, part.x, part.y, part.z)
                OGR_G_AddGeometryDirectly(g, l)
            }
            return g
        case .polygon(let x, let y):
            let ring = try gdal({ OGR_G_CreateGeometry(wkbLinearRing) }, orThrow: failure)
            for k in x.indices { OGR_G_AddPoint_2D(ring, x[k], y[k]) }
            if let x0 = x.first, let y0 = y.first { OGR_G_AddPoint_2D(ring, x0, y0) }
            let g = try gdal({ OGR_G_CreateGeometry(wkbPolygon) }, orThrow: failure)
            OGR_G_AddGeometryDirectly(g, ring)
            return g
        }
    }
}

extension LayerFormat {
    /// The OGR driver that writes this format.
    var driverName: String {
        switch self {
        case .geojson: "GeoJSON"
        case .geojsonseq: "GeoJSONSeq"
        case .gpkg: "GPKG"
        case .flatgeobuf: "FlatGeobuf"
        }
    }

    /// The driver's layer creation options (see ``LayerWriter``).
    func layerOptions(geographic: Bool) -> [String] {
        let precision = "COORDINATE_PRECISION=\(LayerWriter.coordinateDecimals)"
        // Real fields to 15 significant figures, which print the values Transect rounds to the
        // CSV's decimals as the CSV does (20,000 km to the micrometre is 14), not 17 that show
        // binary round-off (20829.444906000001).
        let figures = "SIGNIFICANT_FIGURES=15"
        switch self {
        case .geojson: return (geographic ? ["RFC7946=YES", "WRITE_NAME=YES"] : []) + [precision, figures]
        case .geojsonseq: return [precision, figures]
        case .gpkg: return ["SPATIAL_INDEX=YES", "FID=fid", "GEOMETRY_NAME=geom"]
        case .flatgeobuf: return ["SPATIAL_INDEX=NO"]
        }
    }
}
