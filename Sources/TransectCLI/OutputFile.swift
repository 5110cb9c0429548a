#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where results go: the console's stdout, or a file written atomically (a temporary file
/// beside it, renamed into place on `commit`; removed on `abandon`, so a failed run leaves no
/// partial file).
final class OutputTarget {
    private let console: Console
    private let path: String?
    private let temporaryPath: String?
    private var file: UnsafeMutablePointer<FILE>?
    private var finished = false

    init(path: String?, console: Console) throws(CLIError) {
        self.console = console
        self.path = path
        guard let path, path != "-" else {
            temporaryPath = nil
            return
        }
        let tmp = path + ".tmp-\(getpid())"
        guard let f = fopen(tmp, "w") else {
            throw .cannotWrite(path: path, reason: String(cString: strerror(errno)).lowercased())
        }
        temporaryPath = tmp
        file = f
    }

    func write(_ text: String) {
        if let file { fputs(text, file) } else { console.out(text) }
    }

    /// Moves the finished file into place.
    func commit() throws(CLIError) {
        guard !finished else { return }
        finished = true
        guard let file, let temporaryPath, let path else { return }
        let flushed = fflush(file) == 0 && ferror(file) == 0
        fclose(file)
        self.file = nil
        guard flushed, rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno)).lowercased()
            unlink(temporaryPath)
            throw .cannotWrite(path: path, reason: reason)
        }
    }

    /// Drops the partial file.
    func abandon() {
        guard !finished else { return }
        finished = true
        if let file { fclose(file) }
        file = nil
        if let temporaryPath { unlink(temporaryPath) }
    }

    deinit { abandon() }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
