#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CGDAL
import TransectSupport

/// Keeps GDAL to what the user named. A raster may be a recipe that names other files (a VRT's
/// sources, nested VRTs, a web service's XML description); GDAL follows such references
/// wherever they point. Before GDAL opens a raster, its references are read and checked here:
///
/// - a VRT band that reads a file's raw bytes (`VRTRawRasterBand`) is refused, and so is the
///   open option `ROOT_PATH`, which moves where a nested VRT finds its relative sources;
/// - every element that names a file (`SourceFilename` in every kind of source, overview and
///   mask band, `SourceDataset` of a warped VRT, inline VRTs, `vrt://` strings) is checked,
///   with names compared as GDAL compares them: ignoring case;
/// - no file read may be a FIFO, a device or a socket (GDAL would wait on it or read it
///   forever), nor lie under `/proc` or `/sys` (the system's state, not rasters), whether the
///   user named it or a VRT did;
/// - a source beside or below the directories of the paths the user named (symbolic links and
///   `..` resolved) is read; one elsewhere only when it is a raster GDAL reads with a file
///   driver (one GDAL identifies by the file's bytes, not by a connection string): a VRT built
///   in `/tmp` over read-only tiles elsewhere opens, a VRT over `/etc/passwd` does not;
/// - with `--confine DIR` (``DataAccess/confinement``) the strict rule instead: every file
///   read, the named DEMs included, must lie beside or below one of those directories;
///   archives (`/vsizip/` …) count as their file;
/// - network paths (`/vsicurl/`, `/vsis3/`, `/vsigs/`, `/vsiaz/`, `/vsiadls/`, `/vsioss/`,
///   `/vsiswift/`, `/vsihdfs/`, `/vsiwebhdfs/`, URLs, even nested in `/vsizip/`) and drivers
///   that fetch from servers are refused unless ``DataAccess/allowNetwork``;
/// - a VRT that reaches itself again is a cycle, and a missing source is an error now rather
///   than a gap GDAL fills later.
///
/// After opening, the files GDAL says it uses (`GDALGetFileList`) are checked once more.
struct SourceConfinement {
    let access: DataAccess
    /// Real directories (symbolic links resolved) of the paths named: a source under one of
    /// them is read whatever it is (but a FIFO, a device or a socket), one elsewhere only when
    /// it is a raster file.
    let roots: [String]
    /// `--confine`'s directories (real paths), under which every file read must lie; nil
    /// without `--confine`.
    let confined: [String]?

    /// Nested VRTs deeper than this are refused: GDAL's own limit is near, and no DEM needs it.
    static let maximumNesting = 16

    init(named paths: [String], access: DataAccess) {
        self.access = access
        var roots: [String] = []
        for path in paths where !Self.isNetwork(path) {
            // Both the directory as written (GDAL resolves a VRT's relative sources there) and
            // the directory of the file a symbolic link leads to.
            if let file = GDALPath.localFile(of: path), let dir = Self.realPath(Self.directory(of: file)) {
                roots.append(dir)
            }
            if let real = Self.physicalPath(of: path) { roots.append(Self.directory(of: real)) }
        }
        var seen = Set<String>()
        self.roots = roots.filter { seen.insert($0).inserted }
        confined = access.confinement.map { directories in directories.map { Self.realPath($0) ?? $0 } }
    }

    // MARK: Checks

    /// Checks `path` (a path the user named) and, for a VRT, everything it references.
    /// - Returns: the sources GDAL will open on the way (nested ones included), as GDAL
    ///   names them.
    func checkBeforeOpen(_ path: String) throws(TerrainError) -> [String] {
        if Self.isNetwork(path) {
            guard access.allowNetwork else { throw .networkNotAllowed(path: path, source: nil) }
            return []
        }
        try Self.refuseDriverPrefix(path, in: nil)
        let inner = try Self.unwrappingConnection(path, in: path)
        try Self.refuseDriverPrefix(inner, in: nil)
        if let reason = Self.specialFileReason(inner) { throw .unusableRaster(path: path, reason: reason + "; Transect reads only files") }
        if let confined, let physical = Self.physicalPath(of: inner), !Self.isUnder(physical, confined) {
            throw .outsideConfinement(path: path, source: nil, directories: confined)
        }
        let key = Self.physicalPath(of: inner).map { inner.hasPrefix("/vsi") ? inner : $0 } ?? inner
        var sources: [String] = []
        if inner != path { sources.append(inner) }
        try checkContents(of: inner, referencedBy: nil, chain: [key], sources: &sources)
        return sources
    }

    /// Checks `files`, those GDAL says the dataset `name` uses now it is open, and returns them.
    func checkAfterOpen(_ files: [String], name: String) throws(TerrainError) -> [String] {
        for file in files {
            if Self.isNetwork(file) {
                guard access.allowNetwork else { throw .networkNotAllowed(path: name, source: file) }
                continue
            }
            // Files GDAL lists exist; one that vanished in between has nothing to read.
            guard let physical = Self.physicalPath(of: file) else { continue }
            if let confined {
                guard Self.isUnder(physical, confined) else { throw .outsideConfinement(path: name, source: file, directories: confined) }
            } else if let reason = Self.specialFileReason(file) {
                throw .unusableRaster(path: name, reason: "uses '\(file)', which \(reason)")
            }
        }
        return files
    }

    /// `path` is local and about to be opened: the named path (`holder` nil) or a source of
    /// the VRT `holder`.
    private func checkContents(
        of path: String, referencedBy holder: String?, chain: [String],
        sources: inout [String]
    ) throws(TerrainError) {
        GDALEnvironment.ensure()
        // Identify reads the file's first bytes only; a file GDAL cannot identify fails later
        // in GDALOpenEx with GDAL's reason.
        guard let driver = GDALIdentifyDriverEx(path, UInt32(GDAL_OF_RASTER), nil, nil),
            let cName = GDALGetDriverShortName(driver)
        else { return }
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
        try walk(xml, vrt: path, base: Self.directory(of: path), chain: chain, sources: &sources)
    }

    /// Visits `first` and its siblings, and their children, checking every reference.
    ///
    /// GDAL finds elements and attributes with `CPLGetXMLNode` and compares subclass names
    /// with `EQUAL`, both ignoring case, so every name here is compared the same way: a
    /// `<sourcefilename>` or a `subClass="vrtRawRasterBand"` is what GDAL takes it for.
    private func walk(
        _ first: UnsafeMutablePointer<CPLXMLNode>, vrt: String, base: String, chain: [String],
        sources: inout [String]
    ) throws(TerrainError) {
        var current: UnsafeMutablePointer<CPLXMLNode>? = first
        while let node = current {
            defer { current = node.pointee.psNext }
            guard node.pointee.eType == CXT_Element, let cName = node.pointee.pszValue else { continue }
            let element = String(cString: cName)
            if let subClass = CPLGetXMLValue(node, "subClass", nil), Self.equal(String(cString: subClass), "VRTRawRasterBand") {
                throw .unusableRaster(
                    path: vrt, reason: "has a raw-file band (VRTRawRasterBand), which reads any file's bytes as a raster; Transect refuses it")
            }
            // `<OOI key="ROOT_PATH">` makes a nested VRT resolve its relative sources there
            // instead of beside itself (GDAL 3.6 honours it for a VRT file).
            if Self.equal(element, "OOI"), let key = CPLGetXMLValue(node, "key", nil),
                Self.equal(String(cString: key).trimmingWhitespace, "ROOT_PATH")
            {
                throw .unusableRaster(
                    path: vrt, reason: "sets the open option ROOT_PATH, which moves where a nested VRT finds its sources; Transect refuses it")
            }
            if Self.equal(element, "SourceFilename") || Self.equal(element, "SourceDataset") {
                let text = String(cString: CPLGetXMLValue(node, "", "")).trimmingWhitespace
                let flag = String(cString: CPLGetXMLValue(node, "relativeToVRT", "0"))
                try checkReference(
                    text, relativeToVRT: Self.relativeReadings(of: flag), in: vrt, base: base,
                    chain: chain, sources: &sources)
            }
            if let child = node.pointee.psChild { try walk(child, vrt: vrt, base: base, chain: chain, sources: &sources) }
        }
    }

    /// How GDAL 3.6 may read a `relativeToVRT` attribute: `atoi` in the sources, overviews and
    /// warped VRTs (`"01"`, `"2"` and `"1x"` are relative, `"true"` is not), `CPLTestBool` in
    /// other places (`"true"`, `"yes"`, `""` are relative). The readings that apply, one or both:
    /// a reference is checked as every reading resolves it.
    static func relativeReadings(of flag: String) -> [Bool] {
        let byInteger = atoi(flag) != 0
        let byBoolean = CPLTestBoolean(flag) != 0
        return byInteger == byBoolean ? [byInteger] : [true, false]
    }

    /// GDAL's `EQUAL`: ASCII letters compared without case.
    static func equal(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.lowercased() == b.lowercased()
    }

    /// The raster a `vrt://PATH?options` string wraps (nested ones unwrapped too), or `path`
    /// itself. An option that names a root path for relative sources is refused.
    static func unwrappingConnection(_ path: String, in vrt: String) throws(TerrainError) -> String {
        var p = path
        while p.lowercased().hasPrefix("vrt://") {
            let rest = p.dropFirst(6)
            if let query = rest.firstIndex(of: "?"), rest[query...].lowercased().contains("root_path") {
                throw .unusableRaster(
                    path: vrt, reason: "'\(path)' sets the open option ROOT_PATH, which moves where a nested VRT finds its sources; Transect refuses it")
            }
            p = String(rest.prefix { $0 != "?" })
        }
        return p
    }

    /// Checks one source named inside the VRT `vrt`, as GDAL would resolve it under each of
    /// the readings of its `relativeToVRT` flag.
    private func checkReference(
        _ text: String, relativeToVRT readings: [Bool], in vrt: String, base: String,
        chain: [String], sources: inout [String]
    ) throws(TerrainError) {
        // A VRT may be given inline as XML instead of a file name.
        if text.hasPrefix("<") {
            if Self.isNetwork(text) || text.lowercased().hasPrefix("<gdal_w") {
                guard access.allowNetwork else { throw .networkNotAllowed(path: vrt, source: "an inline web-service description") }
                return
            }
            guard let xml = CPLParseXMLString(text) else { return }
            defer { CPLDestroyXMLNode(xml) }
            try walk(xml, vrt: vrt, base: base, chain: chain, sources: &sources)
            return
        }
        if Self.isNetwork(text) {
            guard access.allowNetwork else { throw .networkNotAllowed(path: vrt, source: text) }
            return
        }
        try Self.refuseDriverPrefix(text, in: vrt)
        try Self.refuseDriverPrefix(try Self.unwrappingConnection(text, in: vrt), in: vrt)
        // GDAL joins a relative name to the VRT's directory (`CPLProjectRelativeFilename`);
        // a name `CPLIsFilenameRelative` calls absolute (a leading `/`, or `://` as in
        // `vrt://x.tif`) stays as written, and so relative to the working directory.
        var candidates: [String] = []
        for relative in readings {
            let joined = relative && CPLIsFilenameRelative(text) != 0 ? base + "/" + text : text
            let source = try Self.unwrappingConnection(joined, in: vrt)
            if !candidates.contains(source) { candidates.append(source) }
        }
        var found = false
        for source in candidates {
            guard let physical = Self.physicalPath(of: source) else { continue }
            found = true
            try checkSource(source, physical: physical, text: text, in: vrt)
            let key = source.hasPrefix("/vsi") ? source : physical
            if chain.contains(key) {
                throw .unusableRaster(path: vrt, reason: "source '\(text)' leads back to a VRT that contains it (a cycle)")
            }
            guard chain.count < Self.maximumNesting else {
                throw .unusableRaster(path: vrt, reason: "VRTs nest more than \(Self.maximumNesting) deep")
            }
            if !sources.contains(source) { sources.append(source) }
            try checkContents(of: source, referencedBy: vrt, chain: chain + [key], sources: &sources)
        }
        guard found else {
            if candidates.contains(where: { $0.hasPrefix("/vsi") && !Self.archivePrefixes.contains(where: $0.hasPrefix) }) {
                throw .unusableRaster(path: vrt, reason: "source '\(text)' is on a GDAL virtual file system Transect does not read")
            }
            throw .unusableRaster(path: vrt, reason: "source '\(text)' does not exist")
        }
    }

    /// Checks the source `source` (`text` as the VRT `vrt` writes it), whose local file is
    /// `physical` (real path): never a FIFO, device or socket, nor under `/proc` or `/sys`;
    /// under `--confine`'s directories when confined; beside the named paths, or a raster
    /// GDAL reads with a file driver, when not.
    private func checkSource(_ source: String, physical: String, text: String, in vrt: String) throws(TerrainError) {
        if let reason = Self.specialFileReason(source) {
            throw .unusableRaster(path: vrt, reason: "source '\(text)' \(reason); Transect reads only files")
        }
        if let confined {
            guard Self.isUnder(physical, confined) else { throw .outsideConfinement(path: vrt, source: text, directories: confined) }
            return
        }
        guard !isUnderRoots(physical) else { return }
        guard Self.isFileRaster(source) else {
            throw .unusableRaster(
                path: vrt,
                reason:
                    "source '\(text)' lies outside the directories of the DEMs given and is not a raster GDAL reads with a file driver; Transect refuses it")
        }
    }

    func isUnderRoots(_ physical: String) -> Bool { Self.isUnder(physical, roots) }

    /// True when `physical` is one of `directories` or lies below one.
    static func isUnder(_ physical: String, _ directories: [String]) -> Bool {
        directories.contains { root in
            physical == root || physical.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        }
    }

    /// True when GDAL identifies `path` by its bytes as a raster of a file driver: one that
    /// names no connection prefix (`PG:`, `WMS:` …) and fetches nothing from a server. A text
    /// file, a key or a log is identified by no driver.
    static func isFileRaster(_ path: String) -> Bool {
        GDALEnvironment.ensure()
        guard let driver = GDALIdentifyDriverEx(path, UInt32(GDAL_OF_RASTER), nil, nil), let cName = GDALGetDriverShortName(driver)
        else { return false }
        if networkDrivers.contains(String(cString: cName).uppercased()) { return false }
        return GDALGetMetadataItem(driver, GDAL_DMD_CONNECTION_PREFIX, nil) == nil
    }

    /// Why GDAL must not read the local file of `path` (followed through symbolic links): it
    /// is a FIFO, a device or a socket, on which GDAL would wait or read without end, or it
    /// lies under `/proc` or `/sys`, whose files are the system's state. Nil for a regular
    /// file, a directory, or a name with no local file (yet).
    static func specialFileReason(_ path: String) -> String? {
        guard let file = GDALPath.localFile(of: path) else { return nil }
        let absolute = file.hasPrefix("/") ? file : (currentDirectory() ?? ".") + "/" + file
        for place in [absolute, realPath(file) ?? absolute] where isUnder(place, ["/proc", "/sys"]) {
            return "is under \(place.hasPrefix("/proc") ? "/proc" : "/sys"), which holds the system's state, not rasters"
        }
        var info = stat()
        guard stat(file, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG, S_IFDIR: return nil
        case S_IFIFO: return "is a FIFO (a named pipe), not a file"
        case S_IFSOCK: return "is a socket, not a file"
        default: return "is a device, not a file"
        }
    }

    static func currentDirectory() -> String? {
        guard let cwd = getcwd(nil, 0) else { return nil }
        defer { free(cwd) }
        return String(cString: cwd)
    }

    // MARK: Driver prefixes

    /// GDAL's dataset-name prefixes that name memory or open another file by a driver's own
    /// rule (a directory of a TIFF, a subdataset, a database, a derived band), upper-cased.
    /// Any of these is refused even where a file of that very name exists, since the driver
    /// claims the name before any file is looked for.
    static let driverPrefixes: Set<String> = [
        "MEM", "GTIFF_DIR", "GTIFF_RAW", "NETCDF", "HDF4_SDS", "HDF4_EOS", "HDF4_GR", "HDF5", "NITF_IM", "PDF", "GPKG",
        "RASTERLITE", "SQLITE", "DERIVED", "GTI", "ZARR", "TILEDB", "PG", "PGRASTER", "MYSQL", "OCI", "GEORASTER", "MSSQL",
        "ODBC", "RPFTOC", "ECRG", "ECRGTOC", "MBTILES", "JP2", "MRF", "KEA", "GRIB", "SENTINEL1_CALIB", "RS2_CALIB",
        "SENTINEL2_L1B", "SENTINEL2_L1C", "SENTINEL2_L1C_TILE", "SENTINEL2_L2A", "PDS4", "VICAR", "CALS", "NUMPY",
        "JPEG_SUBFILE", "NITF_DES",
    ]

    /// The driver prefix `name` begins with (`MEM`, `GTIFF_DIR`, …), as written, when GDAL
    /// would take it for one: a known prefix, or any `WORD:` (letters, digits, `_`, two or more)
    /// when no file of that name exists, since a driver then claims it. Nil for a plain path.
    static func driverPrefix(of name: String) -> String? {
        guard let colon = name.firstIndex(of: ":") else { return nil }
        let word = name[..<colon]
        func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") }
        func isWordByte(_ c: UInt8) -> Bool { isLetter(c) || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "_") }
        guard word.utf8.count >= 2, let first = word.utf8.first, isLetter(first), word.utf8.allSatisfy(isWordByte) else { return nil }
        // `vrt://…` strings are unwrapped and checked as the file they wrap.
        if name.dropFirst(word.count).hasPrefix("://") { return nil }
        if driverPrefixes.contains(word.uppercased()) { return String(word) }
        var info = stat()
        return lstat(name, &info) == 0 ? nil : String(word)
    }

    /// Throws when `name` (a DEM the user named, `holder` nil, or a source of the VRT
    /// `holder`) begins with a GDAL driver prefix, naming the prefix.
    static func refuseDriverPrefix(_ name: String, in holder: String?) throws(TerrainError) {
        guard let prefix = driverPrefix(of: name) else { return }
        let what =
            prefix.uppercased() == "MEM"
            ? "which makes GDAL read memory at whatever address the name gives"
            : "which makes a GDAL driver open what the rest of the name says, by its own rules"
        let shown = name.count > 60 ? String(name.prefix(60)) + "…" : name
        let reason = "GDAL's '\(prefix):' dataset name prefix, \(what); Transect opens only files named plainly"
        if let holder {
            throw .unusableRaster(path: holder, reason: "source '\(shown.printable)' uses \(reason)")
        }
        throw .unusableRaster(path: shown.printable, reason: "uses \(reason)")
    }

    // MARK: Paths

    /// GDAL's network and cloud virtual file systems (their `_streaming` variants included).
    static let networkFileSystems = [
        "/vsicurl", "/vsis3", "/vsigs", "/vsiaz", "/vsiadls", "/vsioss",
        "/vsiswift", "/vsihdfs", "/vsiwebhdfs",
    ]
    /// URL schemes GDAL's drivers fetch from.
    static let networkSchemes = ["http://", "https://", "ftp://", "ftps://"]
    /// Connection strings of drivers that talk to servers.
    static let networkConnectionPrefixes = [
        "wms:", "wmts:", "wcs:", "eedai:", "eeda:", "daas:", "plmosaic:",
        "ngw:", "ogcapi:", "stacta:", "stacit:", "<gdal_wms", "<gdal_wmts", "<wcs_gdal",
    ]
    /// Drivers whose local description file sends GDAL to a server.
    static let networkDrivers: Set<String> = [
        "WMS", "WMTS", "WCS", "HTTP", "EEDAI", "EEDA", "DAAS", "PLMOSAIC",
        "NGW", "OGCAPI", "STACTA", "STACIT",
    ]
    /// Virtual file systems that read a local archive or compressed file.
    static let archivePrefixes = ["/vsizip/", "/vsigzip/", "/vsitar/", "/vsi7z/", "/vsirar/"]

    /// True when reading `path` would make GDAL talk to a server, at any level of nesting.
    static func isNetwork(_ path: String) -> Bool {
        let lower = path.lowercased()
        return networkFileSystems.contains { lower.contains($0) }
            || networkSchemes.contains { lower.contains($0) }
            || networkConnectionPrefixes.contains { lower.hasPrefix($0) }
    }

    /// The real path (symbolic links resolved) of the local file that `path` reads: the file
    /// itself, or the archive it lies in. Nil when there is no such file, or when `path` is on
    /// a virtual file system that reads no local file.
    static func physicalPath(of path: String) -> String? {
        GDALPath.localFile(of: path).flatMap(realPath)
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
