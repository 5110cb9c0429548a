/// The command line's C entry point: the `transect` launcher loads this library (built as
/// `libTransectCLI.so`) with `dlopen` for every command line it does not run itself, and calls
/// this with its own `argc` and `argv`, untouched. Returns the exit code.
@_cdecl("transect_cli_main")
public func transectCLIMain(_ argc: Int32, _ argv: UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    // As `CommandLine.arguments` reads them, so both paths see the same text.
    let arguments = (0..<Int(argc)).map { k in argv[k].map { String(cString: $0) } ?? "" }
    return CommandLineTool.main(arguments)
}
