#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectCLI

exit(CommandLineTool.main(CommandLine.arguments))
