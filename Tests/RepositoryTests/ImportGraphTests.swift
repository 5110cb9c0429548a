import Foundation
import Testing
import TransectTestSupport

/// ARCHITECTURE.md draws the import graph once; `Package.swift` states it to the compiler. These
/// tests hold the two together, and hold every library to a test target of its name.
@Suite("the import graph: ARCHITECTURE.md and Package.swift")
struct ImportGraphTests {
    /// A target of `Package.swift`: its kind (`target`, `testTarget`, …), name and dependencies.
    struct Target: Equatable {
        var kind: String
        var name: String
        var dependencies: [String]
    }

    /// The targets `Package.swift` declares, read from its text: each `.target(`,
    /// `.executableTarget(`, `.testTarget(` or `.systemLibrary(` with its `name:` and the names
    /// in its `dependencies: [ … ]` (which are plain strings in our manifest).
    static func packageTargets(_ text: String) -> [Target] {
        let start = try! Regex(#"\.(target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"([\w-]+)""#)
        let matches = text.matches(of: start)
        var targets: [Target] = []
        for (k, match) in matches.enumerated() {
            let end = k + 1 < matches.count ? matches[k + 1].range.lowerBound : text.endIndex
            let body = text[match.range.upperBound..<end]
            var dependencies: [String] = []
            if let list = body.firstMatch(of: try! Regex(#"dependencies:\s*\[([^\]]*)\]"#)), let inner = list.output[1].substring {
                dependencies = inner.matches(of: try! Regex(#""([\w-]+)""#)).compactMap { $0.output[1].substring.map(String.init) }
            }
            let kind = match.output[1].substring.map(String.init) ?? ""
            let name = match.output[2].substring.map(String.init) ?? ""
            targets.append(Target(kind: kind, name: name, dependencies: dependencies))
        }
        return targets
    }

    /// The graph ARCHITECTURE.md draws: the `text` block under "## The import graph", one
    /// `Target → A, B` line a target.
    static func drawnGraph(_ text: String) -> [String: [String]]? {
        guard let section = text.range(of: "## The import graph") else { return nil }
        let rest = text[section.upperBound...]
        guard let open = rest.range(of: "```text\n"), let close = rest[open.upperBound...].range(of: "```") else { return nil }
        var graph: [String: [String]] = [:]
        for line in rest[open.upperBound..<close.lowerBound].split(separator: "\n") {
            let sides = line.split(separator: "→", maxSplits: 1)
            guard sides.count == 2 else { continue }
            let name = sides[0].trimmingCharacters(in: .whitespaces)
            graph[name] = sides[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        return graph
    }

    static let root = SharedData.packageRoot
    static func read(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
    }

    /// The targets the graph is about: ours (`Transect…`, `transect…`) that are neither tests
    /// nor test support.
    static func drawn(_ target: Target) -> Bool {
        (target.name.hasPrefix("Transect") || target.name.hasPrefix("transect")) && target.kind != "testTarget"
            && !target.name.hasSuffix("TestSupport")
    }

    @Test("every target of ours in Package.swift has the dependencies ARCHITECTURE.md draws, and the drawing names no other")
    func packageMatchesDrawing() throws {
        let targets = Self.packageTargets(try Self.read("Package.swift")).filter(Self.drawn)
        let graph = try #require(Self.drawnGraph(try Self.read("ARCHITECTURE.md")), "ARCHITECTURE.md has no ```text block under '## The import graph'")
        #expect(targets.count >= 12, "read only \(targets.map(\.name)) from Package.swift")
        for target in targets {
            guard let drawnDependencies = graph[target.name] else {
                Issue.record("ARCHITECTURE.md's import graph does not draw \(target.name) (Package.swift: \(target.dependencies))")
                continue
            }
            #expect(
                Set(drawnDependencies) == Set(target.dependencies),
                "\(target.name): Package.swift says \(target.dependencies.sorted()), ARCHITECTURE.md draws \(drawnDependencies.sorted())")
        }
        let declared = Set(targets.map(\.name))
        for name in graph.keys.sorted() where !declared.contains(name) {
            Issue.record("ARCHITECTURE.md's import graph draws \(name), which Package.swift does not declare")
        }
    }

    @Test("the pure modules keep to their places: Support sees nothing of ours; Geodesy, Raster and Perspective do not see Analysis")
    func pureModulesKeepTheirPlaces() throws {
        let targets = Dictionary(uniqueKeysWithValues: Self.packageTargets(try Self.read("Package.swift")).map { ($0.name, $0) })
        let support = try #require(targets["TransectSupport"])
        #expect(support.dependencies.allSatisfy { !$0.hasPrefix("Transect") }, "\(support.dependencies)")
        for name in ["TransectGeodesy", "TransectRaster", "TransectPerspective"] {
            let target = try #require(targets[name])
            #expect(!target.dependencies.contains("TransectAnalysis"), "\(name): \(target.dependencies)")
        }
        #expect(targets["TransectCore"] == nil, "TransectCore is back")
    }

    @Test("every library target has a test target of its name")
    func testTargetPerLibrary() throws {
        let targets = Self.packageTargets(try Self.read("Package.swift"))
        let tests = Set(targets.filter { $0.kind == "testTarget" }.map(\.name))
        let libraries = targets.filter { $0.kind == "target" && $0.name.hasPrefix("Transect") && !$0.name.hasSuffix("TestSupport") }
        #expect(libraries.count >= 12, "\(libraries.map(\.name))")
        for library in libraries {
            #expect(tests.contains(library.name + "Tests"), "\(library.name) has no test target \(library.name)Tests")
        }
    }

    @Test("the reader of Package.swift sees what it should: a drawing that differs is caught")
    func readerCatchesDrift() {
        let manifest = #"""
            .target(name: "TransectSupport", dependencies: ["CKernelHints"]),
            .target(
                name: "TransectGeodesy",
                dependencies: [
                    "TransectSupport",
                ]),
            .testTarget(name: "TransectGeodesyTests", dependencies: ["TransectGeodesy"]),
            """#
        let targets = Self.packageTargets(manifest)
        #expect(targets.map(\.name) == ["TransectSupport", "TransectGeodesy", "TransectGeodesyTests"])
        #expect(targets[1].dependencies == ["TransectSupport"])
        let graph = Self.drawnGraph(
            "## The import graph\n\n```text\nTransectSupport → CKernelHints\nTransectGeodesy → TransectSupport, TransectAnalysis\n```\n")
        #expect(graph?["TransectSupport"] == ["CKernelHints"])
        #expect(Set(graph?["TransectGeodesy"] ?? []) != Set(targets[1].dependencies))
    }
}
