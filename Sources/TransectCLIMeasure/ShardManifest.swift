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
        guard let fields = try Fields(path, format: format) else { return nil }
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

        /// The manifest at `path`, which must say it is a `format` file; nil when there is none.
        package init?(_ path: String, format: String) throws(CLIError) {
            guard let bytes = Self.contents(path) else {
                if access(path, F_OK) == 0 { throw CLIError.retryable("cannot read '\(path)'") }
                return nil
            }
            self.path = path
            do { json = try JSON.parse(bytes, path: path) } catch { throw CLIError.badInput("shard manifest '\(path)': \(error.message)") }
            guard json["format"]?.string == format else { throw bad("not a \(format) file") }
        }

        /// The whole file at `path`; nil when it cannot be read whole (there is none, it is a
        /// directory or unreadable, or a read fails).
        package static func contents(_ path: String) -> [UInt8]? {
            do throws(FormatError) {
                let file = try FileChunks(path: path)
                var bytes: [UInt8] = []
                while let chunk = try file.next() { bytes += chunk }
                return bytes
            } catch {
                return nil
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
