import TransectCLIBase
import TransectImageCompare
import TransectSupport

/// What `compare` prints: a line per pair and a summary (text), or every figure (JSON).
package struct CompareOutput {
    package var baseline: String
    package var candidate: String
    package var tolerance: ComparisonTolerance
    package var threshold: Double
    package var results: [CompareResult]
    package var updated: [CompareResult]

    package init(
        baseline: String, candidate: String, tolerance: ComparisonTolerance, threshold: Double, results: [CompareResult], updated: [CompareResult]
    ) {
        self.baseline = baseline
        self.candidate = candidate
        self.tolerance = tolerance
        self.threshold = threshold
        self.results = results
        self.updated = updated
    }

    /// `rms=0`, `rms=2, pixels=0.1%`: the tolerance as `--tolerance` spells it.
    var toleranceText: String {
        var parts: [String] = []
        if let r = tolerance.rms { parts.append("rms=" + JSON.format(r)) }
        switch tolerance.pixels {
        case .count(let n)?: parts.append("pixels=\(n)")
        case .share(let s)?: parts.append("pixels=" + JSON.format(s * 100) + "%")
        case nil: break
        }
        return parts.joined(separator: ", ")
    }

    /// A share as a percentage with four decimals: `0.0771 %`.
    static func percent(_ share: Double) -> String { NumberFormatting.fixed(share * 100, decimals: 4) + " %" }

    package static func status(_ r: CompareResult) -> String {
        if let d = r.difference, d.identical { return "identical" }
        return r.passes ? "within" : "beyond"
    }

    /// What a result's line says after its name.
    package func figures(_ r: CompareResult) -> String {
        switch r.outcome {
        case .onlyBaseline: return "only in the baseline"
        case .onlyCandidate: return "only in the candidate"
        case .sizesDiffer(let b, let c): return "sizes differ: baseline \(b.width) × \(b.height), candidate \(c.width) × \(c.height)"
        case .compared(let d):
            var rms = "rms " + NumberFormatting.fixed(d.rms, decimals: 4)
            if !tolerance.rmsPasses(d), let bound = tolerance.rms { rms += " > " + JSON.format(bound) }
            var pixels = NumberFormatting.count(d.perceptualPixels, "pixel") + " differ (" + Self.percent(d.perceptualShare) + ")"
            if !tolerance.pixelsPass(d) {
                switch tolerance.pixels {
                case .count(let n)?: pixels += " > \(n)"
                case .share(let s)?: pixels += " > " + JSON.format(s * 100) + " %"
                case nil: break
                }
            }
            return "\(rms), \(pixels), \(NumberFormatting.count(d.antialiasedPixels, "anti-aliased pixel", plural: "anti-aliased"))"
        }
    }

    package var text: String {
        var out = ""
        for r in results {
            let status = Self.status(r)
            out += status.padded(to: 10) + r.pair.name
            out += status == "identical" ? "\n" : ": " + figures(r) + "\n"
        }
        for r in updated { out += "updated   \(r.pair.baseline ?? ComparePairs.join(baseline, r.pair.name))\n" }
        let identical = results.filter { Self.status($0) == "identical" }.count
        let beyond = results.filter { !$0.passes }.count
        let within = results.count - identical - beyond
        out += "\(NumberFormatting.count(results.count, "pair")): \(identical) identical, \(within) within tolerance, \(beyond) beyond"
        out += " (tolerance \(toleranceText), threshold \(JSON.format(threshold)))"
        if !updated.isEmpty { out += "; \(NumberFormatting.count(updated.count, "baseline")) updated" }
        return out + "\n"
    }

    package var json: JSON {
        var tol: [(String, JSON)] = [("rms", tolerance.rms.map { JSON.number($0) } ?? .null)]
        switch tolerance.pixels {
        case .count(let n)?: tol += [("pixels", .number(Double(n))), ("pixels_share", .null)]
        case .share(let s)?: tol += [("pixels", .null), ("pixels_share", .number(s))]
        case nil: tol += [("pixels", .null), ("pixels_share", .null)]
        }
        let pairs: [JSON] = results.map { r in
            var members: [(String, JSON)] = [
                ("path", .string(r.pair.name)),
                ("baseline", r.pair.baseline.map(JSON.string) ?? .null),
                ("candidate", r.pair.candidate.map(JSON.string) ?? .null),
                ("pass", .bool(r.passes)),
            ]
            switch r.outcome {
            case .onlyBaseline: members.append(("status", .string("only_baseline")))
            case .onlyCandidate: members.append(("status", .string("only_candidate")))
            case .sizesDiffer(let b, let c):
                members += [
                    ("status", .string("sizes_differ")),
                    ("baseline_size", .array([.number(Double(b.width)), .number(Double(b.height))])),
                    ("candidate_size", .array([.number(Double(c.width)), .number(Double(c.height))])),
                ]
            case .compared(let d):
                members += [
                    ("status", .string(Self.status(r))),
                    ("width", .number(Double(d.width))), ("height", .number(Double(d.height))), ("channels", .number(Double(d.channels))),
                    ("rms", .number(d.rms)), ("rms_pass", .bool(tolerance.rmsPasses(d))),
                    ("differing_pixels", .number(Double(d.differingPixels))),
                    ("perceptual_pixels", .number(Double(d.perceptualPixels))),
                    ("perceptual_share", .number(d.perceptualShare)),
                    ("antialiased_pixels", .number(Double(d.antialiasedPixels))),
                    ("pixels_pass", .bool(tolerance.pixelsPass(d))),
                    ("diff", r.diffPath.map(JSON.string) ?? .null),
                ]
            }
            return .object(members)
        }
        return .object([
            ("baseline", .string(baseline)), ("candidate", .string(candidate)),
            ("tolerance", .object(tol)), ("threshold", .number(threshold)),
            ("pairs", .array(pairs)),
            ("passed", .number(Double(results.filter(\.passes).count))),
            ("failed", .number(Double(results.filter { !$0.passes }.count))),
            ("updated", .array(updated.map { .string($0.pair.baseline ?? ComparePairs.join(baseline, $0.pair.name)) })),
        ])
    }
}
