extension ElevationModel {
    /// Every local file the model reads, so that nothing written can overwrite one of them:
    /// the paths named, every source of their VRTs (nested ones included), and the side files
    /// GDAL reports for each dataset (`.aux.xml`, `.ovr`, `.msk`, world files, `.prj`, …), for
    /// every tile of a mosaic. Files inside archives are given as the archive
    /// (``GDALPath/localFile(of:)``); network sources, which are no local file, are left out.
    ///
    /// The side files of a VRT's sources are found by opening each source again (its
    /// references were checked when the model opened); the cost is one open per source.
    /// The corresponding GDAL function is `GDALGetFileList`.
    public var inputFiles: [String] {
        var gdalPaths = paths + openedFiles
        for source in nestedSources {
            gdalPaths.append(source)
            gdalPaths += Self.fileList(opening: source)
        }
        var seen = Set<String>()
        return gdalPaths.compactMap(GDALPath.localFile(of:)).filter { seen.insert($0).inserted }
    }

    /// The files GDAL says `path` uses, or none when it does not open.
    static func fileList(opening path: String) -> [String] {
        (try? Dataset(checkedSource: path))?.fileList ?? []
    }
}
