import TransectGeodesy
import TransectSupport

/// The curvature and refraction of sight lines, one parameter however it is spelt: `profile`,
/// `view` and `viewshed` lower terrain at distance d by cc·d²/(2R), with the curvature
/// coefficient cc = 1 − k for the refraction coefficient k. `--curvature C` gives cc (as
/// `gdal_viewshed -cc` does), `--refraction K` gives k; the default is cc = 0.85714 (k = 0.14286,
/// about 1/7), ``EarthCurvature/defaultCurvatureCoefficient``.
package enum SightLineOptions {
    package static let curvature = Option<Double?>.number(
        "curvature", value: "C",
        help: "Curvature coefficient cc: terrain at distance d is lowered by cc·d²/(2R) (1 = curvature only, 0 = flat earth; default 0.85714).",
        in: InputLimits.curvature)
    package static let refraction = Option<Double?>.number(
        "refraction", value: "K", help: "Refraction coefficient k, the same parameter as --curvature 1 − k (default 0.14286).",
        in: (1 - InputLimits.curvature.upperBound)...(1 - InputLimits.curvature.lowerBound))

    /// The curvature coefficient the command line gives: `--curvature`, or 1 − `--refraction`,
    /// or the default; both given is a usage error.
    package static func coefficient(_ args: ParsedArguments) throws(CLIError) -> Double {
        let c = try args.value(curvature)
        let k = try args.value(refraction)
        if c != nil && k != nil {
            throw .usage("give --curvature C or --refraction K (C = 1 − K), not both", command: args.command)
        }
        return c ?? k.map { 1 - $0 } ?? EarthCurvature.defaultCurvatureCoefficient
    }
}
