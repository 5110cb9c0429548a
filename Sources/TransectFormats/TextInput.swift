import Foundation

/// What every text input shares: UTF-8, no NUL bytes, split into lines, and a reason for a file
/// that cannot be read.
enum TextInput {
    /// The lines of a UTF-8 text (LF, CRLF or CR endings), refusing a NUL byte with its line:
    /// a NUL would cut a C string, and so a message or a field, short without a trace.
    static func lines(_ data: Data, path: String) throws(FormatError) -> [String] {
        if let nul = data.firstIndex(of: 0) {
            throw .malformed(path: path, reason: "line \(lineNumber(data, at: nul)): contains a NUL byte")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw .malformed(path: path, reason: "is not UTF-8 text") }
        // "\r\n" is one Character, and a newline: CRLF, LF and CR files all split by line.
        return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
    }

    /// The 1-based line of the byte at `index` (counting LF line ends).
    static func lineNumber(_ data: Data, at index: Data.Index) -> Int {
        1 + data[data.startIndex..<index].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    /// Why `path` could not be read: no such file, a directory, or not readable.
    static func unreadableReason(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        return !exists ? "no such file" : isDirectory.boolValue ? "is a directory" : "not readable"
    }
}
