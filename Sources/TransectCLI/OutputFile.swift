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

/// Reads lines from a file or stdin (`-`) one at a time: memory stays flat however long the input.
final class LineReader {
    private let file: UnsafeMutablePointer<FILE>
    private let ownsFile: Bool
    private var buffer: UnsafeMutablePointer<CChar>? = nil
    private var capacity = 0

    init(path: String) throws(CLIError) {
        if path == "-" {
            file = stdin
            ownsFile = false
        } else {
            guard let f = fopen(path, "r") else {
                throw .badInput("cannot read '\(path)': \(String(cString: strerror(errno)).lowercased())")
            }
            file = f
            ownsFile = true
        }
    }

    deinit {
        free(buffer)
        if ownsFile { fclose(file) }
    }

    /// The next line without its line ending, or nil at the end.
    func next() -> String? {
        let n = getline(&buffer, &capacity, file)
        guard n >= 0, let buffer else { return nil }
        var line = String(cString: buffer)
        while line.hasSuffix("\n") || line.hasSuffix("\r") { line.removeLast() }
        return line
    }
}

/// Splits one CSV line into fields (RFC 4180 quoting, on one line).
func splitCSV(_ line: String) -> [String] {
    // Most lines hold no quotes: split their bytes directly.
    if !line.utf8.contains(34) {
        return line.utf8.split(separator: 44, omittingEmptySubsequences: false).map { String(Substring($0)) }
    }
    var fields: [String] = []
    var field = ""
    var quoted = false
    var iterator = line.makeIterator()
    var pending: Character? = nil
    while let c = pending ?? iterator.next() {
        pending = nil
        if quoted {
            if c == "\"" {
                if let n = iterator.next() {
                    if n == "\"" { field.append("\"") } else { quoted = false; pending = n }
                } else { quoted = false }
            } else { field.append(c) }
        } else if c == "\"" && field.isEmpty {
            quoted = true
        } else if c == "," {
            fields.append(field)
            field = ""
        } else {
            field.append(c)
        }
    }
    fields.append(field)
    return fields
}

/// A CSV field, quoted when it holds a comma, quote or line break.
func csvField(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }) else { return text }
    return "\"" + text.replacingAll("\"", with: "\"\"") + "\""
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
