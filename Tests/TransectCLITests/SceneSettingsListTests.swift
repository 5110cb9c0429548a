import Foundation
import Testing
@testable import TransectCLI

/// The hostile corpus test (TransectFormatsTests) and the scene fuzzer cannot import the command
/// line, so each holds a copy of the settings a scene may give: these tests keep the copies equal
/// to ``RenderOptions/sceneSettings``.
@Suite("copies of render's scene settings")
struct SceneSettingsListTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The string literals of the array literal that follows `declaration` in `file`.
    static func literals(in file: String, after declaration: String) throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        let start = try #require(text.range(of: declaration), "\(file) has no \(declaration)")
        let end = try #require(text[start.upperBound...].firstIndex(of: "]"))
        return text[start.upperBound..<end].split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
            .map { String($0.element) }
    }

    static var names: [String] { RenderOptions.sceneSettings.map(\.name) }
    static var flags: [String] { RenderOptions.sceneSettings.filter { !$0.takesValue }.map(\.name) }

    @Test("HostileCorpusTests lists the scene settings and flags as RenderOptions.sceneSettings does, in its order")
    func hostileCorpus() throws {
        let file = "Tests/TransectFormatsTests/HostileCorpusTests.swift"
        #expect(try Self.literals(in: file, after: "static let knownOptions: [String] = [") == Self.names)
        #expect(try Self.literals(in: file, after: "static let flags: [String] = [") == Self.flags)
    }

    @Test("the scene fuzzer takes the same settings and flags")
    func fuzzer() throws {
        let file = "Fuzz/scene.swift"
        #expect(try Set(Self.literals(in: file, after: "private let knownOptions: Set<String> = [")) == Set(Self.names))
        #expect(try Set(Self.literals(in: file, after: "private let flags: Set<String> = [")) == Set(Self.flags))
    }
}
