#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where results go: the console's stdout, or a file written through an ``OutputTransaction``
/// (a temporary beside it, renamed into place on `commit`; removed on `abandon`, on failure
/// and on SIGINT/SIGTERM/SIGHUP, so a failed or interrupted run leaves no partial file).
final class OutputTarget {
    private let console: Console
    private let path: String?
    private let transaction: OutputTransaction?
    /// True when this target made its transaction and so commits it.
    private let ownsTransaction: Bool
    private var file: UnsafeMutablePointer<FILE>?
    private var finished = false

    /// A target for `path` (nil or `-`: stdout). With `transaction`, the file joins that
    /// transaction, which the caller commits; without, the target commits its own.
    init(path: String?, console: Console, transaction: OutputTransaction? = nil) throws(CLIError) {
        self.console = console
        self.path = path
        guard let path, path != "-" else {
            self.transaction = nil
            ownsTransaction = false
            return
        }
        let t = transaction ?? OutputTransaction()
        self.transaction = t
        ownsTransaction = transaction == nil
        let temporary = try t.stage(path)
        guard let f = fopen(temporary, "w") else {
            throw .cannotWrite(path: path, reason: OutputTransaction.lastError())
        }
        file = f
    }

    func write(_ text: String) {
        if let file { fputs(text, file) } else { console.out(text) }
    }

    /// Finishes the file; moves it into place when this target owns its transaction.
    func commit() throws(CLIError) {
        guard !finished else { return }
        finished = true
        guard let file, let path, let transaction else { return }
        let flushed = fflush(file) == 0 && ferror(file) == 0
        let reason = OutputTransaction.lastError()
        let closed = fclose(file) == 0
        self.file = nil
        guard flushed, closed else {
            transaction.rollback()
            throw .cannotWrite(path: path, reason: reason)
        }
        if ownsTransaction { try transaction.commit() }
    }

    /// Drops the partial file (and, through the shared transaction, the rest of the result).
    func abandon() {
        guard !finished else { return }
        finished = true
        if let file { fclose(file) }
        file = nil
        transaction?.rollback()
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
