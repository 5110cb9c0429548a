import Testing
import TransectCLI

/// Runs the command line in process and returns what it printed and its exit code.
public func transect(_ arguments: String...) -> (code: Int32, out: String, err: String) {
    transect(arguments)
}

public func transect(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
    let console = Console.capturing()
    let code = CommandLineTool.run(arguments, console: console)
    return (code, console.capturedOut, console.capturedErr)
}

/// Runs `arguments` and expects a usage error: exit 2, nothing on stdout, and stderr beginning
/// with `Error: ` + `message` (with `exactLine`, its first line exactly that).
public func expectUsageError(
    _ arguments: [String], _ message: String, exactLine: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
) {
    let r = transect(arguments)
    #expect(r.code == 2, "\(r.err)", sourceLocation: sourceLocation)
    if exactLine {
        #expect(
            r.err.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) == "Error: " + message, "\(r.err)",
            sourceLocation: sourceLocation)
    } else {
        #expect(r.err.hasPrefix("Error: " + message), "\(r.err)", sourceLocation: sourceLocation)
    }
    #expect(r.out.isEmpty, sourceLocation: sourceLocation)
}
