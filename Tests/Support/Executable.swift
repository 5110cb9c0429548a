import Foundation

/// The built `transect` executable, run as a separate process for tests about the process
/// itself: exit codes, signals, files left behind.
public enum TransectExecutable {
    /// `.build/<configuration>/transect` beside the test bundle, or nil when it was not built.
    public static let path: String? = {
        let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        var candidates = [bundleDirectory.appendingPathComponent("transect").path]
        for configuration in ["debug", "release"] {
            candidates.append(SharedData.packageRoot.appendingPathComponent(".build/\(configuration)/transect").path)
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Why a test that needs the executable is skipped.
    public static let missing = "the transect executable is not built (swift build --build-tests builds it beside the tests)"

    /// A started run: its stdin can be written and closed, and it can be signalled and awaited.
    public final class Run: Sendable {
        public let process = Process()
        public let stdin = Pipe()
        private let stdoutFile: URL
        private let stderrFile: URL

        /// Starts `executable` (the built one by default) with `arguments` in `directory`, with
        /// `environment` added to the test process's.
        public init(_ arguments: [String], directory: String, executable: String? = nil, environment: [String: String] = [:]) throws {
            guard let path = executable ?? TransectExecutable.path else { throw Missing() }
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: directory)
            if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
            process.standardInput = stdin
            stdoutFile = URL(fileURLWithPath: directory).appendingPathComponent(".stdout-\(UUID().uuidString)")
            stderrFile = URL(fileURLWithPath: directory).appendingPathComponent(".stderr-\(UUID().uuidString)")
            _ = FileManager.default.createFile(atPath: stdoutFile.path, contents: nil)
            _ = FileManager.default.createFile(atPath: stderrFile.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: stdoutFile)
            process.standardError = try FileHandle(forWritingTo: stderrFile)
            try process.run()
        }

        /// Waits for the end; returns the exit status (128 + n for a process that exited because
        /// of signal n by its own choice), stdout and stderr. Removes the captured streams.
        /// A run still going after `timeout` seconds is killed (SIGKILL, code 1009).
        public func wait(timeout: Double = 120) -> (code: Int32, out: String, err: String) {
            var waited = 0.0
            while process.isRunning && waited < timeout {
                usleep(10_000)
                waited += 0.01
            }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let out = (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? ""
            let err = (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(at: stdoutFile)
            try? FileManager.default.removeItem(at: stderrFile)
            let code = process.terminationReason == .uncaughtSignal ? 1000 + process.terminationStatus : process.terminationStatus
            return (code, out, err)
        }
    }

    /// Runs to the end with empty stdin; killed after `timeout` seconds, as ``Run/wait(timeout:)``.
    public static func run(
        _ arguments: [String], directory: String, executable: String? = nil, environment: [String: String] = [:],
        timeout: Double = 120
    ) throws -> (code: Int32, out: String, err: String) {
        let run = try Run(arguments, directory: directory, executable: executable, environment: environment)
        try run.stdin.fileHandleForWriting.close()
        return run.wait(timeout: timeout)
    }

    public struct Missing: Error, CustomStringConvertible {
        public var description: String { TransectExecutable.missing }
    }
}
