/// The GIS layer formats Transect writes through OGR's drivers, by the name `--format` takes
/// and the file extensions that choose them.
///
/// `geojson` is RFC 7946 GeoJSON (one FeatureCollection); `geojsonseq` is RFC 8142 GeoJSON
/// text sequences (one feature a line, so a batch streams and shards concatenate); `gpkg` is a
/// GeoPackage (an SQLite database with an R-tree spatial index); `flatgeobuf` is FlatGeobuf.
public enum LayerFormat: String, CaseIterable, Sendable {
    case geojson, geojsonseq, gpkg, flatgeobuf

    /// The file extensions (lower case, without the dot) that name this format.
    public var extensions: [String] {
        switch self {
        case .geojson: ["geojson"]
        case .geojsonseq: ["geojsonl", "geojsons"]
        case .gpkg: ["gpkg"]
        case .flatgeobuf: ["fgb"]
        }
    }

    /// The format `path`'s extension names (compared without case); nil for any other.
    public init?(path: String) {
        guard let ext = FileExtension.of(path)?.lowercased(), let format = LayerFormat.allCases.first(where: { $0.extensions.contains(ext) })
        else { return nil }
        self = format
    }

    /// True when a file in this format is complete only once closed (a database, an indexed
    /// file), so it cannot go to a stream such as stdout.
    public var needsFile: Bool { self == .gpkg || self == .flatgeobuf }
}
