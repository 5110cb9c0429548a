#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectCLIBase
import TransectImageCompare
import TransectPNG
import TransectSupport

/// PNG inputs of `compare`, read with libpng (``PNGCodec``) in both command-line libraries, so
/// they word a bad PNG alike.
package enum PNGInput {
    /// The PNG at `path` as the comparison reads it, or bad data (exit 1) naming the file; a
    /// read that failed for a reason worth retrying (EIO, …) exits 75.
    package static func load(_ path: String, maxPixels: Int) throws(CLIError) -> RGBAImage {
        do throws(PNGCodec.Failure) {
            let png = try PNGCodec.read(path: path, maxPixels: max(maxPixels, 1))
            return RGBAImage(width: png.width, height: png.height, pixels: png.pixels, hasAlphaChannel: png.isRGBA)
        } catch {
            if error.systemError != 0 { throw CLIError.ioFailure(path: path, reading: true, SystemError(code: error.systemError)) }
            throw CLIError.badInput("cannot read '\(path)': \(error.reason)")
        }
    }

    /// True when the file at `path` begins with the PNG signature.
    package static func isPNG(_ path: String) throws(CLIError) -> Bool {
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
}
