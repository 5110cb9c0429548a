import TransectCLI

/// Runs the command line in process and returns what it printed and its exit code.
func transect(_ arguments: String...) -> (code: Int32, out: String, err: String) {
    transect(arguments)
}

func transect(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
    let console = Console.capturing()
    let code = CommandLineTool.run(arguments, console: console)
    return (code, console.capturedOut, console.capturedErr)
}
