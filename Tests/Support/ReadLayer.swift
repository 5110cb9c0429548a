import CGDAL
import TransectGDAL

/// A layer of a GIS file read back through OGR, as a GIS would: its name, and each feature's
/// id, fields as OGR prints them (nil when null) and vertices (none without a geometry).
public struct ReadLayer {
    public var name: String
    public var features: [(fid: Int, fields: [String: String?], vertices: [(x: Double, y: Double, z: Double)])] = []

    /// Reads layer `index` of `path`; throws when GDAL cannot open it or has no such layer.
    public init(_ path: String, layer index: Int32 = 0) throws {
        prepareGDAL()
        guard let dataset = GDALOpenEx(path, UInt32(GDAL_OF_VECTOR | GDAL_OF_READONLY), nil, nil, nil) else {
            throw ExternalTool.Missing(description: "GDAL cannot open \(path) as a vector file")
        }
        defer { GDALClose(dataset) }
        guard let layer = GDALDatasetGetLayer(dataset, index) else { throw ExternalTool.Missing(description: "\(path) has no layer \(index)") }
        name = String(cString: OGR_L_GetName(layer))
        let definition = OGR_L_GetLayerDefn(layer)
        OGR_L_ResetReading(layer)
        while let feature = OGR_L_GetNextFeature(layer) {
            defer { OGR_F_Destroy(feature) }
            var fields: [String: String?] = [:]
            for k in 0..<OGR_FD_GetFieldCount(definition) {
                let fieldName = String(cString: OGR_Fld_GetNameRef(OGR_FD_GetFieldDefn(definition, k)))
                fields[fieldName] = OGR_F_IsFieldSetAndNotNull(feature, k) != 0 ? String(cString: OGR_F_GetFieldAsString(feature, k)) : nil
            }
            var vertices: [(Double, Double, Double)] = []
            if let g = OGR_F_GetGeometryRef(feature) { Self.collect(g, into: &vertices) }
            features.append((Int(OGR_F_GetFID(feature)), fields, vertices))
        }
    }

    /// The vertices of a point, a line string or each part of a collection, in order.
    private static func collect(_ g: OGRGeometryH, into vertices: inout [(Double, Double, Double)]) {
        let parts = OGR_G_GetGeometryCount(g)
        guard parts == 0 else {
            for k in 0..<parts { collect(OGR_G_GetGeometryRef(g, k), into: &vertices) }
            return
        }
        for k in 0..<OGR_G_GetPointCount(g) {
            var x = 0.0
            var y = 0.0
            var z = 0.0
            OGR_G_GetPoint(g, k, &x, &y, &z)
            vertices.append((x, y, z))
        }
    }
}
