#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Paths as GDAL reads them: plain files, files inside archives and compressed files
/// (`/vsizip/`, `/vsigzip/`, `/vsitar/`, `/vsi7z/`, `/vsirar/`), and `vrt://` strings.
public enum GDALPath {
    /// The local file that holds what `path` names, so that callers can tell it apart from
    /// files they write (by device and inode):
    ///
    /// ```swift
    /// GDALPath.localFile(of: "/vsizip/{/d/a.zip}/x.tif")  // "/d/a.zip"
    /// GDALPath.localFile(of: "/vsizip//d/a.zip/x.tif")    // "/d/a.zip" when /d/a.zip is a file
    /// GDALPath.localFile(of: "/vsigzip//d/x.tif.gz")      // "/d/x.tif.gz"
    /// GDALPath.localFile(of: "vrt:///d/x.tif?bands=1")    // "/d/x.tif"
    /// GDALPath.localFile(of: "/d/x.tif")                  // "/d/x.tif"
    /// ```
    ///
    /// An archive named without braces is found as GDAL finds it: the first leading part of
    /// the path that is a regular file. Symbolic links are not resolved.
    ///
    /// - Parameter path: a path as given to GDAL.
    /// - Returns: the local file, or nil when `path` is on the network or another virtual file
    ///   system (`/vsimem/`, `/vsicurl/`, …), or is an archive path whose archive does not exist.
    public static func localFile(of path: String) -> String? {
        var p = Substring(path)
        while p.lowercased().hasPrefix("vrt://") { p = p.dropFirst(6).prefix { $0 != "?" } }
        if SourceConfinement.isNetwork(String(p)) { return nil }
        for prefix in SourceConfinement.archivePrefixes where p.hasPrefix(prefix) {
            let rest = p.dropFirst(prefix.count)
            if rest.hasPrefix("{"), let close = rest.firstIndex(of: "}") {
                return localFile(of: String(rest[rest.index(after: rest.startIndex)..<close]))
            }
            if rest.hasPrefix("/vsi") { return localFile(of: String(rest)) }
            var index = rest.startIndex
            while let slash = rest[index...].firstIndex(of: "/") {
                let candidate = String(rest[..<slash])
                if !candidate.isEmpty, SourceConfinement.isRegularFile(candidate) { return candidate }
                index = rest.index(after: slash)
            }
            return SourceConfinement.isRegularFile(String(rest)) ? String(rest) : nil
        }
        if p.hasPrefix("/vsi") || p.isEmpty { return nil }
        return String(p)
    }
}
