#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import TransectCLIBase
import TransectSupport

// The launcher. It links the standard library, TransectSupport and TransectCLIBase (with the
// pure modules they import) only: a measure with both heights given runs here and starts like a
// plain Swift program. Any other measure command line (right or wrong), and a viewshed without
// an observers file, goes, untouched, to libTransectCLIMeasure.so beside this executable, which
// brings GDAL and PROJ but neither Foundation, cairo nor libpng; every other command line to the
// full command line in libTransectCLI.so, which brings all of them.

let console = Console.standard()
let arguments = Array(CommandLine.arguments.dropFirst())
if let code = GivenHeightsMeasure.run(arguments, console: console) {
    console.flush()
    exit(code)
}
if arguments.first == "measure" || arguments.first == "viewshed" {
    let code = CommandLineLibrary.measure.run(argc: CommandLine.argc, argv: CommandLine.unsafeArgv)
    // exit, not _exit: GDAL's exit handlers still have work a user may ask for (the network
    // statistics of CPL_VSIL_SHOW_NETWORK_STATS are printed there).
    if code != MeasureEntry.notHandled { exit(code) }
}
// A compare of PNGs with its verdict on stdout runs in libTransectCLICompare.so (libpng, no GDAL,
// cairo or Foundation), which hands every other compare back untouched.
if arguments.first == "compare" {
    let code = CommandLineLibrary.compare.run(argc: CommandLine.argc, argv: CommandLine.unsafeArgv)
    if code != CompareEntry.notHandled { exit(code) }
}
exit(CommandLineLibrary.full.run(argc: CommandLine.argc, argv: CommandLine.unsafeArgv))
