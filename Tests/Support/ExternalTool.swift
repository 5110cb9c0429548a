import Foundation

/// A program users have (`pdfinfo`, `rsvg-convert`, `gdalinfo`, …), found on the PATH, that tests
/// read outputs back with; a test whose tool is missing skips, naming the package to install.
public enum ExternalTool {
    /// The program's path, or nil when no directory of the PATH (or /usr/bin) has it.
    public static func path(_ name: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/bin"]
        return directories.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// True when every program of `names` is found.
    public static func available(_ names: String...) -> Bool { names.allSatisfy { path($0) != nil } }

    /// Runs `name` with `arguments` and returns its exit status, stdout and stderr (stdout as
    /// bytes too, for programs that print images).
    @discardableResult
    public static func run(
        _ name: String, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> (
        code: Int32, out: String, err: String, bytes: Data
    ) {
        guard let path = path(name) else { throw Missing(description: "\(name) is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Both pipes are drained as the program writes, so a large output cannot block it.
        let errData = Drained()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData.data = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData.data, as: UTF8.self), outData)
    }

    /// A pipe's bytes, written by the one thread that drains it and read after it is done.
    private final class Drained: @unchecked Sendable { var data = Data() }

    public struct Missing: Error, CustomStringConvertible { public let description: String }
}
