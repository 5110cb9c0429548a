import TransectGDAL

// Extended across modules on purpose, as OutputTransaction+PNG is: writing a raster needs
// TransectGDAL's writer, which the GDAL-free command line does not link.
extension OutputTransaction {
    /// Stages `band` at `path` as a one-band Cloud-Optimized GeoTIFF (`viewshed -o`, `merge` of
    /// its parts) and returns the temporary it wrote, which a shard's manifest hashes; its tiles
    /// compressed on `threads` threads (the same bytes for any count). A failed write names
    /// `path`, not the temporary.
    @discardableResult
    package func writeBand(_ band: ViewshedRaster.Band, to path: String, threads: Int = 1) throws -> String {
        let temporary = try stage(path)
        let written = Result { () throws(TerrainError) in
            try GeoTIFFWriter.writeBandCOG(
                path: temporary, width: band.width, height: band.height, geoTransform: band.geoTransform, wkt: band.wkt, type: band.type,
                values: band.values, noData: band.noData, description: band.description, metadata: band.metadata, threads: threads)
        }
        if case .failure(let error) = written {
            guard case .cannotWriteImage(_, let reason) = error else { throw error }
            throw CLIError.cannotWrite(path: path, reason: reason)
        }
        return temporary
    }
}
