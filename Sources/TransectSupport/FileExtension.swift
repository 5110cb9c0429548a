/// The extension of a file's name, which says the format of an output (a figure, a layer).
public enum FileExtension {
    /// What follows the last dot of `path`'s last component, as written; nil when the name has
    /// none (no dot, a leading dot only, or a dot at the end).
    public static func of(_ path: String) -> String? {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex else { return nil }
        return String(name[name.index(after: dot)...])
    }
}
