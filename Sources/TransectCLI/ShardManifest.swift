#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TransectCore
import TransectFormats

/// The record a shard's output leaves beside it (`OUT.manifest.json`), written after the output
/// in the same transaction: what was read (path, SHA-256), which rows of it, with what options,
/// and the SHA-256 of the bytes written. `--skip-existing` and `transect merge` trust an output
/// only through it.
struct ShardManifest: Equatable {
    static let format = "transect-shard-manifest/1"

    var input: String
    var inputSHA256: String
    var shard: Shard
    /// The shard's rows among the whole file's (from 1); nil when it holds none.
    var rows: ClosedRange<Int>?
    var totalRows: Int
    var goodRows: Int
    var badRows: Int
    var outputSHA256: String
    /// The options that shape the bytes, as `name=value` texts, in a fixed order.
    var options: [String]

    /// The manifest's path beside `output`.
    static func path(for output: String) -> String { output + ".manifest.json" }

    var json: JSON {
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
    static func read(_ path: String) throws(CLIError) -> ShardManifest? {
        guard let data = FileManager.default.contents(atPath: path) else {
            if access(path, F_OK) == 0 { throw CLIError.retryable("cannot read '\(path)'") }
            return nil
        }
        func bad(_ why: String) -> CLIError { .badInput("shard manifest '\(path)': \(why)") }
        let json: JSON
        do { json = try JSON.parse(data, path: path) } catch { throw bad(error.message) }
        guard json["format"]?.string == format else { throw bad("not a \(format) file") }
        func text(_ key: String) throws(CLIError) -> String {
            guard let s = json[key]?.string else { throw bad("lacks '\(key)'") }
            return s
        }
        func count(_ key: String) throws(CLIError) -> Int {
            guard let v = json[key]?.number, v >= 0, v == v.rounded(), v < 1e15 else { throw bad("lacks '\(key)'") }
            return Int(v)
        }
        let shard: Shard
        do { shard = try ShardArgument.parse(try text("shard"), environment: [:], command: "merge") } catch { throw bad("bad 'shard'") }
        var rows: ClosedRange<Int>? = nil
        if json["first_row"]?.isNull != true {
            let first = try count("first_row")
            let last = try count("last_row")
            guard first >= 1, first <= last else { throw bad("bad row range") }
            rows = first...last
        }
        guard let options = json["options"]?.array?.compactMap(\.string) else { throw bad("lacks 'options'") }
        return ShardManifest(
            input: try text("input"), inputSHA256: try text("input_sha256"), shard: shard, rows: rows,
            totalRows: try count("total_rows"), goodRows: try count("good_rows"), badRows: try count("bad_rows"),
            outputSHA256: try text("output_sha256"), options: options)
    }

    /// The SHA-256 of the file at `path`; nil when it does not exist. Failing reads are worth
    /// retrying.
    static func digest(ofFile path: String) throws(CLIError) -> String? {
        do { return try SHA256.hexDigest(ofFile: path) } catch {
            if error.code == ENOENT { return nil }
            throw CLIError.ioFailure(path: path, reading: true, error)
        }
    }
}
