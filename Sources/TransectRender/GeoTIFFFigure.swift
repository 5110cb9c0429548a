import TransectGDAL

/// Writes a rendered map as a georeferenced Cloud-Optimized GeoTIFF (``GeoTIFFWriter``): its
/// pixels composited over white, with the map's CRS and geotransform inside the file.
public enum GeoTIFFFigure {
    public static func write(_ image: RenderedImage, to path: String, georeference: PNGFile.Georeference) throws(TerrainError) {
        let width = image.width
        switch image.pixels {
        case .document:
            preconditionFailure("a vector document is not written as a GeoTIFF")
        case .rgb(let rgb):
            try GeoTIFFWriter.writeCOG(
                path: path, width: width, height: image.height, geoTransform: georeference.geoTransform, wkt: georeference.wkt
            ) { y, row in
                for i in 0..<(width * 3) { row[i] = rgb[y * width * 3 + i] }
            }
        case .canvas(let drawn):
            try drawn.canvas.withPixels { data, stride throws(TerrainError) in
                try GeoTIFFWriter.writeCOG(
                    path: path, width: width, height: image.height, geoTransform: georeference.geoTransform, wkt: georeference.wkt
                ) { y, row in
                    Canvas.overWhite(row: data + y * stride, width: width, into: row)
                }
            }
        }
    }
}
