import CGDAL
import TransectSupport

/// Reads a layer of a GIS file through OGR, feature by feature, in the values and geometries
/// ``LayerWriter`` writes, so a file Transect wrote can be written again feature for feature
/// (`transect merge` joins shards' GeoPackages and FlatGeobufs this way).
///
/// Not thread-safe: one reader belongs to one thread. The corresponding GDAL functions are
/// `GDALOpenEx`, `GDALDatasetGetLayer` and `OGR_L_GetNextFeature`.
public final class LayerReader {
    /// One feature: its id, its fields' values in the layer's order, its geometry.
    public struct Feature {
        public var fid: Int
        public var values: [LayerWriter.Value]
        public var geometry: LayerWriter.Geometry?
    }

    private let dataset: GDALDatasetH
    private let layer: OGRLayerH
    /// The layer's name.
    public let name: String
    /// The layer's fields; a field of any other OGR type than Real, Integer64, Integer and
    /// String reads as a string.
    public let fields: [LayerWriter.Field]
    /// The CRS of the layer's geometries, when it has one.
    public let crs: SpatialReference?

    /// Opens the first layer of the vector file at `path`.
    public init(path: String) throws(TerrainError) {
        GDALEnvironment.ensure()
        let failure = { (reason: String) in TerrainError.cannotOpen(path: path, reason: reason) }
        let opened = try gdal({ GDALOpenEx(path, UInt32(GDAL_OF_VECTOR | GDAL_OF_READONLY), nil, nil, nil) }, orThrow: failure)
        do {
            layer = try gdal(fallback: "the file has no layer", { GDALDatasetGetLayer(opened, 0) }, orThrow: failure)
        } catch {
            GDALClose(opened)
            throw error
        }
        dataset = opened
        name = String(cString: OGR_L_GetName(layer))
        let definition = OGR_L_GetLayerDefn(layer)
        fields = (0..<OGR_FD_GetFieldCount(definition)).map { k in
            let field = OGR_FD_GetFieldDefn(definition, k)
            let type: LayerWriter.FieldType =
                switch OGR_Fld_GetType(field) {
                case OFTReal: .real
                case OFTInteger, OFTInteger64: .integer
                default: .string
                }
            return LayerWriter.Field(String(cString: OGR_Fld_GetNameRef(field)), type)
        }
        crs = OGR_L_GetSpatialRef(layer).flatMap { OSRClone($0) }.map { SpatialReference(owning: $0) }
        OGR_L_ResetReading(layer)
    }

    deinit { GDALClose(dataset) }

    /// The next feature, or nil after the last.
    public func next() -> Feature? {
        guard let feature = OGR_L_GetNextFeature(layer) else { return nil }
        defer { OGR_F_Destroy(feature) }
        var values: [LayerWriter.Value] = []
        values.reserveCapacity(fields.count)
        for (k, field) in fields.enumerated() {
            let i = Int32(k)
            guard OGR_F_IsFieldSetAndNotNull(feature, i) != 0 else {
                values.append(.null)
                continue
            }
            switch field.type {
            case .real: values.append(.real(OGR_F_GetFieldAsDouble(feature, i)))
            case .integer: values.append(.integer(Int(OGR_F_GetFieldAsInteger64(feature, i))))
            case .string: values.append(.string(String(cString: OGR_F_GetFieldAsString(feature, i))))
            }
        }
        return Feature(fid: Int(OGR_F_GetFID(feature)), values: values, geometry: OGR_F_GetGeometryRef(feature).flatMap(Self.geometry))
    }

    /// `g` as a ``LayerWriter/Geometry``; nil for an empty geometry or another type.
    private static func geometry(_ g: OGRGeometryH) -> LayerWriter.Geometry? {
        func points(_ g: OGRGeometryH) -> (x: [Double], y: [Double], z: [Double]) {
            let n = Int(OGR_G_GetPointCount(g))
            var x = [Double](repeating: 0, count: n)
            var y = x
            var z = x
            for k in 0..<n {
                x[k] = OGR_G_GetX(g, Int32(k))
                y[k] = OGR_G_GetY(g, Int32(k))
                z[k] = OGR_G_GetZ(g, Int32(k))
            }
            return (x, y, z)
        }
        switch OGRwkbGeometryType(rawValue: OGR_GT_Flatten(OGR_G_GetGeometryType(g)).rawValue) {
        case wkbPoint: return .point(x: OGR_G_GetX(g, 0), y: OGR_G_GetY(g, 0), z: OGR_G_GetZ(g, 0))
        case wkbLineString:
            let p = points(g)
            return .lineString(x: p.x, y: p.y, z: p.z)
        case wkbMultiLineString:
            return .multiLineString((0..<OGR_G_GetGeometryCount(g)).map { points(OGR_G_GetGeometryRef(g, $0)) })
        case wkbPolygon:
            guard let ring = OGR_G_GetGeometryRef(g, 0) else { return nil }
            let p = points(ring)
            return .polygon(x: Array(p.x.dropLast()), y: Array(p.y.dropLast()))
        default: return nil
        }
    }
}
