import TransectCLIBase
import TransectImageCompare
import TransectSupport

/// One `--tolerance METRIC=VALUE`: a bound on one metric.
package enum ToleranceSetting: Sendable, Equatable {
    case rms(Double)
    case pixels(ComparisonTolerance.PixelLimit)

    /// `rms=2`, `pixels=25` or `pixels=0.1%`.
    package static func parse(_ text: String, _ args: ParsedArguments) throws(CLIError) -> ToleranceSetting {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw Option<ToleranceSetting>.refuse("tolerance", "'\(text.printable)' is not METRIC=VALUE (rms=2, pixels=25 or pixels=0.1%)", args)
        }
        let value = String(parts[1]).trimmingAsciiSpaces
        switch String(parts[0]).trimmingAsciiSpaces {
        case "rms":
            guard let v = NumberText.double(value), v >= 0, v <= 255 else {
                throw Option<ToleranceSetting>.refuse("tolerance", "rms '\(value.printable)' is not a number from 0 to 255", args)
            }
            return .rms(v)
        case "pixels":
            if value.hasSuffix("%") {
                guard let p = NumberText.double(String(value.dropLast()).trimmingAsciiSpaces), p >= 0, p <= 100 else {
                    throw Option<ToleranceSetting>.refuse("tolerance", "pixels '\(value.printable)' is not a percentage from 0% to 100%", args)
                }
                return .pixels(.share(p / 100))
            }
            guard let n = NumberText.integer(value), n >= 0 else {
                throw Option<ToleranceSetting>.refuse("tolerance", "pixels '\(value.printable)' is not a whole number of pixels (or a percentage, 0.1%)", args)
            }
            return .pixels(.count(n))
        default:
            throw Option<ToleranceSetting>.refuse("tolerance", "unknown metric '\(String(parts[0]).printable)' (rms or pixels)", args)
        }
    }
}

/// The options of `transect compare`, each declared once.
package enum CompareOptions {
    package static let tolerance = Option<ToleranceSetting>(
        spec: OptionSpec(
            name: "tolerance", valueName: "METRIC=VALUE",
            help:
                "A bound a pair must keep to pass: rms=R (the RMS over 0–255), pixels=N (pixels counted as different) or pixels=P% (their share of the image); repeatable, one per metric. Without it a pair passes only when identical (rms=0); with it, only the metrics given are judged.",
            defaultText: "rms=0", kind: .repeatable),
        defaultValue: { args throws(CLIError) in throw Option<ToleranceSetting>.refuse("tolerance", "has no single value", args) },
        parse: { text, args throws(CLIError) in try ToleranceSetting.parse(text, args) })
    package static let threshold = Option.number(
        "threshold", value: "T",
        help:
            "The YIQ colour distance, as a share of the largest (black against white), beyond which a pixel counts as different (pixelmatch's threshold); anti-aliased pixels are never counted.",
        in: 0...1, default: 0.1)
    package static let diff = Option.text(
        "diff", value: "DIR",
        help:
            "Write a diff image for each pair that is not identical to DIR/PATH.diff.png: counted differences red, anti-aliasing yellow, smaller differences pink, over the baseline faded to grey."
    )
    package static let json = Option.text(
        "json", value: "FILE|-", help: "Write every pair's figures as JSON to FILE, or to stdout (instead of the text) with -.")
    package static let report = Option.text(
        "report", value: "FILE.html",
        help: "Write one self-contained HTML page (images inlined): each pair that differs with its baseline, candidate and diff side by side, worst first.")
    package static let update = Option.flag(
        "update", help: "Copy each candidate that fails over its baseline (those only in CANDIDATE too), all at once and atomically, and list them.")
    package static let maxPixels = Option.integer(
        "max-pixels", help: "The most pixels an image may have; a larger one is refused before it is decoded.", in: 1...1_073_741_824,
        default: 100_000_000)

    package static let all: [OptionSpec] = [
        tolerance.spec, threshold.spec, diff.spec, json.spec, report.spec, update.spec, maxPixels.spec, CommonOptions.threads.spec,
        CommonOptions.help.spec,
    ]

    /// The tolerance the `--tolerance` values make, or RMS 0 without any; a metric given twice
    /// is a usage error.
    package static func bounds(_ args: ParsedArguments) throws(CLIError) -> ComparisonTolerance {
        let settings = try args.values(tolerance)
        guard !settings.isEmpty else { return .identical }
        var result = ComparisonTolerance()
        for setting in settings {
            switch setting {
            case .rms(let r):
                guard result.rms == nil else { throw Option<ToleranceSetting>.refuse("tolerance", "rms is given twice", args) }
                result.rms = r
            case .pixels(let p):
                guard result.pixels == nil else { throw Option<ToleranceSetting>.refuse("tolerance", "pixels is given twice", args) }
                result.pixels = p
            }
        }
        return result
    }
}
