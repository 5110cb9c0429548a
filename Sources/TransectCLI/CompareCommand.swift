#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectCLICompare
import TransectImageCompare
import TransectSupport

/// `transect compare BASELINE CANDIDATE`: images (or two directories of them, paired by relative
/// path) judged against a tolerance by matplotlib's RMS and pixelmatch's perceptual count, with
/// diff images, JSON, an HTML report and `--update` to accept what changed.
enum CompareCommand {
    static func run(_ args: ParsedArguments, console: Console) throws -> Int32 {
        guard args.positionals.count == 2 else {
            throw CLIError.usage(
                args.positionals.count < 2 ? "give BASELINE and CANDIDATE (two images or two directories)" : "unexpected argument '\(args.positionals[2])'",
                command: "compare")
        }
        let baselineRoot = args.positionals[0]
        let candidateRoot = args.positionals[1]
        let tolerance = try CompareOptions.bounds(args)
        let threshold = try args.value(CompareOptions.threshold)
        let diffDirectory = try args.value(CompareOptions.diff)
        let jsonPath = try args.value(CompareOptions.json)
        let reportPath = try args.value(CompareOptions.report)
        let update = try args.value(CompareOptions.update)
        let maxPixels = try args.value(CompareOptions.maxPixels)
        let threads = try CommonOptions.threadCount(args)
        if let reportPath, !(reportPath.lowercased().hasSuffix(".html") || reportPath.lowercased().hasSuffix(".htm")) {
            throw CLIError.usage("option '--report': '\(reportPath.printable)' is not an .html file", command: "compare")
        }
        if let diffDirectory, OutputTransaction.existsAndIsNotDirectory(diffDirectory) {
            throw CLIError.usage("option '--diff': '\(diffDirectory.printable)' exists and is not a directory", command: "compare")
        }
        let pairs = try ComparePairs.pairs(baseline: baselineRoot, candidate: candidateRoot, command: "compare")
        var files = RunFiles()
        for pair in pairs {
            files.input("BASELINE", pair.baseline)
            files.input("CANDIDATE", pair.candidate)
        }
        files.output("--json", jsonPath)
        files.output("--report", reportPath)
        if let diffDirectory {
            for pair in pairs { files.output("--diff", diffPath(diffDirectory, pair.name)) }
        }
        try files.check(command: "compare")

        let transaction = OutputTransaction()
        var sections: [String: String] = [:]
        let judge = CompareRun(
            tolerance: tolerance, threshold: threshold, threads: threads, drawsDiff: diffDirectory != nil || reportPath != nil,
            readsOneSided: reportPath != nil, load: { path throws(CLIError) in try CompareInput.load(path, maxPixels: maxPixels) })
        let results = try judge.judge(pairs) { (result: inout CompareResult, images: ComparedImages) throws(CLIError) in
            if let diffDirectory, let diff = images.diff, let d = result.difference {
                let path = diffPath(diffDirectory, result.pair.name)
                try makeDirectories(for: path, below: diffDirectory, in: transaction)
                try transaction.writePNG(rgba: diff, width: d.width, height: d.height, to: path, threads: threads)
                result.diffPath = path
            }
            if reportPath != nil, !(result.difference?.identical ?? false) {
                sections[result.pair.name] = try CompareReport.section(result, images: images, tolerance: tolerance)
            }
        }

        var updated: [CompareResult] = []
        if update {
            updated = try CompareUpdate.stage(results, baselineRoot: baselineRoot, in: transaction)
        }
        let summary = CompareOutput(
            baseline: baselineRoot, candidate: candidateRoot, tolerance: tolerance, threshold: threshold, results: results, updated: updated)
        if let reportPath {
            let order = results.sorted(by: CompareResult.worseFirst)
            try transaction.write(CompareReport.page(summary, sections: order.compactMap { sections[$0.pair.name] }), to: reportPath)
        }
        if let jsonPath, jsonPath != "-" {
            try transaction.write(summary.json.serialized() + "\n", to: jsonPath)
        }
        try transaction.commit()
        if jsonPath == "-" {
            console.out(summary.json.serialized() + "\n")
        } else {
            console.out(summary.text)
        }
        let stillFailing = results.filter { !$0.passes }.count - updated.count
        return stillFailing == 0 ? 0 : 1
    }

    /// `DIR/sub/a.diff.png` for the pair `sub/a.png`.
    static func diffPath(_ directory: String, _ name: String) -> String {
        var stem = name
        if let dot = name.lastIndex(of: "."), !name[dot...].contains("/") { stem = String(name[..<dot]) }
        return ComparePairs.join(directory, stem + ".diff.png")
    }

    /// Makes `root` and every directory between it and `path` (through the transaction, which
    /// removes them again if the run fails).
    static func makeDirectories(for path: String, below root: String, in transaction: OutputTransaction) throws(CLIError) {
        try transaction.makeDirectory(root)
        let relative = path.dropFirst(ComparePairs.join(root, "").count)
        var current = root
        for part in relative.split(separator: "/").dropLast() {
            current = ComparePairs.join(current, String(part))
            try transaction.makeDirectory(current)
        }
    }
}
