#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectCLICompare
import TransectGDAL
import TransectImageCompare
import TransectRender
import TransectSupport

/// An image `compare` reads: a PNG through ``PNGInput`` (libpng), anything else through GDAL
/// (``RasterImage``: GeoTIFF renders), told apart by the file's first bytes.
enum CompareInput {
    /// The image at `path` as the comparison reads it: a PNG as the compare library reads it,
    /// anything else through GDAL; bad data (exit 1) naming the file otherwise.
    static func load(_ path: String, maxPixels: Int) throws(CLIError) -> RGBAImage {
        if try PNGInput.isPNG(path) { return try PNGInput.load(path, maxPixels: maxPixels) }
        do throws(TerrainError) {
            let raster = try RasterImage.readRGBA(path: path, maxPixels: maxPixels)
            return RGBAImage(width: raster.width, height: raster.height, pixels: raster.pixels, hasAlphaChannel: raster.hasAlphaBand)
        } catch {
            throw CLIError.badInput(error.message)
        }
    }

    /// The whole file at `path`, for the report (a PNG's own bytes, inlined as they are).
    static func bytes(of path: String) throws(CLIError) -> [UInt8] {
        do throws(SystemError) {
            let fd = try SystemError.call { open(path, O_RDONLY | O_CLOEXEC) }
            defer { close(fd) }
            var out: [UInt8] = []
            let chunk = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 16)
            defer { chunk.deallocate() }
            while true {
                let n = try SystemError.call(retryingInterrupts: true) { read(fd, chunk, 1 << 16) }
                if n == 0 { break }
                out += UnsafeRawBufferPointer(start: chunk, count: n)
            }
            return out
        } catch {
            throw CLIError.ioFailure(path: path, reading: true, error)
        }
    }

    /// `rgba` encoded as a PNG's bytes, through a temporary file that is gone when this returns
    /// (and on a signal before).
    static func pngBytes(rgba: [UInt8], width: Int, height: Int) throws(CLIError) -> [UInt8] {
        let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((directory + "/.transect-compare-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard fd >= 0 else { throw .cannotWrite(path: path, reason: SystemError.text(errno)) }
        close(fd)
        SignalCleanup.register(path, .remove)
        defer {
            unlink(path)
            SignalCleanup.unregister(path)
        }
        do throws(RenderError) {
            try PNGFile.encode(path: path, rgba: rgba, width: width, height: height, encoding: PNGFile.Encoding(preset: .fast, threads: 1))
        } catch {
            throw .cannotWrite(path: path, reason: error.message)
        }
        return try bytes(of: path)
    }
}
