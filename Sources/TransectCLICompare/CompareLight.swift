import TransectCLIBase
import TransectSupport

/// The compare a CI step runs most: PNGs (two, or two directories of them) judged, the verdict
/// on stdout (text, or `--json -`), nothing written. It runs here, without GDAL, cairo or
/// Foundation, which would take longer to load than the comparison takes. Everything else
/// (help, outputs, `--update`, an input that is not a PNG, and any error, so that the one
/// full command line words it) is handed on untouched.
package enum CompareLight {
    /// The exit code, or ``CompareEntry/notHandled`` having printed nothing.
    package static func main(_ arguments: [String]) -> Int32 {
        guard arguments.count >= 2, arguments[1] == "compare" else { return CompareEntry.notHandled }
        let console = Console.standard()
        guard let code = run(Array(arguments.dropFirst(2)), console: console) else { return CompareEntry.notHandled }
        console.flush()
        return code
    }

    /// What `compare ARGUMENTS` prints to `console` and returns, or nil (having printed nothing)
    /// when this library does not run it.
    package static func run(_ arguments: [String], console: Console) -> Int32? {
        do throws(CLIError) {
            let args = try ParsedArguments(arguments, specs: CompareOptions.all, command: "compare")
            let json = try args.value(CompareOptions.json)
            guard args.positionals.count == 2, !args.has(CommonOptions.help), !args.has(CompareOptions.diff), !args.has(CompareOptions.report),
                !args.has(CompareOptions.update), json == nil || json == "-"
            else { return nil }
            let tolerance = try CompareOptions.bounds(args)
            let maxPixels = try args.value(CompareOptions.maxPixels)
            let pairs = try ComparePairs.pairs(baseline: args.positionals[0], candidate: args.positionals[1], command: "compare")
            for pair in pairs {
                for path in [pair.baseline, pair.candidate].compactMap({ $0 }) where !(try PNGInput.isPNG(path)) { return nil }
            }
            let judge = CompareRun(
                tolerance: tolerance, threshold: try args.value(CompareOptions.threshold), threads: try CommonOptions.threadCount(args),
                drawsDiff: false, readsOneSided: false, load: { path throws(CLIError) in try PNGInput.load(path, maxPixels: maxPixels) })
            let results = try judge.judge(pairs)
            let output = CompareOutput(
                baseline: args.positionals[0], candidate: args.positionals[1], tolerance: tolerance, threshold: judge.threshold, results: results,
                updated: [])
            console.out(json == "-" ? output.json.serialized() + "\n" : output.text)
            return results.allSatisfy(\.passes) ? 0 : 1
        } catch {
            return nil
        }
    }
}
