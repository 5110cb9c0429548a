import Foundation
import Testing
import TransectCLITestSupport
import TransectTestSupport

@testable import TransectCLI
@testable import TransectCLIBase

/// `make install`: the manual page and the bash and zsh completions, made from the command
/// table and the option declarations (so each names every option, and none the command line
/// does not take), and the tree scripts/install.sh lays out under DESTDIR/PREFIX.
@Suite("make install: man page, completions and the installed tree")
struct InstallTests {
    @Test("the manual page has every subcommand and every option of each, and troff reads it without a warning")
    func manualPage() throws {
        let page = transect("--generate-manual")
        #expect(page.code == 0)
        #expect(page.out.hasPrefix(".TH TRANSECT 1 "))
        for command in Commands.all {
            #expect(page.out.contains(".SS \(Help.roff(command.name))\n"), "\(command.name)")
            for spec in command.options { #expect(page.out.contains(".B \(Help.roff(spec.label))\n"), "\(command.name) \(spec.label)") }
        }
        // Only ASCII: the rest as troff's \[uXXXX].
        #expect(page.out.unicodeScalars.allSatisfy { $0.isASCII })
        guard ExternalTool.available("groff") else {
            print("skipped the troff check: groff is not installed (Debian package groff-base)")
            return
        }
        let dir = TemporaryDirectory()
        try page.out.write(toFile: dir.file("transect.1"), atomically: true, encoding: .utf8)
        let troff = try ExternalTool.run("groff", ["-man", "-ww", "-z", dir.file("transect.1")])
        #expect(troff.code == 0 && troff.err.isEmpty, "\(troff.err)")
    }

    @Test("the bash completion offers each subcommand's options and completes them in bash; the zsh one names every option")
    func completions() throws {
        let bash = transect("--generate-completion-script", "bash")
        let zsh = transect("--generate-completion-script", "zsh")
        #expect(bash.code == 0 && zsh.code == 0)
        #expect(zsh.out.hasPrefix("#compdef transect\n"))
        for command in Commands.all {
            let words = command.options.flatMap(Help.words).joined(separator: " ")
            #expect(bash.out.contains("        \(command.name))\n            options=\"\(words)\"\n"), "\(command.name)")
            for spec in command.options { #expect(zsh.out.contains("--\(spec.name)["), "\(command.name) --\(spec.name)") }
        }
        expectUsageError(["--generate-completion-script", "fish"], "--generate-completion-script takes one shell: bash or zsh")
        let dir = TemporaryDirectory()
        try bash.out.write(toFile: dir.file("transect.bash"), atomically: true, encoding: .utf8)
        let script = """
            source '\(dir.file("transect.bash"))'
            COMP_WORDS=(transect measure --de); COMP_CWORD=2; _transect; echo "${COMPREPLY[*]}"
            COMP_WORDS=(transect rend); COMP_CWORD=1; _transect; echo "${COMPREPLY[*]}"
            COMP_WORDS=(transect info --conf); COMP_CWORD=2; _transect; echo "${COMPREPLY[*]}"
            """
        let r = try ExternalTool.run("bash", ["-c", script])
        #expect(r.out == "--dem\nrender\n--confine\n", "\(r.out) \(r.err)")
    }

    @Test("scripts/install.sh lays out bin, lib/transect, the man page and completions under DESTDIR/PREFIX; the installed link runs")
    func installedTree() throws {
        let executable = try #require(TransectExecutable.path, "\(TransectExecutable.missing)")
        let build = URL(fileURLWithPath: executable).deletingLastPathComponent().path
        let dir = TemporaryDirectory()
        let script = SharedData.packageRoot.appendingPathComponent("scripts/install.sh").path
        let r = try ExternalTool.run("bash", [script, dir.file("stage"), "/opt/transect", build])
        #expect(r.code == 0, "\(r.err)")
        let root = dir.file("stage/opt/transect")
        for file in [
            "lib/transect/transect", "lib/transect/libTransectCLI.so", "lib/transect/libTransectCLIMeasure.so", "lib/transect/libTransectCLICompare.so",
            "share/man/man1/transect.1", "share/bash-completion/completions/transect", "share/zsh/site-functions/_transect",
        ] {
            #expect(FileManager.default.fileExists(atPath: root + "/" + file), "\(file)")
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: root + "/bin/transect") == "../lib/transect/transect")
        #expect(try String(contentsOfFile: root + "/share/man/man1/transect.1", encoding: .utf8) == transect("--generate-manual").out)
        // Through the link, the launcher finds its libraries: a measure of given heights (its
        // own) and info (the full command line's library).
        let version = try TransectExecutable.run(["--version"], directory: dir.path, executable: root + "/bin/transect")
        #expect(version.out == "transect \(Help.version)\n", "\(version.err)")
        let help = try TransectExecutable.run(["help", "info"], directory: dir.path, executable: root + "/bin/transect")
        #expect(help.code == 0 && help.out == Help.text(for: "info"), "\(help.err)")
        let refused = try ExternalTool.run("bash", [script, dir.file("stage"), "relative/prefix", build])
        #expect(refused.code == 2 && refused.err.hasPrefix("Error: PREFIX must be an absolute path"), "\(refused.err)")
    }
}
