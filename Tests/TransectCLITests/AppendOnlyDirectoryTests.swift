import Foundation
import Testing
import TransectCLITestSupport
import TransectSupport
import TransectTestSupport

/// An output in an append-only directory (`chattr +a`): a temporary could be created there but
/// never renamed into place nor removed, so a run refuses before it makes one, and leaves the
/// directory as it found it.
@Suite("outputs in an append-only directory leave nothing behind")
struct AppendOnlyDirectoryTests {
    /// Runs `chattr` with `arguments`; false when it cannot (not installed, not permitted, or a
    /// file system without the flag).
    static func chattr(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    @Test("render, measure and profile with a chart exit 1 naming the append-only directory, and create nothing in it")
    func appendOnly() throws {
        let dir = TemporaryDirectory()
        let locked = dir.file("locked")
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        guard Self.chattr(["+a", locked]) else {
            print("skipped: chattr +a is not supported here (needs /usr/bin/chattr, root or CAP_LINUX_IMMUTABLE, and ext4, xfs, btrfs or tmpfs)")
            return
        }
        defer { _ = Self.chattr(["-a", locked]) }
        #expect(DirectoryFlags.refusal(locked)?.hasPrefix("is append-only (chattr +a)") == true)
        #expect(DirectoryFlags.refusal(dir.path) == nil)
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let line = ["--from", "-119.6,37.7", "--to", "-119.5,37.75"]
        let runs: [(String, [String])] = [
            (locked + "/map.png", ["render", "--dem", dem, "--size", "200x150", "-o", locked + "/map.png"]),
            (locked + "/m.json", ["measure", "--dem", dem, "--format", "json", "-o", locked + "/m.json"] + line),
            (locked + "/p.csv", ["profile", "--dem", dem, "--format", "csv", "-o", locked + "/p.csv", "--chart", dir.file("chart.png")] + line),
        ]
        for (path, arguments) in runs {
            let r = transect(arguments)
            #expect(r.code == 1, "\(arguments[0]): \(r.err)")
            // After the notes a render prints on its way, one Error: line.
            let errors = r.err.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
            #expect(
                errors == [
                    "Error: cannot write '\(path)': its directory is append-only (chattr +a): a file could be created in it but neither renamed into place nor removed"
                ], "\(arguments[0]): \(r.err)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: locked).isEmpty, "\(arguments[0])")
        }
        // The chart beside, in a directory that takes files, was not written either: one result.
        #expect(!FileManager.default.fileExists(atPath: dir.file("chart.png")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["locked"])
    }
}
