#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import TransectSupport

/// A command line in a shared library in the executable's own directory, loaded with `dlopen`
/// and entered through a C function that takes the process's `argc` and `argv`, untouched:
/// ``measure`` (`libTransectCLIMeasure.so`, no Foundation, cairo or libpng) for `measure` and `viewshed`, ``full``
/// (`libTransectCLI.so`) for everything; ``compare`` (`libTransectCLICompare.so`: libpng, no GDAL,
/// cairo or Foundation) for a compare of PNGs to stdout.
struct CommandLineLibrary {
    let library: String
    let entry: String
    typealias Entry = @convention(c) (Int32, UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Int32

    /// Every command.
    static let full = CommandLineLibrary(library: "libTransectCLI.so", entry: "transect_cli_main")
    /// `measure`, and `viewshed` without `--observers`; its entry returns `MeasureEntry.notHandled`
    /// for any other command line.
    static let measure = CommandLineLibrary(library: "libTransectCLIMeasure.so", entry: "transect_measure_main")
    /// `compare` of PNGs to stdout; its entry returns `CompareEntry.notHandled` for anything else.
    static let compare = CommandLineLibrary(library: "libTransectCLICompare.so", entry: "transect_compare_main")

    /// Runs the command line `argv` in the library and returns what its entry returns; when the
    /// library cannot be loaded, says so in one line on stderr and returns 1.
    func run(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
        let path: String
        do throws(SystemError) {
            path = try Self.directory() + "/" + library
        } catch {
            return Self.fail("cannot find the directory of the transect executable (/proc/self/exe): \(error.text)")
        }
        // Lazy binding: a command resolves only the functions it calls.
        guard let handle = dlopen(path, RTLD_LAZY | RTLD_LOCAL) else {
            return Self.fail("cannot load \(library): \(Self.dlerrorText())")
        }
        guard let symbol = dlsym(handle, entry) else {
            return Self.fail("cannot find \(entry) in \(library): \(Self.dlerrorText())")
        }
        return unsafeBitCast(symbol, to: Entry.self)(argc, argv)
    }

    /// The directory of the running executable, symbolic links resolved.
    static func directory() throws(SystemError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = try SystemError.call { readlink("/proc/self/exe", &buffer, Int(PATH_MAX)) }
        let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    static func dlerrorText() -> String {
        dlerror().map { String(cString: $0) } ?? "unknown error"
    }

    static func fail(_ message: String) -> Int32 {
        fputs("Error: \(message)\n", stderr)
        return 1
    }
}
