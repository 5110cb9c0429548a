import Foundation
import Testing
import TransectTestSupport

/// Every tolerance in the tests says why it is that size, as GeographicLib's tests name the case
/// that forced each of theirs: the printed precision, the oracle's own accuracy, an ulp bound.
///
/// What counts as a tolerance, in a line's code (its text with string literals blanked and
/// anything from `//` removed):
/// - `<` or `<=`, optional spaces, then a decimal literal with a negative exponent:
///   `< 1e-9`, `<= 0.5e-5`, `< 48e-9`, `<= 1_0e-3`;
/// - the argument label `tolerance:` followed by a value.
///
/// Such a line carries its reason when the line itself has a `//` comment, or when the line
/// directly above it is a `//` comment. Bounds that are not literals in scientific notation
/// (`< 0.01`, `<= 2 * x.ulp`) are not found by this scan; they are annotated by hand.
enum ToleranceScan {
    /// A comparison against a literal with a negative exponent.
    static var comparison: Regex<(Substring, Substring?)> { /<=?\s*[0-9][0-9_]*(\.[0-9_]+)?[eE]-[0-9]+/ }
    /// A `tolerance:` argument with a value.
    static var argument: Regex<Substring> { /\btolerance:\s*[^\s)]/ }

    /// The line with its one-line string literals blanked (`"…"` becomes `""`), so that text in
    /// messages is neither a tolerance nor a comment.
    static func blankingStrings(_ line: Substring) -> String {
        var out = ""
        var inString = false
        var escaped = false
        for c in line {
            if inString {
                if escaped {
                    escaped = false
                } else if c == "\\" {
                    escaped = true
                } else if c == "\"" {
                    inString = false
                    out.append(c)
                }
            } else {
                out.append(c)
                if c == "\"" { inString = true }
            }
        }
        return out
    }

    /// One-based numbers of the lines of `text` with a tolerance and no reason beside or above.
    static func unexplained(in text: String) -> [Int] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var found: [Int] = []
        for (k, line) in lines.enumerated() {
            let blanked = blankingStrings(line)
            let commentStart = blanked.range(of: "//")
            let code = commentStart.map { String(blanked[..<$0.lowerBound]) } ?? blanked
            guard code.contains(comparison) || code.contains(argument) else { continue }
            let commentAbove = k > 0 && lines[k - 1].trimmingCharacters(in: .whitespaces).hasPrefix("//")
            if commentStart == nil && !commentAbove { found.append(k + 1) }
        }
        return found
    }

    /// Every `.swift` file under `Tests`, relative to the package root, sorted.
    static func testFiles() throws -> [String] {
        let root = SharedData.packageRoot.appendingPathComponent("Tests")
        let names = try FileManager.default.subpathsOfDirectory(atPath: root.path)
        return names.filter { $0.hasSuffix(".swift") }.sorted().map { "Tests/" + $0 }
    }
}

@Suite("Tolerances in the tests carry their reasons")
struct ToleranceReasonTests {
    @Test("every tolerance literal in Tests/**/*.swift has a comment on its line or the line above")
    func everyToleranceHasItsReason() throws {
        let files = try ToleranceScan.testFiles()
        #expect(files.count > 100, "found only \(files.count) test files")
        var missing: [String] = []
        for file in files {
            let text = try String(contentsOf: SharedData.packageRoot.appendingPathComponent(file), encoding: .utf8)
            missing += ToleranceScan.unexplained(in: text).map { "\(file):\($0)" }
        }
        #expect(missing.isEmpty, "tolerances without a reason (a comment on the line or the line above):\n\(missing.joined(separator: "\n"))")
    }

    /// The scan itself: lines built here, so this file holds no tolerance of its own.
    @Test("the scan finds a bare tolerance and accepts one with a reason")
    func scanFindsAndAccepts() {
        let bound = "1" + "e-9"
        let text = [
            "#expect(abs(a - b) < \(bound))",
            "// Half a unit of the ninth decimal.",
            "#expect(abs(a - b) <= \(bound))",
            "#expect(abs(a - b) < 0.5\("e-5"))  // GeodSolve prints five decimals",
            "f(x, tolerance: 0)",
            "#expect(x == y, \"not < \(bound)\")",
            "let n = 48" + "e-9 < x",
        ].joined(separator: "\n")
        #expect(ToleranceScan.unexplained(in: text) == [1, 5])
    }
}
