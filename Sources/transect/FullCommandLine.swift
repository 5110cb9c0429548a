#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import TransectCore

/// The full command line: `libTransectCLI.so` in the executable's own directory, loaded with
/// `dlopen` and entered through `transect_cli_main`.
enum FullCommandLine {
    static let library = "libTransectCLI.so"
    static let entry = "transect_cli_main"
    typealias Entry = @convention(c) (Int32, UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Int32

    /// Runs the command line `argv` in the library and returns its exit code; when the library
    /// cannot be loaded, says so in one line on stderr and returns 1.
    static func run(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
        let path: String
        do throws(SystemError) {
            path = try directory() + "/" + library
        } catch {
            return fail("cannot find the directory of the transect executable (/proc/self/exe): \(error.text)")
        }
        // Lazy binding: a command resolves only the functions it calls.
        guard let handle = dlopen(path, RTLD_LAZY | RTLD_LOCAL) else {
            return fail("cannot load \(library): \(dlerrorText())")
        }
        guard let symbol = dlsym(handle, entry) else {
            return fail("cannot find \(entry) in \(library): \(dlerrorText())")
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
