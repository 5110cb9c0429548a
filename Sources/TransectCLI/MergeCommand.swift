#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectSupport

/// `transect merge PARTS… -o OUT`: the outputs of every shard of one `--pairs` batch, checked
/// through their manifests and concatenated in shard order (the first shard's header is the
/// only one), so OUT holds the bytes one run would have written.
enum MergeCommand {
    static func run(_ args: ParsedArguments, console: Console) throws -> Int32 {
        let paths = args.positionals.map { $0.hasSuffix(".manifest.json") ? String($0.dropLast(".manifest.json".count)) : $0 }
        guard !paths.isEmpty else { throw CLIError.usage("give the shards' outputs to merge", command: "merge") }
        let parts = try ordered(paths)
        for (path, manifest) in parts {
            guard let digest = try ShardManifest.digest(ofFile: path) else {
                throw CLIError.badInput("'\(path)' is missing (its manifest is there): rerun shard \(manifest.shard.text)")
            }
            guard digest == manifest.outputSHA256 else { throw changed(path, manifest) }
        }
        let out = try args.value(MergeOptions.out)
        var files = RunFiles()
        for (path, _) in parts { files.input("PART", path) }
        files.output("-o", out)
        try files.check(command: "merge")
        if isViewshed(parts) {
            try mergeViewsheds(parts, out: out)
        } else if let format = layerFormat(parts) {
            try mergeLayers(parts, format: format, out: out)
        } else {
            let output = try OutputTarget(path: out, console: console)
            for (path, manifest) in parts {
                do throws(CLIError) {
                    guard try copy(path, to: output) == manifest.outputSHA256 else { throw changed(path, manifest) }
                } catch {
                    output.abandon()
                    throw error
                }
            }
            try output.commit()
        }
        // Every shard is there and checked: what is left beside the parts is debris of shards
        // that were killed or ran twice.
        let debris = StaleCompanions.sweepFinished(parts.flatMap { [$0.0, ShardManifest.path(for: $0.0)] }, keeping: out.map { [$0] } ?? [])
        if !debris.isEmpty {
            let hosts = Set(debris.map(\.companion.host)).sorted().joined(separator: ", ")
            console.err(
                "note: removed \(NumberFormatting.count(debris.count, "temporary file")) beside the parts, left by shards that did not finish (written on \(hosts))\n"
            )
        }
        return 0
    }

    static func changed(_ path: String, _ manifest: ShardManifest) -> CLIError {
        .badInput(
            "'\(path)' is not the output its manifest records (SHA-256 \(manifest.outputSHA256.prefix(12))…): changed or cut short; rerun shard \(manifest.shard.text)"
        )
    }

    /// The parts with their manifests, in shard order, once each shard 1…N of one input made
    /// with the same options is there exactly once.
    static func ordered(_ paths: [String]) throws(CLIError) -> [(String, ShardManifest)] {
        var first: (path: String, manifest: ShardManifest)?
        var byIndex: [Int: String] = [:]
        var parts: [(String, ShardManifest)] = []
        for path in paths {
            guard let manifest = try ShardManifest.read(ShardManifest.path(for: path)) else {
                throw CLIError.badInput("'\(path)' has no manifest beside it ('\(ShardManifest.path(for: path))'): not a finished shard")
            }
            if let (firstPath, reference) = first {
                guard manifest.inputSHA256 == reference.inputSHA256 && manifest.totalRows == reference.totalRows else {
                    throw CLIError.badInput(
                        "'\(path)' is a shard of another input ('\(manifest.input)', SHA-256 \(manifest.inputSHA256.prefix(12))…) than '\(firstPath)' ('\(reference.input)', SHA-256 \(reference.inputSHA256.prefix(12))…)"
                    )
                }
                guard manifest.shard.count == reference.shard.count else {
                    throw CLIError.badInput(
                        "'\(path)' is shard \(manifest.shard.text), '\(firstPath)' is shard \(reference.shard.text): not one split")
                }
                guard manifest.options == reference.options else {
                    let differing = Set(manifest.options).symmetricDifference(reference.options).sorted().joined(separator: ", ")
                    throw CLIError.badInput("'\(path)' and '\(firstPath)' were made with different options (\(differing))")
                }
            } else {
                first = (path, manifest)
            }
            guard manifest.rows == manifest.shard.rows(of: manifest.totalRows) else {
                throw CLIError.badInput("shard manifest '\(ShardManifest.path(for: path))': its rows are not those of shard \(manifest.shard.text)")
            }
            if let other = byIndex[manifest.shard.index] {
                throw CLIError.badInput("shard \(manifest.shard.text) is given twice: '\(other)' and '\(path)'")
            }
            byIndex[manifest.shard.index] = path
            parts.append((path, manifest))
        }
        guard let (_, reference) = first else { return [] }
        let count = reference.shard.count
        let missing = missingRanges(present: byIndex.keys.sorted(), count: count)
        guard missing.isEmpty else {
            let total = missing.reduce(0) { $0 + $1.count }
            let shown = 6
            var names = missing.prefix(shown).map { r in
                r.count == 1
                    ? "\(r.lowerBound)/\(count)"
                    : r.count == 2 ? "\(r.lowerBound)/\(count), \(r.upperBound)/\(count)" : "\(r.lowerBound)/\(count) to \(r.upperBound)/\(count)"
            }
            if missing.count > shown { names.append("\(NumberFormatting.count(missing.count - shown, "range")) more") }
            let many = total == 1 ? "" : " (\(NumberFormatting.grouped(Double(total), decimals: 0)) of \(NumberFormatting.grouped(Double(count), decimals: 0)))"
            throw CLIError.badInput(
                "shard\(total == 1 ? "" : "s") \(names.joined(separator: ", ")) of '\(reference.input)' \(total == 1 ? "is" : "are") missing\(total > 2 ? many : "")"
            )
        }
        return parts.sorted { $0.1.shard.index < $1.1.shard.index }
    }

    /// The runs of shards 1…`count` not in `present` (sorted, each in 1…`count`, no
    /// duplicates): O(parts), however many shards the split says it has.
    static func missingRanges(present: [Int], count: Int) -> [ClosedRange<Int>] {
        var ranges: [ClosedRange<Int>] = []
        var next = 1
        for k in present {
            if k > next { ranges.append(next...(k - 1)) }
            next = k + 1
        }
        if next <= count { ranges.append(next...count) }
        return ranges
    }

    /// Copies the file at `path` to `output`; returns the SHA-256 of the bytes copied.
    static func copy(_ path: String, to output: OutputTarget) throws(CLIError) -> String {
        var hash = SHA256()
        do throws(SystemError) {
            let fd = try RegularFile.openForReading(path)
            defer { close(fd) }
            var bytes = OutputBytes(capacity: 1 << 20)
            while true {
                bytes.removeAll()
                var failure: SystemError?
                bytes.append(maximum: 1 << 20) { p in
                    // Through the funnel: a read a signal interrupts before it copied anything
                    // (EINTR) is made again, and errno is read right after the call that set it.
                    do throws(SystemError) {
                        return try SystemError.call(retryingInterrupts: true) { read(fd, p, 1 << 20) }
                    } catch {
                        failure = error
                        return 0
                    }
                }
                if let failure { throw failure }
                if bytes.isEmpty { break }
                bytes.withBytes { hash.update(UnsafeRawBufferPointer($0)) }
                output.write(bytes)
            }
        } catch {
            throw CLIError.ioFailure(path: path, reading: true, error)
        }
        return hash.hexDigest
    }
}
