#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectFormatsBase
import TransectSupport

/// The record a shard's output leaves beside it (`OUT.manifest.json`), written after the output
/// in the same transaction: what was read (path, SHA-256), which rows of it, with what options,
/// and the SHA-256 of the bytes written. `--skip-existing` and `transect merge` trust an output
/// only through it.
package struct ShardManifest: Equatable {
    package static let format = "transect-shard-manifest/1"

    package var input: String
    package var inputSHA256: String
    package var shard: Shard
    /// The shard's rows among the whole file's (from 1); nil when it holds none.
    package var rows: ClosedRange<Int>?
    package var totalRows: Int
    package var goodRows: Int
    package var badRows: Int
    package var outputSHA256: String
    /// The options that shape the bytes, as `name=value` texts, in a fixed order.
    package var options: [String]

    package init(
        input: String, inputSHA256: String, shard: Shard, rows: ClosedRange<Int>?, totalRows: Int, goodRows: Int, badRows: Int,
        outputSHA256: String, options: [String]
    ) {
        self.input = input
        self.inputSHA256 = inputSHA256
        self.shard = shard
        self.rows = rows
        self.totalRows = totalRows
        self.goodRows = goodRows
        self.badRows = badRows
        self.outputSHA256 = outputSHA256
        self.options = options
    }

    /// The manifest's path beside `output`.
    package static func path(for output: String) -> String { output + ".manifest.json" }

    package var json: JSON {
        .object([
            ("format", .string(Self.format)),
            ("input", .string(input)),
            ("input_sha256", .string(inputSHA256)),
            ("shard", .string(shard.text)),
            ("first_row", rows.map { .number(Double($0.lowerBound)) } ?? .null),
            ("last_row", rows.map { .number(Double($0.upperBound)) } ?? .null),
            ("total_rows", .number(Double(totalRows))),
            ("good_rows", .number(Double(goodRows))),
            ("bad_rows", .number(Double(badRows))),
            ("output_sha256", .string(outputSHA256)),
            ("options", .array(options.map { .string($0) })),
        ])
    }

    /// Reads the manifest at `path`; nil when there is none. A manifest that is there but
    /// does not read as one throws.
    package static func read(_ path: String) throws(CLIError) -> ShardManifest? {
        guard let bytes = try Fields.contents(path) else { return nil }
        return try parse(bytes, path: path)
    }

    /// The manifest in `bytes` (the file at `path`, which messages name).
    package static func parse(_ bytes: [UInt8], path: String) throws(CLIError) -> ShardManifest {
        let fields = try Fields(bytes: bytes, path: path, format: format)
        let rows = try fields.range("first_row", "last_row", of: "row")
        guard let options = fields.json["options"]?.array?.compactMap(\.string) else { throw fields.bad("lacks 'options'") }
        return ShardManifest(
            input: try fields.text("input"), inputSHA256: try fields.text("input_sha256"), shard: try fields.shard(), rows: rows,
            totalRows: try fields.count("total_rows"), goodRows: try fields.count("good_rows"), badRows: try fields.count("bad_rows"),
            outputSHA256: try fields.text("output_sha256"), options: options)
    }

    /// A manifest's JSON object, read with the checks every kind of manifest shares.
    package struct Fields {
        package let path: String
        package let json: JSON

        /// The most bytes of a manifest or a journal read: 64 MiB, some 100,000 scenes' records
        /// with their outputs, or a pairs shard's few hundred bytes many times over.
        package static let maximumBytes = 64 << 20

        /// The manifest at `path`, which must say it is a `format` file; nil when there is none.
        package init?(_ path: String, format: String) throws(CLIError) {
            guard let bytes = try Self.contents(path) else { return nil }
            try self.init(bytes: bytes, path: path, format: format)
        }

        /// The manifest in `bytes` (the file at `path`), which must say it is a `format` file.
        package init(bytes: [UInt8], path: String, format: String) throws(CLIError) {
            self.path = path
            do { json = try JSON.parse(bytes, path: path) } catch { throw CLIError.badInput("shard manifest '\(path)': \(error.message)") }
            guard json["format"]?.string == format else { throw bad("not a \(format) file") }
        }

        /// The whole file at `path`, at most ``maximumBytes``; nil when there is none. A FIFO,
        /// a device or a directory is refused without waiting on it or reading it
        /// (``RegularFile``), and so is a larger file; a read that fails is worth retrying.
        package static func contents(_ path: String) throws(CLIError) -> [UInt8]? {
            let fd: Int32
            do throws(SystemError) { fd = try RegularFile.openForReading(path) } catch {
                if error.code == ENOENT { return nil }
                if error.detail != nil { throw CLIError.badInput("shard manifest '\(path)': \(error.text)") }
                throw CLIError.retryable("cannot read '\(path)': \(error.text)")
            }
            defer { close(fd) }
            let tooLarge = CLIError.badInput(
                "shard manifest '\(path)': is larger than \(maximumBytes >> 20) MiB, more than any manifest or journal Transect writes")
            // A regular file's size, known before a byte is read; the loop below still stops at
            // the bound should the file grow meanwhile.
            var info = stat()
            if fstat(fd, &info) == 0 && Int(info.st_size) > maximumBytes { throw tooLarge }
            var bytes: [UInt8] = []
            var piece = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let outcome = piece.withUnsafeMutableBytes { b in
                    Result { () throws(SystemError) in try SystemError.call(retryingInterrupts: true) { Glibc.read(fd, b.baseAddress, b.count) } }
                }
                guard case .success(let n) = outcome else {
                    if case .failure(let error) = outcome { throw CLIError.retryable("cannot read '\(path)': \(error.text)") }
                    return nil
                }
                if n == 0 { return bytes }
                guard bytes.count + n <= maximumBytes else { throw tooLarge }
                bytes += piece[0..<n]
            }
        }

        /// The manifest is not what it should be, for `why`.
        package func bad(_ why: String) -> CLIError { .badInput("shard manifest '\(path)': \(why)") }

        package func text(_ key: String, in object: JSON? = nil) throws(CLIError) -> String {
            guard let s = (object ?? json)[key]?.string else { throw bad("lacks '\(key)'") }
            return s
        }

        package func count(_ key: String, in object: JSON? = nil) throws(CLIError) -> Int {
            guard let value = (object ?? json)[key] else { throw bad("lacks '\(key)'") }
            // Counts of rows, lines and scenes: whole, and below 10^15 (exact in a double, and
            // far from Int.max, so sums and products of two of them at double width stay exact).
            guard let v = value.number, v >= 0, v == v.rounded(), v < 1e15 else {
                throw bad("'\(key)' is not a whole number from 0 to 999,999,999,999,999")
            }
            return Int(v)
        }

        /// `first…last` of `what` (rows, lines) from two counts from 1; nil when the first is null
        /// (an empty shard).
        package func range(_ first: String, _ last: String, of what: String) throws(CLIError) -> ClosedRange<Int>? {
            guard json[first]?.isNull != true else { return nil }
            let a = try count(first)
            let b = try count(last)
            guard a >= 1, a <= b else { throw bad("bad \(what) range") }
            return a...b
        }

        package func shard() throws(CLIError) -> Shard {
            let text = try text("shard")
            do { return try ShardArgument.parse(text, environment: [:], command: "merge") } catch {
                let most = NumberFormatting.grouped(Double(Shard.maximumCount), decimals: 0)
                throw bad("'shard' is '\(text.printable)', not K/N with 1 ≤ K ≤ N ≤ \(most)")
            }
        }
    }

    /// The SHA-256 of the file at `path`; nil when it does not exist. Failing reads are worth
    /// retrying.
    package static func digest(ofFile path: String) throws(CLIError) -> String? {
        do { return try SHA256.hexDigest(ofFile: path) } catch {
            if error.code == ENOENT { return nil }
            throw CLIError.ioFailure(path: path, reading: true, error)
        }
    }
}
