import CGDAL

/// One band of an open ``Dataset``. It holds the dataset, so the band's handle, which GDAL
/// frees with the dataset, stays valid for as long as the band is in use; every call on the
/// handle runs inside `withExtendedLifetime` of the dataset, so the optimiser cannot close the
/// dataset between the last use of the band's owner and the call.
struct RasterBand {
    /// The dataset the band belongs to.
    let dataset: Dataset
    /// The band's number in the dataset, from 1.
    let index: Int
    private let handle: GDALRasterBandH

    /// The band `handle` of `dataset`, as ``Dataset/band(_:)`` finds it.
    init(dataset: Dataset, index: Int, handle: GDALRasterBandH) {
        self.dataset = dataset
        self.index = index
        self.handle = handle
    }

    /// The band's cell type, without the rest of ``info`` (a GeoTIFF's scale and offset load
    /// its georeferencing). The corresponding GDAL function is `GDALGetRasterDataType`.
    var dataType: GDALDataType { withExtendedLifetime(dataset) { GDALGetRasterDataType(handle) } }

    /// No data, scale, offset, unit and data type, as the band records them.
    /// The corresponding GDAL functions are `GDALGetRasterNoDataValue`, `GDALGetRasterScale`,
    /// `GDALGetRasterOffset`, `GDALGetRasterUnitType` and `GDALGetRasterDataType`.
    var info: BandInfo {
        withExtendedLifetime(dataset) {
            var hasNoData: Int32 = 0
            var hasScale: Int32 = 0
            var hasOffset: Int32 = 0
            let noData = GDALGetRasterNoDataValue(handle, &hasNoData)
            let scale = GDALGetRasterScale(handle, &hasScale)
            let offset = GDALGetRasterOffset(handle, &hasOffset)
            return BandInfo(
                noData: hasNoData != 0 ? noData : nil,
                scale: hasScale != 0 && scale != 0 ? scale : 1,
                offset: hasOffset != 0 ? offset : 0,
                unitType: GDALGetRasterUnitType(handle).map { String(cString: $0) } ?? "",
                dataType: GDALGetRasterDataType(handle))
        }
    }

    /// The band's natural block, in cells: the unit GDAL reads, caches and, for a tiled file
    /// on a server, downloads. The corresponding GDAL function is `GDALGetBlockSize`.
    var blockSize: (width: Int, height: Int) {
        withExtendedLifetime(dataset) {
            var width: Int32 = 0
            var height: Int32 = 0
            GDALGetBlockSize(handle, &width, &height)
            return (Int(width), Int(height))
        }
    }

    /// What the band holds: grey, red, green, blue, alpha, a palette index, ….
    /// The corresponding GDAL function is `GDALGetRasterColorInterpretation`.
    var colourInterpretation: GDALColorInterp {
        withExtendedLifetime(dataset) { GDALGetRasterColorInterpretation(handle) }
    }

    /// GDAL's mask flags for the band (`GMF_ALL_VALID` when every cell is valid).
    /// The corresponding GDAL function is `GDALGetMaskFlags`.
    var maskFlags: Int32 {
        withExtendedLifetime(dataset) { GDALGetMaskFlags(handle) }
    }

    /// Reads the window of `width` × `height` cells at (`column`, `row`) into `values`, starting
    /// `byteOffset` bytes in, resampled to `bufferWidth` × `bufferHeight` (nearest neighbour, or
    /// an overview, when smaller), as `type`, `pixelSpacing` bytes from one value to the next and
    /// `lineSpacing` from one row to the next (0: packed). A failure is `failure(GDAL's message)`.
    /// The corresponding GDAL function is `GDALRasterIO`.
    ///
    /// - Precondition: `values` holds every byte the read writes.
    func read<Element>(
        column: Int, row: Int, width: Int, height: Int,
        into values: inout [Element], byteOffset: Int = 0, bufferWidth: Int, bufferHeight: Int,
        type: GDALDataType, pixelSpacing: Int = 0, lineSpacing: Int = 0,
        orThrow failure: (String) -> TerrainError
    ) throws(TerrainError) {
        let failed = values.withUnsafeMutableBytes { bytes -> TerrainError? in
            do throws(TerrainError) {
                try read(
                    column: column, row: row, width: width, height: height, into: bytes, byteOffset: byteOffset, bufferWidth: bufferWidth,
                    bufferHeight: bufferHeight, type: type, pixelSpacing: pixelSpacing, lineSpacing: lineSpacing, orThrow: failure)
                return nil
            } catch {
                return error
            }
        }
        if let failed { throw failed }
    }

    /// ``read(column:row:width:height:into:byteOffset:bufferWidth:bufferHeight:type:pixelSpacing:lineSpacing:orThrow:)``
    /// into memory the caller holds (which need not be initialised: the read writes it).
    func read(
        column: Int, row: Int, width: Int, height: Int,
        into bytes: UnsafeMutableRawBufferPointer, byteOffset: Int = 0, bufferWidth: Int, bufferHeight: Int,
        type: GDALDataType, pixelSpacing: Int = 0, lineSpacing: Int = 0,
        orThrow failure: (String) -> TerrainError
    ) throws(TerrainError) {
        let valueBytes = Int(GDALGetDataTypeSizeBytes(type))
        let pixelStep = pixelSpacing == 0 ? valueBytes : pixelSpacing
        let lineStep = lineSpacing == 0 ? bufferWidth * pixelStep : lineSpacing
        guard bufferWidth > 0, bufferHeight > 0 else { return }
        let end = byteOffset + (bufferHeight - 1) * lineStep + (bufferWidth - 1) * pixelStep + valueBytes
        precondition(byteOffset >= 0 && end <= bytes.count, "RasterBand.read: the buffer is too small")
        try withExtendedLifetime(dataset) { () throws(TerrainError) in
            try gdal {
                GDALRasterIO(
                    handle, GF_Read, Int32(column), Int32(row), Int32(width), Int32(height),
                    bytes.baseAddress! + byteOffset, Int32(bufferWidth), Int32(bufferHeight), type,
                    Int32(pixelSpacing), Int32(lineSpacing))
            } orThrow: {
                failure($0)
            }
        }
    }
}
