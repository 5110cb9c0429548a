/// The compare library's C entry point: the `transect` launcher loads this library (built as
/// `libTransectCLICompare.so`: libpng and zlib, no GDAL, cairo or Foundation) with `dlopen` for a
/// command line whose first argument is `compare`, and calls this with its own `argc` and
/// `argv`, untouched. Returns the exit code, or `CompareEntry.notHandled` for a command line it
/// leaves to the full command line, having printed and written nothing.
@_cdecl("transect_compare_main")
public func transectCompareMain(_ argc: Int32, _ argv: UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    // As `CommandLine.arguments` reads them, so both paths see the same text.
    let arguments = (0..<Int(argc)).map { k in argv[k].map { String(cString: $0) } ?? "" }
    return CompareLight.main(arguments)
}
