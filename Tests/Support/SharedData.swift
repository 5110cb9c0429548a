import Foundation

/// Finds `../shared/data` (the real DEMs and tracks the tests read in place) from the package
/// root, and says clearly what is missing when it is not there.
public enum SharedData {
    /// The package root: this file lives in `<root>/Tests/Support/`.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/data` beside the package, or `TRANSECT_SHARED_DATA` when set.
    public static let directory: URL = {
        if let env = ProcessInfo.processInfo.environment["TRANSECT_SHARED_DATA"] { return URL(fileURLWithPath: env) }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
    }()

    /// True when the shared data directory is present.
    public static var isAvailable: Bool { FileManager.default.fileExists(atPath: directory.path) }

    /// The path of a file in the shared data, or a failure that names where it was looked for.
    public static func path(_ name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw Missing(
                description: "shared test data '\(name)' not found at \(url.path); the tests expect ../shared/data beside the package (or TRANSECT_SHARED_DATA)"
            )
        }
        return url.path
    }

    public struct Missing: Error, CustomStringConvertible { public let description: String }
}

/// A fresh temporary directory, removed when the value is released.
public final class TemporaryDirectory: Sendable {
    public let path: String
    /// Why the directory could not be made, or nil. The initialiser does not stop the run when
    /// it fails: the test that asked for it then fails on its first file, naming this path.
    public let creationError: (any Error)?
    public init() {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("transect-tests-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
            creationError = nil
        } catch {
            creationError = error
        }
        path = base.path
    }
    public func file(_ name: String) -> String { path + "/" + name }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}
