import Foundation

/// What every text input shares: UTF-8, no NUL bytes, split into lines, a reason for a file
/// that cannot be read, and a bound on how much of a file is read into memory.
enum TextInput {
    /// The most bytes of a JSON or CSV track file or a places file read into memory: 256 MiB.
    /// These formats are parsed whole, and the parsed values take several times the text, so
    /// this keeps a run within a few GiB; a real track or places file is a few MiB (a year of
    /// one fix a second is about 100 MiB of CSV). GPX is streamed and has no size limit.
    static let maximumDataFileBytes = 256 * 1024 * 1024

    /// The most bytes of a scene file read: 1 MiB. A scene is a handful of settings (a few
    /// hundred bytes); a megabyte is already thousands of them.
    static let maximumSceneFileBytes = 1024 * 1024

    /// The whole content of `path`, read in chunks, refusing more than `limit` bytes with a
    /// message naming the limit and `kind` ("track files"…).
    ///
    /// A regular file larger than the limit is refused before a byte is read. A pipe or a
    /// device is read until its end or the limit, whichever comes first; reading also stops
    /// after the first chunk holding a NUL byte, which every format read this way refuses (with
    /// its line), so `/dev/zero` is refused at once instead of filling memory.
    ///
    /// - Throws: `FormatError.cannotRead` for no such file, a directory, an unreadable file or
    ///   one over the limit.
    /// With `regularOnly`, anything but a regular file is refused before it is read
    /// (``RegularFile``).
    static func contents(path: String, limit: Int, kind: String, regularOnly: Bool = false) throws(FormatError) -> Data {
        try contents(of: try FileChunks(path: path, regularOnly: regularOnly), limit: limit, kind: kind)
    }

    /// The rest of `source`, as ``contents(path:limit:kind:)`` reads it.
    static func contents(of source: FileChunks, limit: Int, kind: String) throws(FormatError) -> Data {
        func tooLarge() -> FormatError {
            .cannotRead(path: source.path, reason: "is larger than \(describe(bytes: limit)), the limit for \(kind)")
        }
        if source.isRegular && source.size > limit { throw tooLarge() }
        var data = Data()
        while let chunk = try source.next() {
            guard data.count + chunk.count <= limit else { throw tooLarge() }
            data.append(contentsOf: chunk)
            if chunk.contains(0) { break }
        }
        return data
    }

    /// A byte count as the limits are stated: `256 MiB`, `1 MiB`, `64 KiB`, else bytes.
    static func describe(bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

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
}

extension UInt8 {
    /// ASCII white space as the format sniffers skip it: space, tab, line feed, carriage return.
    var isWhitespace: Bool { self == 32 || self == 9 || self == 10 || self == 13 }
}
