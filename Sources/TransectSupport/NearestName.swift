/// "Did you mean …?": the known name closest to a mistyped one, for options, subcommands and
/// scene keys.
public enum NearestName {
    /// The name of `candidates` nearest to `given` by edit distance (insertions, deletions,
    /// substitutions and swaps of neighbours, each counting 1, letters compared without case),
    /// when it is near enough to be a slip: at most 1 edit for names of up to 6 letters, 2 for
    /// longer ones, and never the whole name (`--chart` is not a slip for `--shard`). Nil when none is; ties go to the first candidate.
    ///
    /// Example: `NearestName.suggestion(for: "sise", among: ["size", "scene"])` is `size`.
    /// Complexity: O(n · m) per candidate for names of n and m letters; names longer than 64
    /// letters are never matched, so no input makes it expensive.
    public static func suggestion(for given: String, among candidates: some Sequence<String>) -> String? {
        let a = Array(given.lowercased().unicodeScalars)
        guard !a.isEmpty, a.count <= 64 else { return nil }
        let allowed = a.count <= 6 ? 1 : 2
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let b = Array(candidate.lowercased().unicodeScalars)
            guard b.count <= 64, abs(b.count - a.count) <= allowed, b != a else { continue }
            let d = distance(a, b)
            if d <= allowed, d < min(a.count, b.count), d < (best?.distance ?? .max) { best = (candidate, d) }
        }
        return best?.name
    }

    /// `" (did you mean '\(prefix)\(name)'?)"`, or the empty string when no name is near.
    public static func hint(for given: String, among candidates: some Sequence<String>, prefix: String = "") -> String {
        suggestion(for: given, among: candidates).map { "; did you mean '\(prefix)\($0)'?" } ?? ""
    }

    /// The optimal string alignment distance between `a` and `b`.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...max(a.count, 1) where i <= a.count {
            current[0] = i
            for j in 1...max(b.count, 1) where j <= b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
