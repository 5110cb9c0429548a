/// The measure library's C entry point: the `transect` launcher loads this library (built as
/// `libTransectCLIMeasure.so`, without Foundation, cairo or libpng) with `dlopen` for a command
/// line whose first argument is `measure` or `viewshed`, and calls this with its own `argc` and
/// `argv`, untouched. Returns the exit code, or `MeasureEntry.notHandled` for a command line it
/// does not run (a viewshed with an observers file), having done nothing.
@_cdecl("transect_measure_main")
public func transectMeasureMain(_ argc: Int32, _ argv: UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    // As `CommandLine.arguments` reads them, so both paths see the same text.
    let arguments = (0..<Int(argc)).map { k in argv[k].map { String(cString: $0) } ?? "" }
    return MeasureCommand.main(arguments)
}
