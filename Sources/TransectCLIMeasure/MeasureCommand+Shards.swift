#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectFormatsBase
import TransectSupport

extension MeasureCommand {
    /// What a `--shard` run of `--pairs` measures and records: its rows among the whole
    /// file's, and (with `-o`) the manifest it leaves beside the output.
    package struct PairsShardPlan {
        package var shard: Shard
        package var totalRows: Int
        package var rows: ClosedRange<Int>?
        /// The first pass's row count and checkpoints, where the shard seeks to its rows.
        package var survey: PairsReader.Survey
        /// The manifest to complete and write; nil without `-o`.
        package var manifest: ShardManifest?
        /// The input as the first pass found it (``Fingerprint``), to tell whether it changed
        /// before the shard's rows were read again.
        package var fingerprint: Fingerprint?
        /// The input file's path.
        package var path: String

        /// What identifies a file's content cheaply: device, inode, size, and the times of its
        /// last change of content and of status (any write moves them).
        package struct Fingerprint: Equatable {
            var device: UInt64, inode: UInt64, size: Int64
            var modified: [Int], changed: [Int]

            package init?(path: String) {
                var info = stat()
                guard stat(path, &info) == 0 else { return nil }
                device = UInt64(info.st_dev)
                inode = UInt64(info.st_ino)
                size = Int64(info.st_size)
                modified = [info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
                changed = [info.st_ctim.tv_sec, info.st_ctim.tv_nsec]
            }
        }

        /// Throws (exit 75) when the input is no longer the file the first pass counted and
        /// hashed: replaced, written or cut between the passes, so the rows measured may not be
        /// the rows the manifest's SHA-256 stands for.
        package func checkUnchanged() throws(CLIError) {
            guard let fingerprint, Fingerprint(path: path) == fingerprint else {
                throw CLIError.retryable(
                    "pairs '\(path)' changed while shard \(shard.text) read it (between counting its rows and measuring them); run the shard again")
            }
        }

        /// Counts the file's rows (a pass before the real one) and places the shard; with a
        /// manifest to write, the same pass hashes the input.
        package init(shard: Shard, path: String, out: String?, options: [String]) throws {
            self.shard = shard
            self.path = path
            fingerprint = Fingerprint(path: path)
            let recorded = out != nil && out != "-"
            var inputHash = SHA256()
            do {
                survey = try PairsReader.survey(path: path, observingBytes: recorded ? { inputHash.update($0) } : nil)
            } catch {
                if case .cannotRead = error { throw CLIError.badInput(error.message) }
                throw CLIError.badInput("pairs " + error.message)
            }
            totalRows = survey.rows
            rows = shard.rows(of: totalRows)
            try checkUnchanged()
            guard recorded else { return }
            manifest = ShardManifest(
                input: path, inputSHA256: inputHash.hexDigest, shard: shard, rows: rows, totalRows: totalRows, goodRows: 0, badRows: 0,
                outputSHA256: "", options: options)
        }

        /// True when `out` and its manifest already hold this shard of this input, made with
        /// these options, and the output's bytes are those the manifest recorded.
        package func isDone(out: String) throws -> Bool {
            guard let manifest, let existing = try ShardManifest.read(ShardManifest.path(for: out)) else { return false }
            guard
                existing.inputSHA256 == manifest.inputSHA256 && existing.shard == manifest.shard && existing.rows == manifest.rows
                    && existing.options == manifest.options
            else { return false }
            return try ShardManifest.digest(ofFile: out) == existing.outputSHA256
        }
    }

    /// `--shard` (nil without), checked against `--pairs`, `-o` and `--skip-existing`.
    package static func shardArgument(_ args: ParsedArguments, pairsPath: String, out: String?) throws -> Shard? {
        guard let text = try args.value(MeasureOptions.shard) else {
            guard !args.has(MeasureOptions.skipExisting) else {
                throw CLIError.usage("option '--skip-existing': skips a finished shard; give --shard and -o", command: "measure")
            }
            return nil
        }
        guard pairsPath != "-" else {
            throw CLIError.usage(
                "option '--shard': needs --pairs FILE, as the rows are counted before a shard is measured (stdin reads once)",
                command: "measure")
        }
        if args.has(MeasureOptions.skipExisting) && (out == nil || out == "-") {
            throw CLIError.usage("option '--skip-existing': needs -o FILE, where the shard's manifest goes beside it", command: "measure")
        }
        return try ShardArgument.parse(text, environment: ShardArgument.processEnvironment, command: "measure")
    }

    /// The options that shape a pairs batch's bytes, as the manifest records them.
    package static func pairsOptions(
        terrain: TerrainOptions, aboveGround: Double, strict: Bool, layer: (format: LayerFormat, maxSegmentMetres: Double)? = nil
    ) -> [String] {
        terrain.demSpecs.map { "dem=\($0)" } + [
            "interpolation=\(terrain.interpolation)", "geoid=\(terrain.geoidPath ?? "")", "crs=\(terrain.crs ?? "")",
            "above-ground=\(aboveGround)", "strict=\(strict)", "format=\(layer?.format.rawValue ?? "csv")",
        ] + (layer.map { ["max-segment=\($0.maxSegmentMetres)"] } ?? [])
    }
}
