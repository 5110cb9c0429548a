#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectGDAL
import TransectImageCompare
import TransectRender
import TransectSupport

/// An image `compare` reads: a PNG through ``PNGFile`` (libpng), anything else through GDAL
/// (``RasterImage``: GeoTIFF renders), told apart by the file's first bytes.
enum CompareInput {
    /// The image at `path` as the comparison reads it, or bad data (exit 1) naming the file; a
    /// read that failed for a reason worth retrying (EIO, …) exits 75.
    static func load(_ path: String, maxPixels: Int) throws(CLIError) -> RGBAImage {
        if try isPNG(path) {
            do throws(RenderError) {
                let png = try PNGFile.read(path: path, maxPixels: maxPixels)
                return RGBAImage(width: png.width, height: png.height, pixels: png.pixels, hasAlphaChannel: png.isRGBA)
            } catch {
                if case .unreadable(_, _, let code) = error, code != 0 {
                    throw CLIError.ioFailure(path: path, reading: true, SystemError(code: code))
                }
                throw CLIError.badInput(error.message)
            }
        }
        do throws(TerrainError) {
            let raster = try RasterImage.readRGBA(path: path, maxPixels: maxPixels)
            return RGBAImage(width: raster.width, height: raster.height, pixels: raster.pixels, hasAlphaChannel: raster.hasAlphaBand)
        } catch {
            throw CLIError.badInput(error.message)
        }
    }

    /// True when the file at `path` begins with the PNG signature.
    static func isPNG(_ path: String) throws(CLIError) -> Bool {
        let fd: Int32
        do throws(SystemError) {
            fd = try SystemError.call { open(path, O_RDONLY | O_CLOEXEC) }
        } catch {
            throw CLIError.ioFailure(path: path, reading: true, error)
        }
        defer { close(fd) }
        var signature = [UInt8](repeating: 0, count: 8)
        let count = signature.withUnsafeMutableBytes { read(fd, $0.baseAddress, 8) }
        return count == 8 && signature == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
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
