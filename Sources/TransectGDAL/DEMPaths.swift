#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectSupport

/// Turns what the user gave as `--dem` (a file, a directory of tiles, a glob, a GDAL virtual
/// path) into the list of rasters to open, in a stable order.
enum DEMPaths {
    /// File name endings taken from a directory: the DEM formats people keep tiles in.
    static let rasterSuffixes = [
        ".tif", ".tiff", ".hgt", ".asc", ".img", ".vrt", ".nc", ".cdf", ".dem",
        ".bil", ".flt", ".bt", ".ter", ".grd", ".dt0", ".dt1", ".dt2", ".gtx", ".zip",
    ]

    static func expand(_ spec: String) throws(TerrainError) -> [String] {
        // GDAL virtual file systems and connection strings go to GDAL untouched.
        if spec.hasPrefix("/vsi") || spec.contains(":") && !spec.hasPrefix("/") && !spec.hasPrefix(".") {
            return [spec]
        }
        // A pattern only when no file has that very name: a tile literally named `r*.tif` is
        // that tile, not every `r….tif` beside it.
        var literal = stat()
        if spec.contains(where: { "*?[".contains($0) }) && stat(spec, &literal) != 0 {
            let matches = glob(spec).filter { !isDirectory($0) }
            guard !matches.isEmpty else { throw .noRasters(pattern: spec) }
            return matches
        }
        if isDirectory(spec) {
            let files = listDirectory(spec).filter { name in
                let lower = name.lowercased()
                return rasterSuffixes.contains { lower.hasSuffix($0) }
            }
            guard !files.isEmpty else { throw .noRasters(pattern: spec) }
            let base = spec.hasSuffix("/") ? spec : spec + "/"
            return files.map { name in
                let path = base + name
                return name.lowercased().hasSuffix(".zip") ? "/vsizip/" + path : path
            }
        }
        var info = stat()
        do throws(SystemError) {
            try SystemError.call { stat(spec, &info) }
        } catch {
            throw .cannotOpen(path: spec, reason: error.text)
        }
        return [spec]
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    static func listDirectory(_ path: String) -> [String] {
        DirectoryEntries.names(in: path).filter { !isDirectory(path + "/" + $0) }.sorted()
    }

    static func glob(_ pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        guard Glibc.glob(pattern, 0, nil, &result) == 0 else { return [] }
        var paths: [String] = []
        for k in 0..<Int(result.gl_pathc) {
            if let p = result.gl_pathv[k] { paths.append(String(cString: p)) }
        }
        return paths.sorted()
    }
}
