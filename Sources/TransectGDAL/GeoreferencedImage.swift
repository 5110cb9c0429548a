import CGDAL

/// A georeferenced image (PNG with a world file, GeoTIFF, anything GDAL georeferences) to use
/// as a basemap.
public enum GeoreferencedImage {
    /// The image resampled into `frame` as RGBA, 4 bytes per pixel; alpha 0 where it does not reach.
    public static func warped(path: String, into frame: FrameGrid) throws(TerrainError) -> [UInt8] {
        let source: Dataset
        do { source = try Dataset(path: path) } catch {
            if case .cannotOpen(_, let reason) = error { throw .unusableImage(path: path, reason: "cannot open: " + reason) }
            throw error
        }
        guard source.geoTransform != nil, source.spatialReference != nil else {
            throw .unusableImage(path: path, reason: "is not georeferenced (no geotransform or no CRS; a PNG needs a world file and a .aux.xml or .prj)")
        }
        let bands = source.bandCount
        guard bands >= 1 else { throw .unusableImage(path: path, reason: "has no raster band") }
        // gdalwarp (GDAL 3.6) warps every band; -dstalpha adds one after them.
        let ds = try Warper.warp(source, sourceCRS: nil, into: frame, arguments: ["-r", "bilinear", "-ot", "Byte", "-dstalpha"], label: path)
        let colour = bands >= 3 ? [1, 2, 3] : [1, 1, 1]
        var rgba = [UInt8](repeating: 0, count: frame.width * frame.height * 4)
        for (b, sourceBand) in (colour + [bands + 1]).enumerated() {
            guard let band = ds.band(sourceBand) else { throw .readFailed(path: path, reason: "the warped image lacks band \(sourceBand)") }
            // Interleaved: band b's byte of each pixel, 4 bytes apart.
            try band.read(
                column: 0, row: 0, width: frame.width, height: frame.height, into: &rgba, byteOffset: b,
                bufferWidth: frame.width, bufferHeight: frame.height, type: GDT_Byte,
                pixelSpacing: 4, lineSpacing: frame.width * 4
            ) { .readFailed(path: path, reason: $0) }
        }
        return rgba
    }
}
