#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectSupport

/// A file read in fixed-size chunks (so memory stays bounded however large the file), with
/// the first bytes available ahead of time for a look at the format (``head(_:)``).
package final class FileChunks {
    package static let chunkBytes = 64 * 1024
    private let file: UnsafeMutablePointer<FILE>
    package let path: String
    /// The size `fstat` gives: the file's length for a regular file, 0 for a pipe.
    package let size: Int
    /// True for a regular file (not a pipe or a device), whose `size` is its length.
    package let isRegular: Bool
    /// Chunks read by ``head(_:)`` and not yet handed out by ``next()``.
    private var replay: [[UInt8]] = []

    /// Opens `path`, refusing a directory, and with `regularOnly` anything but a regular file
    /// (``RegularFile``: a FIFO, a device, a socket), without waiting on a FIFO's writer.
    /// - Throws: `FormatError.cannotRead`: no such file, a directory, or not readable (worded by
    ///   ``SystemError/briefText``), or not a regular file.
    /// `-` is standard input (named `stdin` in messages), read through a duplicate of its
    /// descriptor so that closing this reader leaves the process's stdin open.
    package init(path: String, regularOnly: Bool = false) throws(FormatError) {
        self.path = path == "-" ? "stdin" : path
        let f: UnsafeMutablePointer<FILE>
        do throws(SystemError) {
            if path == "-" {
                let fd = try SystemError.call { dup(0) }
                do throws(SystemError) { f = try SystemError.call { fdopen(fd, "rb") } } catch {
                    close(fd)
                    throw error
                }
            } else if regularOnly {
                let fd = try RegularFile.openForReading(path)
                do throws(SystemError) { f = try SystemError.call { fdopen(fd, "rb") } } catch {
                    close(fd)
                    throw error
                }
            } else {
                f = try SystemError.call { fopen(path, "rb") }
            }
        } catch {
            throw .cannotRead(path: self.path, reason: error.briefText)
        }
        var info = stat()
        do throws(SystemError) {
            try SystemError.call { fstat(fileno(f), &info) }
        } catch {
            fclose(f)
            throw .cannotRead(path: self.path, reason: error.text)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            fclose(f)
            throw .cannotRead(path: self.path, reason: "is a directory")
        }
        file = f
        isRegular = (info.st_mode & S_IFMT) == S_IFREG
        size = Int(info.st_size)
    }

    /// Standard input (a copy of descriptor 0, so closing this leaves stdin open), read as a
    /// file is and named `name` in messages; a directory is refused.
    package convenience init(standardInput name: String) throws(FormatError) {
        let fd = dup(0)
        guard fd >= 0, let f = fdopen(fd, "rb") else {
            if fd >= 0 { close(fd) }
            throw .cannotRead(path: name, reason: "standard input is closed")
        }
        try self.init(file: f, path: name)
    }

    private init(file f: UnsafeMutablePointer<FILE>, path: String) throws(FormatError) {
        self.path = path
        var info = stat()
        guard fstat(fileno(f), &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else {
            fclose(f)
            throw .cannotRead(path: path, reason: "is a directory, or cannot be read")
        }
        file = f
        isRegular = (info.st_mode & S_IFMT) == S_IFREG
        size = Int(info.st_size)
    }

    deinit { fclose(file) }

    /// The next chunk, or nil at the end of the file.
    package func next() throws(FormatError) -> [UInt8]? {
        if !replay.isEmpty { return replay.removeFirst() }
        return try read()
    }

    /// The next chunk from the file itself, or nil at its end.
    private func read() throws(FormatError) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: Self.chunkBytes)
        let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, Self.chunkBytes, file) }
        if n == 0 {
            do throws(SystemError) {
                try SystemError.check { ferror(file) == 0 }
            } catch {
                throw .cannotRead(path: path, reason: error.text)
            }
            return nil
        }
        chunk.removeLast(Self.chunkBytes - n)
        return chunk
    }

    /// At least the first `count` bytes (fewer only at the end of the file), without using
    /// them up: ``next()`` hands them out again. Call before the first `next()`.
    package func head(_ count: Int) throws(FormatError) -> [UInt8] {
        var bytes = replay.flatMap { $0 }
        while bytes.count < count, let chunk = try read() {
            replay.append(chunk)
            bytes += chunk
        }
        return bytes
    }
}
