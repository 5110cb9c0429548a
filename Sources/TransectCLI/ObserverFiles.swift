import TransectCLIMeasure
import TransectFormats

/// Observers files for `viewshed --observers`, CSV or GeoJSON, read with TransectFormats'
/// parsers (``ObserverFile``) for the command in ``TransectCLIMeasure``, which does not link them.
enum ObserverFiles {
    @Sendable
    static func read(path: String) throws -> [ObserverRow] {
        try ObserverFile.read(path: path).map {
            ObserverRow(
                name: $0.name, longitude: $0.point.longitude, latitude: $0.point.latitude, absoluteMetres: $0.absoluteMetres,
                aboveGroundMetres: $0.aboveGroundMetres, targetHeightMetres: $0.targetHeightMetres)
        }
    }
}
