#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CGDAL

/// What GDAL may read on the user's behalf beyond local files.
public struct DataAccess: Sendable, Equatable {
    /// Network and cloud file systems (`/vsicurl/`, `/vsis3/`, …), URLs and web-service
    /// drivers (WMS, WCS, …): only with `--allow-network`.
    public var allowNetwork: Bool

    public init(allowNetwork: Bool = false) { self.allowNetwork = allowNetwork }

    /// Local files only: the default.
    public static let local = DataAccess()
}

/// Keeps GDAL to what the user named. A raster may be a recipe that names other files (a VRT's
/// sources, nested VRTs, a web service's XML description); GDAL follows such references
/// wherever they point. Before GDAL opens a raster, its references are read and checked here:
///
/// - a VRT band that reads a file's raw bytes (`VRTRawRasterBand`) is refused;
/// - every source must resolve (symbolic links and `..` included) to a file under one of the
///   directories of the paths the user named; archives (`/vsizip/` …) count as their file;
/// - network paths (`/vsicurl/`, `/vsis3/`, `/vsigs/`, `/vsiaz/`, `/vsiadls/`, `/vsioss/`,
///   `/vsiswift/`, `/vsihdfs/`, `/vsiwebhdfs/`, URLs, even nested in `/vsizip/`) and drivers
///   that fetch from servers are refused unless ``DataAccess/allowNetwork``;
/// - a VRT that reaches itself again is a cycle, and a missing source is an error now rather
///   than a gap GDAL fills later.
///
/// After opening, the files GDAL says it uses (`GDALGetFileList`) are checked once more.
struct SourceConfinement {
    let access: DataAccess
    /// Real directories (symbolic links resolved) under which every file read must lie.
    let roots: [String]

    /// Nested VRTs deeper than this are refused: GDAL's own limit is near, and no DEM needs it.
    static let maximumNesting = 16

    init(named paths: [String], access: DataAccess) {
        self.access = access
        var roots: [String] = []
        for path in paths where !Self.isNetwork(path) {
            // Both the directory as written (GDAL resolves a VRT's relative sources there) and
            // the directory of the file a symbolic link leads to.
            let (archive, _) = Self.outermostFile(of: path)
            if let dir = Self.realPath(Self.directory(of: archive)) { roots.append(dir) }
            if let real = Self.physicalPath(of: path) { roots.append(Self.directory(of: real)) }
        }
        var seen = Set<String>()
        self.roots = roots.filter { seen.insert($0).inserted }
    }

    // MARK: Checks

    /// Checks `path` (a path the user named) and, for a VRT, everything it references.
    func checkBeforeOpen(_ path: String) throws(TerrainError) {
        if Self.isNetwork(path) {
            guard access.allowNetwork else { throw .networkNotAllowed(path: path, source: nil) }
            return
        }
        let key = Self.physicalPath(of: path).map { path.hasPrefix("/vsi") ? path : $0 } ?? path
        try checkContents(of: path, referencedBy: nil, chain: [key])
    }

    /// Checks the files GDAL reports using for an open dataset.
    /// The corresponding GDAL function is `GDALGetFileList`.
    func checkAfterOpen(_ handle: GDALDatasetH, name: String) throws(TerrainError) {
        guard let list = GDALGetFileList(handle) else { return }
        defer { CSLDestroy(list) }
        var k = 0
        while let entry = list[k] {
            k += 1
            let file = String(cString: entry)
            if Self.isNetwork(file) {
                guard access.allowNetwork else { throw .networkNotAllowed(path: name, source: file) }
                continue
            }
            // Files GDAL lists exist; one that vanished in between has nothing to read.
            guard let physical = Self.physicalPath(of: file) else { continue }
            guard isUnderRoots(physical) else { throw .sourceOutsideNamedDirectories(path: name, source: file) }
        }
    }

    /// `path` is local and about to be opened: the named path (`holder` nil) or a source of
    /// the VRT `holder`.
    private func checkContents(of path: String, referencedBy holder: String?, chain: [String]) throws(TerrainError) {
        GDALEnvironment.ensure()
        CPLErrorReset()
        // Identify reads the file's first bytes only; a file GDAL cannot identify fails later
        // in GDALOpenEx with GDAL's reason.
        guard let driver = GDALIdentifyDriverEx(path, UInt32(GDAL_OF_RASTER), nil, nil),
              let cName = GDALGetDriverShortName(driver) else { return }
        let driverName = String(cString: cName)
        if Self.networkDrivers.contains(driverName.uppercased()) {
            guard access.allowNetwork else {
                throw .networkNotAllowed(path: holder ?? path, source: holder.map { _ in path })
            }
            return
        }
        guard driverName == "VRT" else { return }
        guard let xml = CPLParseXMLFile(path) else { return }  // GDALOpenEx reports the syntax error.
        defer { CPLDestroyXMLNode(xml) }
        try walk(xml, vrt: path, base: Self.directory(of: path), chain: chain)
    }

    /// Visits `first` and its siblings, and their children, checking every reference.
    private func walk(_ first: UnsafeMutablePointer<CPLXMLNode>, vrt: String, base: String, chain: [String]) throws(TerrainError) {
        var current: UnsafeMutablePointer<CPLXMLNode>? = first
        while let node = current {
            defer { current = node.pointee.psNext }
            guard node.pointee.eType == CXT_Element, let cName = node.pointee.pszValue else { continue }
            let element = String(cString: cName)
            if let subClass = CPLGetXMLValue(node, "subClass", nil), String(cString: subClass) == "VRTRawRasterBand" {
                throw .unusableRaster(path: vrt, reason: "has a raw-file band (VRTRawRasterBand), which reads any file's bytes as a raster; Transect refuses it")
            }
            if element == "SourceFilename" || element == "SourceDataset" {
                let text = String(cString: CPLGetXMLValue(node, "", "")).trimmingWhitespace
                let relative = String(cString: CPLGetXMLValue(node, "relativeToVRT", "0")) == "1"
                try checkReference(text, relativeToVRT: relative, in: vrt, base: base, chain: chain)
            }
            if let child = node.pointee.psChild { try walk(child, vrt: vrt, base: base, chain: chain) }
        }
    }

    /// Checks one source named inside the VRT `vrt`, as GDAL would resolve it.
    private func checkReference(_ text: String, relativeToVRT: Bool, in vrt: String, base: String,
                                chain: [String]) throws(TerrainError) {
        var source = text
        // `vrt://PATH?options` wraps another raster.
        if source.lowercased().hasPrefix("vrt://") {
            source = String(source.dropFirst(6).prefix { $0 != "?" })
        }
        // A VRT may be given inline as XML instead of a file name.
        if source.hasPrefix("<") {
            if Self.isNetwork(source) || source.lowercased().hasPrefix("<gdal_w") {
                guard access.allowNetwork else { throw .networkNotAllowed(path: vrt, source: "an inline web-service description") }
                return
            }
            guard let xml = CPLParseXMLString(source) else { return }
            defer { CPLDestroyXMLNode(xml) }
            try walk(xml, vrt: vrt, base: base, chain: chain)
            return
        }
        if Self.isNetwork(source) {
            guard access.allowNetwork else { throw .networkNotAllowed(path: vrt, source: text) }
            return
        }
        if relativeToVRT && !source.hasPrefix("/") { source = base + "/" + source }
        guard let physical = Self.physicalPath(of: source) else {
            if source.hasPrefix("/vsi") && !Self.archivePrefixes.contains(where: { source.hasPrefix($0) }) {
                throw .unusableRaster(path: vrt, reason: "source '\(text)' is on a GDAL virtual file system Transect does not read")
            }
            throw .unusableRaster(path: vrt, reason: "source '\(text)' does not exist")
        }
        guard isUnderRoots(physical) else { throw .sourceOutsideNamedDirectories(path: vrt, source: text) }
        let key = source.hasPrefix("/vsi") ? source : physical
        if chain.contains(key) {
            throw .unusableRaster(path: vrt, reason: "source '\(text)' leads back to a VRT that contains it (a cycle)")
        }
        guard chain.count < Self.maximumNesting else {
            throw .unusableRaster(path: vrt, reason: "VRTs nest more than \(Self.maximumNesting) deep")
        }
        try checkContents(of: source, referencedBy: vrt, chain: chain + [key])
    }

    func isUnderRoots(_ physical: String) -> Bool {
        roots.contains { root in
            physical == root || physical.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        }
    }

    // MARK: Paths

    /// GDAL's network and cloud virtual file systems (their `_streaming` variants included).
    static let networkFileSystems = ["/vsicurl", "/vsis3", "/vsigs", "/vsiaz", "/vsiadls", "/vsioss",
                                     "/vsiswift", "/vsihdfs", "/vsiwebhdfs"]
    /// URL schemes GDAL's drivers fetch from.
    static let networkSchemes = ["http://", "https://", "ftp://", "ftps://"]
    /// Connection strings of drivers that talk to servers.
    static let networkConnectionPrefixes = ["wms:", "wmts:", "wcs:", "eedai:", "eeda:", "daas:", "plmosaic:",
                                            "ngw:", "ogcapi:", "stacta:", "stacit:", "<gdal_wms", "<gdal_wmts", "<wcs_gdal"]
    /// Drivers whose local description file sends GDAL to a server.
    static let networkDrivers: Set<String> = ["WMS", "WMTS", "WCS", "HTTP", "EEDAI", "EEDA", "DAAS", "PLMOSAIC",
                                              "NGW", "OGCAPI", "STACTA", "STACIT"]
    /// Virtual file systems that read a local archive or compressed file.
    static let archivePrefixes = ["/vsizip/", "/vsigzip/", "/vsitar/", "/vsi7z/", "/vsirar/"]

    /// True when reading `path` would make GDAL talk to a server, at any level of nesting.
    static func isNetwork(_ path: String) -> Bool {
        let lower = path.lowercased()
        return networkFileSystems.contains { lower.contains($0) }
            || networkSchemes.contains { lower.contains($0) }
            || networkConnectionPrefixes.contains { lower.hasPrefix($0) }
    }

    /// The local file a path reads, with archive prefixes removed: `/vsizip//d/a.zip/x.tif`
    /// → `/d/a.zip`, `/vsizip/{/d/a.zip}/x.tif` → `/d/a.zip`, and whether it was in an archive.
    static func outermostFile(of path: String) -> (file: String, inArchive: Bool) {
        var p = Substring(path)
        var inArchive = false
        stripping: while true {
            for prefix in archivePrefixes where p.hasPrefix(prefix) {
                p = p.dropFirst(prefix.count)
                if p.hasPrefix("{"), let close = p.firstIndex(of: "}") {
                    p = p[p.index(after: p.startIndex)..<close]
                }
                inArchive = true
                continue stripping
            }
            break
        }
        return (String(p), inArchive)
    }

    /// The real path (symbolic links resolved) of the local file that `path` reads: the file
    /// itself, or the archive it lies in. Nil when there is no such file, or when `path` is on
    /// a virtual file system that reads no local file.
    static func physicalPath(of path: String) -> String? {
        let (file, inArchive) = outermostFile(of: path)
        if file.hasPrefix("/vsi") { return nil }
        if let real = realPath(file) { return real }
        guard inArchive else { return nil }
        // A path inside the archive: the archive is the longest prefix that is a regular file.
        var candidate = file
        while let slash = candidate.lastIndex(of: "/"), slash != candidate.startIndex {
            candidate = String(candidate[..<slash])
            if let real = realPath(candidate) { return isRegularFile(real) ? real : nil }
        }
        return nil
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The directory part of `path` (`.` for a bare file name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }
}
