#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectCLIBase
import TransectSupport

/// One pair `compare` judges: a relative path and the file on each side that has it.
package struct ComparePair: Sendable, Equatable {
    /// The path relative to BASELINE and CANDIDATE (for two files, the candidate's file name).
    package var name: String
    package var baseline: String?
    package var candidate: String?
}

/// The pairs of two files, or of two directories' images paired by relative path.
package enum ComparePairs {
    /// The extensions of the files a directory contributes (case aside): PNGs and GeoTIFFs.
    package static let imageExtensions = ["png", "tif", "tiff"]
    /// How deep a directory is walked: far past any tree of renders, short of a symlink loop.
    static let maxDepth = 32

    /// The pairs: for two files, that one pair; for two directories, every image file under
    /// either (hidden names aside), in the order of their relative paths. Bad usage (exit 2):
    /// a file against a directory. Bad data (exit 1): a path that is not there.
    package static func pairs(baseline: String, candidate: String, command: String) throws(CLIError) -> [ComparePair] {
        let b = try kind(baseline)
        let c = try kind(candidate)
        switch (b, c) {
        case (.file, .file):
            return [ComparePair(name: fileName(candidate), baseline: baseline, candidate: candidate)]
        case (.directory, .directory):
            let left = try images(under: baseline)
            let right = try images(under: candidate)
            return Set(left).union(right).sorted().map { name in
                ComparePair(
                    name: name, baseline: left.contains(name) ? join(baseline, name) : nil,
                    candidate: right.contains(name) ? join(candidate, name) : nil)
            }
        default:
            throw .usage(
                "BASELINE and CANDIDATE must be two files or two directories: '\(baseline.printable)' is \(b.text), '\(candidate.printable)' \(c.text)",
                command: command)
        }
    }

    enum Kind: Equatable {
        case file, directory
        var text: String { self == .file ? "a file" : "a directory" }
    }

    /// Whether `path` is a file or a directory (symbolic links followed).
    static func kind(_ path: String) throws(CLIError) -> Kind {
        var info = stat()
        do throws(SystemError) {
            try SystemError.call { stat(path, &info) }
        } catch {
            throw CLIError.ioFailure(path: path, reading: true, error)
        }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .directory : .file
    }

    /// The relative paths of the image files under `root`, sorted.
    static func images(under root: String) throws(CLIError) -> [String] {
        var found: [String] = []
        try walk(root, prefix: "", depth: 0, into: &found)
        return found.sorted()
    }

    private static func walk(_ directory: String, prefix: String, depth: Int, into found: inout [String]) throws(CLIError) {
        guard depth <= maxDepth else { throw .badInput("'\(directory.printable)': directories nested more than \(maxDepth) deep (a symbolic link loop?)") }
        guard access(directory, R_OK | X_OK) == 0 else {
            throw CLIError.ioFailure(path: directory, reading: true, SystemError(code: errno))
        }
        for name in DirectoryEntries.names(in: directory).sorted() where !name.hasPrefix(".") {
            let path = join(directory, name)
            let relative = prefix.isEmpty ? name : prefix + "/" + name
            if try kind(path) == .directory {
                try walk(path, prefix: relative, depth: depth + 1, into: &found)
            } else if let dot = name.lastIndex(of: "."), imageExtensions.contains(name[name.index(after: dot)...].lowercased()) {
                found.append(relative)
            }
        }
    }

    package static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
