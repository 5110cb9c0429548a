import Foundation
import Testing
import TransectTestSupport

@testable import TransectCLI

/// The options of each command are declared once (`static let x = Option…` in its `*Options`
/// enum) and listed in its hand-kept `all` list, and refusals name options in text. These tests
/// fail when the list and the declarations drift apart, or a refusal names an option nobody
/// declares.
@Suite("option declarations and the lists and messages that name them")
struct OptionDeclarationTests {
    /// An `enum …Options {` block of a source file: the options it declares and the names its
    /// `all: [OptionSpec]` list holds.
    struct OptionsEnum {
        var file: String
        var name: String
        var declared: [String]
        var listed: [String]
    }

    static let sourceDirectories = ["TransectCLIBase", "TransectCLIMeasure", "TransectCLICompare", "TransectCLI"]

    static func sources() throws -> [(file: String, text: String)] {
        var out: [(String, String)] = []
        for directory in sourceDirectories {
            let url = SharedData.packageRoot.appendingPathComponent("Sources/\(directory)")
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() where name.hasSuffix(".swift") {
                out.append(("\(directory)/\(name)", try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)))
            }
        }
        return out
    }

    /// The enums named `…Options` with an `all: [OptionSpec]` list, read from their text: the
    /// `static let NAME = ` declarations whose value is an option (`Option…`, `CommonOptions.…`
    /// or an option of another `…Options` enum, or whose type is written `Option<…>`) and the
    /// `NAME.spec` entries of `all`.
    static func optionsEnums(_ file: String, _ text: String) -> [OptionsEnum] {
        var found: [OptionsEnum] = []
        let lines = text.components(separatedBy: "\n")
        var k = 0
        while k < lines.count {
            guard let header = lines[k].firstMatch(of: /^(?:package )?enum (\w+Options) \{/) else {
                k += 1
                continue
            }
            var declared: [String] = []
            var listed: [String] = []
            var j = k + 1
            while j < lines.count, !lines[j].hasPrefix("}") {
                if let d = lines[j].firstMatch(
                    of: /^    (?:package )?static let (\w+)(?:: Option<[^=]+> = |(?:: [^=]+)? = (?:Option|CommonOptions\.|\w+Options\.))/)
                {
                    declared.append(String(d.output.1))
                }
                if lines[j].contains("static let all: [OptionSpec] = [") {
                    var listText = String(lines[j].components(separatedBy: "= [").last ?? "")
                    while !listText.contains("]"), j + 1 < lines.count {
                        j += 1
                        listText += lines[j]
                    }
                    listed = listText.matches(of: /([\w.]+)\.spec/).map { String($0.output.1) }
                }
                j += 1
            }
            if !listed.isEmpty { found.append(OptionsEnum(file: file, name: String(header.output.1), declared: declared, listed: listed)) }
            k = j
        }
        return found
    }

    @Test("every option an Options enum declares is in its all list, once, and the list names only declared options")
    func listsMatchDeclarations() throws {
        let enums = try Self.sources().flatMap { Self.optionsEnums($0.file, $0.text) }
        #expect(enums.count >= 7, "found only \(enums.map(\.name))")
        for e in enums {
            let local = e.listed.filter { !$0.contains(".") }
            for name in e.declared where !local.contains(name) {
                Issue.record("\(e.file): \(e.name).\(name) is declared but not in \(e.name).all")
            }
            for name in local where !e.declared.contains(name) {
                Issue.record("\(e.file): \(e.name).all lists \(name), which \(e.name) does not declare")
            }
            #expect(Set(e.listed).count == e.listed.count, "\(e.file): \(e.name).all lists an option twice: \(e.listed)")
        }
    }

    @Test("every command accepts each option once, and the options it accepts are the ones its help shows")
    func commandsAcceptTheirList() {
        for command in Commands.all {
            let names = command.options.map(\.name)
            #expect(Set(names).count == names.count, "\(command.name): \(names)")
            let help = Help.text(for: command)
            for name in names { #expect(help.contains("--" + name), "\(command.name)'s help does not show --\(name)") }
        }
    }

    @Test("each option name a refusal or a pick spells out is the name of a declared option")
    func refusalsNameDeclaredOptions() throws {
        let sources = try Self.sources()
        var declaredNames = Set<String>()
        for command in Commands.all { declaredNames.formUnion(command.options.map(\.name)) }
        var checked = 0
        for (file, text) in sources {
            for match in text.matches(of: /(?:refuse|pick)\("([a-z][a-z0-9-]*)"/) {
                checked += 1
                let name = String(match.output.1)
                #expect(declaredNames.contains(name), "\(file): a refusal names '--\(name)', which no command declares")
            }
        }
        #expect(checked >= 5, "found only \(checked) refusals that spell an option's name")
    }

    @Test("the reader of Options enums sees a drift when there is one")
    func readerCatchesDrift() {
        let text = """
            enum FooOptions {
                static let a = Option.flag("a", help: "A.")
                static let b = CommonOptions.out.help("B.")
                static let all: [OptionSpec] = [
                    a.spec, CommonOptions.help.spec,
                ]
            }
            """
        let e = Self.optionsEnums("Foo.swift", text)
        #expect(e.count == 1)
        #expect(e.first?.declared == ["a", "b"])
        #expect(e.first?.listed == ["a", "CommonOptions.help"])
    }
}
