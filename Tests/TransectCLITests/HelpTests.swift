import Foundation
import Testing
import TransectSupport
import TransectCLITestSupport
import TransectTestSupport
@testable import TransectCLI

/// The help is made from the option declarations and the Command table: pinned word for word,
/// and every option it names is one the command accepts, and the other way round.
@Suite("help, usage and the accepted options come from one table")
struct HelpTests {
    static let golden: [(String, String)] = [
        ("measure", HelpGolden.measure), ("profile", HelpGolden.profile), ("viewshed", HelpGolden.viewshed), ("render", HelpGolden.render),
        ("view", HelpGolden.view), ("track", HelpGolden.track), ("info", HelpGolden.info), ("merge", HelpGolden.merge),
        ("compare", HelpGolden.compare),
    ]

    @Test("the overview reads as pinned, from --help, -h and help")
    func overview() {
        for args in [["--help"], ["-h"], ["help"]] {
            let r = transect(args)
            #expect(r.code == 0 && r.err.isEmpty, "\(args)")
            #expect(r.out == HelpGolden.overview + "\n", "\(args)")
        }
    }

    @Test("each command's help reads as pinned, from help X, X --help and X -h", arguments: golden)
    func commandHelp(name: String, text: String) {
        for args in [["help", name], [name, "--help"], [name, "-h"]] {
            let r = transect(args)
            #expect(r.code == 0 && r.err.isEmpty, "\(args)")
            #expect(r.out == text + "\n", "\(args)")
        }
    }

    @Test("the overview lists every command of the table, with its summary")
    func overviewListsTable() {
        for command in Commands.all {
            #expect(HelpGolden.overview.contains("\n  \(command.name.padded(to: 12))\(command.summary)\n"), "\(command.name)")
        }
        #expect(Commands.all.map(\.name) == ["measure", "profile", "viewshed", "render", "view", "track", "info", "merge", "compare"])
    }

    @Test("a usage error is followed by the command's first usage line", arguments: Commands.all.map(\.name))
    func usageAfterError(name: String) throws {
        let command = try #require(Commands.named(name))
        let r = transect(name, "--bogus")
        #expect(r.code == 2 && r.out.isEmpty)
        #expect(r.err == "Error: unknown option '--bogus'\nUsage: \(command.usage[0])\nSee 'transect help \(name)'.\n", "\(r.err)")
    }

    /// The `--name` and `-x` tokens a help text mentions, anywhere in it.
    static func optionTokens(_ text: String) -> Set<String> {
        var tokens: Set<String> = []
        let scalars = Array(text.unicodeScalars)
        func isNameScalar(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) || ("0"..."9").contains(s) || s == "-" }
        var k = 0
        while k < scalars.count {
            let startsToken = scalars[k] == "-" && (k == 0 || !isNameScalar(scalars[k - 1]))
            guard startsToken else {
                k += 1
                continue
            }
            var end = k
            while end < scalars.count, isNameScalar(scalars[end]) { end += 1 }
            let token = String(String.UnicodeScalarView(scalars[k..<end]))
            // `--name` (a letter after the dashes) or `-x` alone; not `-` or a negative number.
            if token.hasPrefix("--"), token.count > 2, let first = token.unicodeScalars.dropFirst(2).first, ("a"..."z").contains(first) {
                tokens.insert(token.hasSuffix("-") ? String(token.dropLast()) : token)
            } else if token.count == 2, let letter = token.unicodeScalars.last, ("a"..."z").contains(letter) {
                tokens.insert(token)
            }
            k = max(end, k + 1)
        }
        return tokens
    }

    @Test("the token finder sees options in prose and rows, not numbers or words with dashes")
    func tokenFinder() {
        #expect(
            Self.optionTokens("  -o, --out FILE   With --pairs, stop; -1e-6 of x, light-gray, --from/--to.")
                == ["-o", "--out", "--pairs", "--from", "--to"])
    }

    @Test("every declared option is in its command's help, in a row of its own", arguments: Commands.all.map(\.name))
    func declaredAreDocumented(name: String) throws {
        let command = try #require(Commands.named(name))
        let help = Help.text(for: command)
        let rows = help.split(separator: "\n").map(String.init)
        for spec in command.options {
            #expect(rows.contains { $0.hasPrefix("  " + spec.label + " ") || $0 == "  " + spec.label }, "\(name): \(spec.label)")
        }
        // One declaration per name and per short name.
        #expect(Set(command.options.map(\.name)).count == command.options.count, "\(name)")
        let shorts = command.options.compactMap(\.short)
        #expect(Set(shorts).count == shorts.count, "\(name)")
    }

    @Test("every option the help mentions is accepted by the command line", arguments: Commands.all.map(\.name))
    func documentedAreAccepted(name: String) throws {
        let command = try #require(Commands.named(name))
        let help = Help.text(for: command)
        let tokens = Self.optionTokens(help)
        #expect(tokens.contains("--help") && tokens.contains("-h"))
        for token in tokens.sorted() {
            // Through the real command line: with --help after it, an accepted option prints the
            // help (exit 0) and an unknown one is a usage error.
            let spec = command.options.first { "--" + $0.name == token || $0.short.map { "-\($0)" } == token }
            let args = spec?.takesValue == false || token == "--help" || token == "-h" ? [name, token, "--help"] : [name, token, "1", "--help"]
            let r = transect(args)
            #expect(r.code == 0 && r.out == help, "\(args): \(r.err)")
        }
    }

    /// Every option name some command declares.
    static var everyName: Set<String> { Set(Commands.all.flatMap { $0.options.map(\.name) }) }

    @Test("every command refuses an option it does not list (exit 2, unknown option)", arguments: Commands.all.map(\.name))
    func refusesUnlisted(name: String) throws {
        let command = try #require(Commands.named(name))
        let listed = Set(command.options.map(\.name))
        for option in Self.everyName.subtracting(listed).sorted() + ["bogus", "fit", "version"] {
            for args in [[name, "--" + option, "1"], [name, "--" + option]] {
                let r = transect(args)
                #expect(r.code == 2 && r.out.isEmpty, "\(args)")
                // The line may end by naming a declared option one slip away (`--scenes`, `--scene`).
                let hint = NearestName.hint(for: option, among: command.options.map(\.name), prefix: "--")
                #expect(r.err.hasPrefix("Error: unknown option '--\(option)'\(hint)\n"), "\(args): \(r.err)")
            }
        }
        let shorts = Set(command.options.compactMap(\.short))
        for letter in "abcdefghijklmnopqrstuvwxyz" where !shorts.contains(letter) {
            let r = transect(name, "-\(letter)")
            #expect(r.code == 2 && r.err.hasPrefix("Error: unknown option '-\(letter)'\n"), "\(name) -\(letter): \(r.err)")
        }
    }

    @Test(
        "options that did nothing are refused where they did nothing",
        arguments: [
            ("profile", "--geoid"), ("track", "--geoid"), ("track", "--crs"), ("render", "--fit"), ("info", "--crs"),
        ])
    func droppedOptions(name: String, option: String) {
        let r = transect(name, option, "egm96")
        #expect(r.code == 2 && r.err.hasPrefix("Error: unknown option '\(option)'\n"), "\(r.err)")
        #expect(Help.text(for: name)?.contains(option + " ") == false)
    }

    @Test("a scene may set the render options but scene, help, allow-network, timeout, confine, threads, layers and the batch's")
    func sceneSettings() throws {
        let names = Set(RenderOptions.sceneSettings.map(\.name))
        let batch = ["scenes", "shard", "skip-existing", "manifest"]
        #expect(
            names
                == Set(Commands.render.options.map(\.name)).subtracting(["scene", "help", "allow-network", "timeout", "confine", "threads", "layers"] + batch))
        let dir = TemporaryDirectory()
        for key in ["allow_network", "timeout", "confine", "scene", "help", "fit", "threads", "scenes", "shard", "skip_existing", "manifest"] {
            try #"{"\#(key)": true}"#.write(toFile: dir.file("s.json"), atomically: true, encoding: .utf8)
            let r = transect("render", "--scene", dir.file("s.json"))
            #expect(r.code == 1 && r.err.contains("unknown setting '\(key)'"), "\(key): \(r.err)")
        }
    }
}
