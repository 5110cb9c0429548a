#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectGDAL
import TransectImageCompare
import TransectSupport

/// What `compare` found for one pair.
struct CompareResult {
    enum Outcome {
        case compared(ImageDifference)
        case onlyBaseline
        case onlyCandidate
        case sizesDiffer(baseline: (width: Int, height: Int), candidate: (width: Int, height: Int))
    }

    var pair: ComparePair
    var outcome: Outcome
    var passes: Bool
    /// Where its diff image was written (`--diff`), if it was.
    var diffPath: String?

    var difference: ImageDifference? {
        if case .compared(let d) = outcome { return d }
        return nil
    }

    /// Worst first: failures before passes; among them, one-sided and size failures first, then
    /// by the share of counted pixels, then by RMS; ties by name.
    static func worseFirst(_ a: CompareResult, _ b: CompareResult) -> Bool {
        func key(_ r: CompareResult) -> (Int, Double, Double) {
            guard let d = r.difference else { return (r.passes ? 2 : 0, 0, 0) }
            return (r.passes ? 2 : 1, -d.perceptualShare, -d.rms)
        }
        let (ka, kb) = (key(a), key(b))
        if ka != kb { return ka < kb }
        return a.pair.name < b.pair.name
    }
}

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

        let loop = OrderedWorkers.parallelLoop(threads: threads)
        let transaction = OutputTransaction()
        var results: [CompareResult] = []
        var sections: [Int: String] = [:]
        for pair in pairs {
            var result: CompareResult
            var images: ComparedImages? = nil
            switch (pair.baseline, pair.candidate) {
            case (let b?, let c?):
                let loaded = ParallelFill.array(count: 2, chunk: 1, parallel: loop) { k in
                    Result(catching: { () throws(CLIError) -> RGBAImage in try CompareInput.load(k == 0 ? b : c, maxPixels: maxPixels) })
                }
                let baseline = try loaded[0].get()
                let candidate = try loaded[1].get()
                guard baseline.width == candidate.width && baseline.height == candidate.height else {
                    result = CompareResult(
                        pair: pair,
                        outcome: .sizesDiffer(baseline: (baseline.width, baseline.height), candidate: (candidate.width, candidate.height)),
                        passes: false)
                    images = ComparedImages(baseline: baseline, candidate: candidate, diff: nil)
                    break
                }
                let drawsDiff = diffDirectory != nil || reportPath != nil
                let (difference, diff) = ImageComparison.compare(baseline, candidate, threshold: threshold, drawsDiff: drawsDiff, parallel: loop)
                result = CompareResult(pair: pair, outcome: .compared(difference), passes: tolerance.passes(difference))
                if !difference.identical {
                    images = ComparedImages(baseline: baseline, candidate: candidate, diff: diff)
                    if let diffDirectory, let diff {
                        let path = diffPath(diffDirectory, pair.name)
                        try makeDirectories(for: path, below: diffDirectory, in: transaction)
                        try transaction.writePNG(rgba: diff, width: difference.width, height: difference.height, to: path, threads: threads)
                        result.diffPath = path
                    }
                }
            case (let b?, nil):
                result = CompareResult(pair: pair, outcome: .onlyBaseline, passes: false)
                if reportPath != nil { images = ComparedImages(baseline: try CompareInput.load(b, maxPixels: maxPixels), candidate: nil, diff: nil) }
            case (nil, let c?):
                result = CompareResult(pair: pair, outcome: .onlyCandidate, passes: false)
                if reportPath != nil { images = ComparedImages(baseline: nil, candidate: try CompareInput.load(c, maxPixels: maxPixels), diff: nil) }
            case (nil, nil):
                continue
            }
            if reportPath != nil, let images {
                sections[results.count] = try CompareReport.section(result, images: images, tolerance: tolerance)
            }
            results.append(result)
        }

        var updated: [CompareResult] = []
        if update {
            updated = try CompareUpdate.stage(results, baselineRoot: baselineRoot, in: transaction)
        }
        let summary = CompareOutput(
            baseline: baselineRoot, candidate: candidateRoot, tolerance: tolerance, threshold: threshold, results: results, updated: updated)
        if let reportPath {
            let order = results.indices.sorted { CompareResult.worseFirst(results[$0], results[$1]) }
            try transaction.write(CompareReport.page(summary, sections: order.compactMap { sections[$0] }), to: reportPath)
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

    /// The decoded images of a pair, kept for the report while the pair is written.
    struct ComparedImages {
        var baseline: RGBAImage?
        var candidate: RGBAImage?
        var diff: [UInt8]?
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
