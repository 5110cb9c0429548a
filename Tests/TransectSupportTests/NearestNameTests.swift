import Testing
import TransectSupport

@Suite("NearestName: did you mean")
struct NearestNameTests {
    @Test(
        "a slip of one or two edits finds the name; a name too far, the same name or an empty one finds none",
        arguments: [
            ("sise", ["size", "scene", "shard"], "size"), ("form", ["from", "to"], "from"), ("mesure", ["measure", "merge"], "measure"),
            ("rendr", ["render", "view"], "render"), ("tile", ["title", "tint"], "title"), ("SIZE", ["size"], nil),
            ("size", ["size"], nil), ("x", ["y"], nil), ("", ["a"], nil), ("banana", ["size", "scene"], nil),
            ("interpolaton", ["interpolation"], "interpolation"),
        ] as [(String, [String], String?)])
    func suggestion(given: String, candidates: [String], expected: String?) {
        #expect(NearestName.suggestion(for: given, among: candidates) == expected)
    }

    @Test("a transposition counts as one edit")
    func transposition() {
        #expect(NearestName.suggestion(for: "szie", among: ["size"]) == "size")
        #expect(NearestName.hint(for: "mrege", among: ["merge"]) == "; did you mean 'merge'?")
        #expect(NearestName.hint(for: "qqqq", among: ["merge"]).isEmpty)
    }
}
