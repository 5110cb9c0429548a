import Foundation
import Testing
import TransectTestSupport

/// Every ```console block of README.md, run: each `$ ` line (with its `\` continuations) is a
/// command for bash, with `transect` the built launcher, and the lines after it, up to the next
/// `$ `, are what it prints: its stdout, then its stderr. It exits 0 unless the README shows an
/// `Error: ` line under it. The blocks run in a scratch copy of the repository's layout (a copy
/// of `data/`, `../shared` beside it, the few files the examples name), so nothing is written
/// into the repository and paths print as the README shows them.
@Suite("README.md's console blocks print what the README shows")
struct ReadmeConsoleTests {
    /// One command of a block and the output the README shows for it.
    struct Step: Sendable, CustomStringConvertible {
        var command: String
        var expected: String
        var description: String { command }
    }

    /// A console block: where it starts in README.md and its steps.
    struct Block: Sendable, CustomStringConvertible {
        var line: Int
        var steps: [Step]
        var description: String { "README.md:\(line): \(steps.first?.command.prefix(60) ?? "")" }
    }

    static let readme = SharedData.packageRoot.appendingPathComponent("README.md")

    /// The console blocks of `text`, in order.
    static func blocks(_ text: String) -> [Block] {
        var blocks: [Block] = []
        var current: Block?
        var pendingContinuation = false
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if current == nil {
                if line == "```console" { current = Block(line: index + 1, steps: []) }
                continue
            }
            if line == "```" {
                blocks.append(current!)
                current = nil
                continue
            }
            if pendingContinuation {
                current!.steps[current!.steps.count - 1].command += "\n" + line
                pendingContinuation = line.hasSuffix("\\")
            } else if line.hasPrefix("$ ") {
                current!.steps.append(Step(command: String(line.dropFirst(2)), expected: ""))
                pendingContinuation = line.hasSuffix("\\")
            } else if !current!.steps.isEmpty {
                current!.steps[current!.steps.count - 1].expected += line + "\n"
            }
        }
        return blocks
    }

    static let allBlocks: [Block] = blocks((try? String(contentsOf: readme, encoding: .utf8)) ?? "")

    /// The files the README's examples name beyond the repository's own: a DEM and a pairs
    /// file for the shard example, a list of two small scenes for the scene shards.
    static func makeFixtures(in root: URL, shared: URL) throws {
        let fm = FileManager.default
        let repo = root.appendingPathComponent("repo")
        try fm.createDirectory(at: repo.appendingPathComponent("figures"), withIntermediateDirectories: true)
        try fm.createDirectory(at: repo.appendingPathComponent("renders"), withIntermediateDirectories: true)
        try fm.copyItem(at: SharedData.packageRoot.appendingPathComponent("data"), to: repo.appendingPathComponent("data"))
        try fm.createSymbolicLink(at: root.appendingPathComponent("shared"), withDestinationURL: shared.deletingLastPathComponent())
        try fm.createSymbolicLink(
            at: repo.appendingPathComponent("dem.tif"), withDestinationURL: shared.appendingPathComponent("yosemite_valley_ned1as.tif"))
        try """
        id,from_lon,from_lat,to_lon,to_lat
        half-dome-glacier-point,-119.5329397,37.7460363,-119.573611,37.729722
        el-capitan-sentinel-dome,-119.63583,37.74222,-119.584304967,37.723094928
        clouds-rest-half-dome,-119.489226925,37.767853889,-119.5329397,37.7460363
        sentinel-dome-glacier-point,-119.584304967,37.723094928,-119.573611,37.729722
        """.appending("\n").write(to: repo.appendingPathComponent("pairs.csv"), atomically: true, encoding: .utf8)
        try "# report figures\nvalley.scene.json\nfigures/half-dome.scene.json\n".write(
            to: repo.appendingPathComponent("figures.txt"), atomically: true, encoding: .utf8)
        try """
        {"dem": ["../shared/data/yosemite_valley_ned1as.tif"], "size": "400x250", "decorations": "none", "out": "valley.png"}
        """.write(to: repo.appendingPathComponent("valley.scene.json"), atomically: true, encoding: .utf8)
        try """
        {"dem": ["../../shared/data/yosemite_valley_ned1as.tif"], "size": "400x250", "basemap": "tint", "decorations": "none",
         "measure": [{"from": [-119.5329397, 37.7460363], "to": [-119.573611, 37.729722]}], "out": "half-dome.png"}
        """.write(to: repo.appendingPathComponent("figures/half-dome.scene.json"), atomically: true, encoding: .utf8)
    }

    /// Runs `command` with bash in `directory`, `transect` first on the PATH, through the tests'
    /// one process runner; stdout, then stderr, and the exit status. The slowest block (an orbit
    /// of eight views in a debug build) takes about a minute; ten are allowed.
    static func run(_ command: String, in directory: URL, bin: URL) throws -> (output: String, status: Int32) {
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let r = try TransectExecutable.run(
            ["-c", command], directory: directory.path, executable: "/bin/bash",
            environment: ["PATH": path, "SOURCE_DATE_EPOCH": "0"], timeout: 600)
        return (r.out + r.err, r.code)
    }

    /// The first line where `actual` and `expected` differ, for the failure message.
    static func firstDifference(_ actual: String, _ expected: String) -> String {
        let a = actual.components(separatedBy: "\n")
        let e = expected.components(separatedBy: "\n")
        for k in 0..<max(a.count, e.count) where k >= a.count || k >= e.count || a[k] != e[k] {
            return "line \(k + 1): README shows '\(k < e.count ? e[k] : "(nothing)")', the program prints '\(k < a.count ? a[k] : "(nothing)")'"
        }
        return "no difference"
    }

    @Test("README.md has console blocks, and the reader finds their commands and outputs")
    func readerFindsBlocks() {
        #expect(Self.allBlocks.count >= 8, "\(Self.allBlocks.count) console blocks")
        let sample = Self.blocks("text\n```console\n$ a \\\n    b\nout 1\n$ c\n```\n")
        #expect(sample.count == 1)
        #expect(sample.first?.steps.map(\.command) == ["a \\\n    b", "c"])
        #expect(sample.first?.steps.map(\.expected) == ["out 1\n", ""])
        #expect(Self.firstDifference("a\nb\n", "a\nc\n").hasPrefix("line 2:"))
    }

    @Test("each console block prints what README.md shows", arguments: allBlocks)
    func block(_ block: Block) throws {
        guard let executable = TransectExecutable.path else {
            print("skipped \(block): \(TransectExecutable.missing)")
            return
        }
        guard SharedData.isAvailable else {
            print("skipped \(block): ../shared/data is absent (\(SharedData.directory.path))")
            return
        }
        let scratch = TemporaryDirectory()
        let root = URL(fileURLWithPath: scratch.path)
        try Self.makeFixtures(in: root, shared: SharedData.directory)
        let bin = root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("transect"), withDestinationURL: URL(fileURLWithPath: executable))
        let repo = root.appendingPathComponent("repo")
        // Tests contact nothing but loopback: an example that needs the network is not a console
        // block (README.md shows those as sh).
        if let online = block.steps.first(where: { $0.command.contains("--allow-network") }) {
            Issue.record("\(block): '\(online.command)' needs the network; show it as an sh block, not a console block")
            return
        }
        for step in block.steps {
            let (actual, status) = try Self.run(step.command, in: repo, bin: bin)
            #expect(actual == step.expected, "\(block): '\(step.command)': \(Self.firstDifference(actual, step.expected))")
            // A command the README shows failing fails; every other succeeds.
            let failing = step.expected.components(separatedBy: "\n").contains { $0.hasPrefix("Error: ") }
            #expect((status != 0) == failing, "\(block): '\(step.command)' exited \(status)")
        }
    }
}
