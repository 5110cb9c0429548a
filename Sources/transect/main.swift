#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import TransectCLIBase
import TransectCore

// The launcher. It links the standard library, TransectCore and TransectCLIBase only: a measure
// with both heights given runs here and starts like a plain Swift program. Every other command
// line (and every one with an error) goes, untouched, to the full command line in
// libTransectCLI.so beside this executable, which brings GDAL, PROJ, cairo, libpng and
// Foundation with it.

let console = Console.standard()
if let code = GivenHeightsMeasure.run(Array(CommandLine.arguments.dropFirst()), console: console) {
    console.flush()
    exit(code)
}
exit(FullCommandLine.run(argc: CommandLine.argc, argv: CommandLine.unsafeArgv))
