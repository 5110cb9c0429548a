#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names in a directory, as `readdir` gives them.
public enum DirectoryEntries {
    /// Every entry's name in `path` (`""`: the working directory), `.` and `..` aside, in the
    /// order the file system keeps them; none when the directory cannot be read.
    public static func names(in path: String) -> [String] {
        guard let dir = opendir(path.isEmpty ? "." : path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
