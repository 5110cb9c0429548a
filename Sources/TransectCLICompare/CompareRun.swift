#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import TransectCLIBase
import TransectImageCompare
import TransectSupport

/// What `compare` found for one pair.
package struct CompareResult {
    package enum Outcome {
        case compared(ImageDifference)
        case onlyBaseline
        case onlyCandidate
        case sizesDiffer(baseline: (width: Int, height: Int), candidate: (width: Int, height: Int))
    }

    package var pair: ComparePair
    package var outcome: Outcome
    package var passes: Bool
    /// Where its diff image was written (`--diff`), if it was.
    package var diffPath: String?

    package init(pair: ComparePair, outcome: Outcome, passes: Bool, diffPath: String? = nil) {
        self.pair = pair
        self.outcome = outcome
        self.passes = passes
        self.diffPath = diffPath
    }

    package var difference: ImageDifference? {
        if case .compared(let d) = outcome { return d }
        return nil
    }

    /// Worst first: failures before passes; among them, one-sided and size failures first, then
    /// by the share of counted pixels, then by RMS; ties by name.
    package static func worseFirst(_ a: CompareResult, _ b: CompareResult) -> Bool {
        func key(_ r: CompareResult) -> (Int, Double, Double) {
            guard let d = r.difference else { return (r.passes ? 2 : 0, 0, 0) }
            return (r.passes ? 2 : 1, -d.perceptualShare, -d.rms)
        }
        let (ka, kb) = (key(a), key(b))
        if ka != kb { return ka < kb }
        return a.pair.name < b.pair.name
    }
}

/// The decoded images of a pair, handed to the caller's outputs while the pair is judged.
package struct ComparedImages {
    package var baseline: RGBAImage?
    package var candidate: RGBAImage?
    package var diff: [UInt8]?
}

/// The judging of every pair, which both command-line libraries run: each pair's two images read
/// at once on two threads, compared in one pass on `threads` threads, judged.
package struct CompareRun {
    /// Reads one image (a PNG here; GDAL's rasters too in the full command line).
    package typealias Loader = @Sendable (_ path: String) throws(CLIError) -> RGBAImage

    package var tolerance: ComparisonTolerance
    package var threshold: Double
    package var threads: Int
    /// Draw the diff image of every pair that is not identical.
    package var drawsDiff: Bool
    /// Read the image of a one-sided pair too (for a report).
    package var readsOneSided: Bool
    package var load: Loader

    package init(tolerance: ComparisonTolerance, threshold: Double, threads: Int, drawsDiff: Bool, readsOneSided: Bool, load: @escaping Loader) {
        self.tolerance = tolerance
        self.threshold = threshold
        self.threads = threads
        self.drawsDiff = drawsDiff
        self.readsOneSided = readsOneSided
        self.load = load
    }

    /// The results of `pairs` in order; `each` sees every result with its images (those that
    /// were read) as it is made, and may record outputs in it.
    package func judge(
        _ pairs: [ComparePair], each: (inout CompareResult, ComparedImages) throws(CLIError) -> Void = { _, _ in }
    ) throws(CLIError) -> [CompareResult] {
        let loop = stripedParallelLoop(threads: threads)
        var results: [CompareResult] = []
        for pair in pairs {
            var result: CompareResult
            var images = ComparedImages()
            switch (pair.baseline, pair.candidate) {
            case (let b?, let c?):
                let load = self.load
                let loaded = ParallelFill.array(count: 2, chunk: 1, parallel: loop) { k in
                    Result(catching: { () throws(CLIError) -> RGBAImage in try load(k == 0 ? b : c) })
                }
                let baseline = try loaded[0].get()
                let candidate = try loaded[1].get()
                images = ComparedImages(baseline: baseline, candidate: candidate)
                if baseline.width != candidate.width || baseline.height != candidate.height {
                    let sizes = CompareResult.Outcome.sizesDiffer(
                        baseline: (baseline.width, baseline.height), candidate: (candidate.width, candidate.height))
                    result = CompareResult(pair: pair, outcome: sizes, passes: false)
                } else {
                    let (difference, diff) = ImageComparison.compare(
                        baseline, candidate, threshold: threshold, drawsDiff: drawsDiff, parallel: loop)
                    result = CompareResult(pair: pair, outcome: .compared(difference), passes: tolerance.passes(difference))
                    images.diff = difference.identical ? nil : diff
                }
            case (let b?, nil):
                result = CompareResult(pair: pair, outcome: .onlyBaseline, passes: false)
                if readsOneSided { images.baseline = try load(b) }
            case (nil, let c?):
                result = CompareResult(pair: pair, outcome: .onlyCandidate, passes: false)
                if readsOneSided { images.candidate = try load(c) }
            case (nil, nil):
                continue
            }
            try each(&result, images)
            results.append(result)
        }
        return results
    }
}
