import CGDAL
import Foundation
import Testing
import TransectGeodesy
import TransectTestSupport
@testable import TransectGDAL

/// GDAL reads only what the user named: no raw-file VRT bands, no FIFOs, devices, `/proc` or
/// `/sys`, VRT sources beside the named paths or raster files elsewhere (only beside or below
/// `--confine`'s directories when confined), no network without `--allow-network`, and a
/// source that cannot be read is an error, never no data.
@Suite("SourceConfinement: what a DEM may make GDAL read")
struct SourceConfinementTests {
    /// A 0.001° grid over lon 10…10.2, lat 45…45.1 (200 × 100 cells), as in ElevationModelTests.
    static let geoGT = [10.0, 0.001, 0, 45.1, 0, -0.001]

    static func writeDEM(_ path: String) {
        SyntheticDEM.write(path: path, width: 200, height: 100, geoTransform: geoGT, crs: "EPSG:4326") { c, r in
            Double(100 + c + r)
        }
    }

    /// A one-band VRT over `source` (written as given, relative to the VRT when `relative`).
    static func vrt(source: String, relative: Bool = true) -> String {
        """
        <VRTDataset rasterXSize="200" rasterYSize="100">
          <SRS>EPSG:4326</SRS>
          <GeoTransform>10, 0.001, 0, 45.1, 0, -0.001</GeoTransform>
          <VRTRasterBand dataType="Float64" band="1">
            <SimpleSource>
              <SourceFilename relativeToVRT="\(relative ? 1 : 0)">\(source)</SourceFilename>
              <SourceBand>1</SourceBand>
            </SimpleSource>
          </VRTRasterBand>
        </VRTDataset>
        """
    }

    static func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// `--confine DIR` over `directory` (a real path: the temporary directories are).
    static func confined(_ directory: String) -> DataAccess { DataAccess(confinement: [directory]) }

    /// The terrain error `body` throws, or nil when it throws none (another error fails the test).
    static func terrainError(_ body: () throws -> Void) -> TerrainError? {
        do { try body() } catch let error as TerrainError { return error } catch {
            Issue.record("not a TerrainError: \(error)")
        }
        return nil
    }

    @Test("a VRT with a raw band over a plain file is refused with our message, before GDAL reads it")
    func rawBand() throws {
        let dir = TemporaryDirectory()
        try String(repeating: "root:x:0:0:root:/root:/bin/sh\n", count: 20).write(toFile: dir.file("secret.txt"), atomically: true, encoding: .utf8)
        try Self.write(
            """
            <VRTDataset rasterXSize="10" rasterYSize="10">
              <SRS>EPSG:4326</SRS><GeoTransform>10, 0.1, 0, 46, 0, -0.1</GeoTransform>
              <VRTRasterBand dataType="Byte" band="1" subClass="VRTRawRasterBand">
                <SourceFilename relativeToVRT="1">secret.txt</SourceFilename>
                <ImageOffset>0</ImageOffset><PixelOffset>1</PixelOffset><LineOffset>10</LineOffset>
              </VRTRasterBand>
            </VRTDataset>
            """, to: dir.file("raw.vrt"))
        let error = Self.terrainError { _ = try ElevationModel([dir.file("raw.vrt")]) }
        let text = try #require(error?.message)
        #expect(text.hasPrefix("DEM '\(dir.file("raw.vrt"))': has a raw-file band (VRTRawRasterBand)"), "\(text)")
        #expect(error?.isUsageError == false)
    }

    @Test("GDAL is configured to refuse raw VRT bands and Python pixel functions, and to bound HTTP waits")
    func gdalConfiguration() {
        prepareGDAL()
        // What a model opened with --allow-network sets, where the environment does not.
        GDALEnvironment.enableNetworkReads()
        func option(_ key: String) -> String? { CPLGetConfigOption(key, nil).map { String(cString: $0) } }
        #expect(option("GDAL_VRT_ENABLE_RAWRASTERBAND") == "NO")
        #expect(option("GDAL_VRT_ENABLE_PYTHON") == "NO")
        for key in ["GDAL_HTTP_TIMEOUT", "GDAL_HTTP_CONNECTTIMEOUT", "GDAL_HTTP_MAX_RETRY", "GDAL_HTTP_RETRY_DELAY"] {
            let value = option(key).flatMap { Int($0) }
            #expect(value != nil && value! <= 60, "\(key)")
        }
        #expect(option("CPL_VSIL_CURL_ALLOWED_EXTENSIONS")?.split(separator: ",").contains(".tif") == true)
    }

    @Test(
        "confined, a VRT whose source escapes the directory is refused, naming the VRT and the source; unconfined, it is read",
        arguments: ["absolute", "parent", "symlink", "inline"])
    func escapingSource(kind: String) throws {
        let root = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: root.file("named"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root.file("other"), withIntermediateDirectories: true)
        Self.writeDEM(root.file("other/dem.tif"))
        let vrtPath = root.file("named/dem.vrt")
        let source: String
        switch kind {
        case "absolute":
            source = try SharedData.path("N44W072.hgt")
            try Self.write(Self.vrt(source: source, relative: false), to: vrtPath)
        case "parent":
            source = "../other/dem.tif"
            try Self.write(Self.vrt(source: source), to: vrtPath)
        case "symlink":
            source = "link.tif"
            try FileManager.default.createSymbolicLink(atPath: root.file("named/link.tif"), withDestinationPath: root.file("other/dem.tif"))
            try Self.write(Self.vrt(source: source), to: vrtPath)
        default:
            // A VRT given inline as a source, itself pointing outside.
            source = "../other/dem.tif"
            let inner = Self.vrt(source: source).replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            try Self.write(Self.vrt(source: inner), to: vrtPath)
        }
        let error = Self.terrainError { _ = try ElevationModel([vrtPath], access: Self.confined(root.file("named"))) }
        #expect(error == TerrainError.outsideConfinement(path: vrtPath, source: source, directories: [root.file("named")]))
        #expect(error?.message.contains("lies outside the directories given with --confine (\(root.file("named")))") == true)
        // Without --confine each of these sources is a GeoTIFF or an SRTM tile: read.
        #expect(throws: Never.self) { _ = try ElevationModel([vrtPath]) }
    }

    @Test("a VRT over a sibling file, or one in a subdirectory, reads the same heights as the file")
    func siblingAccepted() throws {
        let dir = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.file("tiles"), withIntermediateDirectories: true)
        Self.writeDEM(dir.file("dem.tif"))
        Self.writeDEM(dir.file("tiles/dem.tif"))
        try Self.write(Self.vrt(source: "dem.tif"), to: dir.file("sibling.vrt"))
        try Self.write(Self.vrt(source: "tiles/dem.tif"), to: dir.file("below.vrt"))
        // A nested VRT beside it, over the sibling.
        try Self.write(Self.vrt(source: "sibling.vrt"), to: dir.file("nested.vrt"))
        let points = [GeoPoint(longitude: 10.0105, latitude: 45.0895), GeoPoint(longitude: 10.1505, latitude: 45.0205)]
        let expected = try ElevationModel([dir.file("dem.tif")]).elevations(at: points, interpolation: .nearest)
        #expect(expected == [120.0, 329.0])
        for name in ["sibling.vrt", "below.vrt", "nested.vrt"] {
            let model = try ElevationModel([dir.file(name)])
            #expect(try model.elevations(at: points, interpolation: .nearest) == expected, "\(name)")
        }
    }

    @Test(
        "a VRT whose source is missing, or that reaches itself, is an error when opened",
        arguments: ["missing", "self", "cycle"])
    func missingAndCycles(kind: String) throws {
        let dir = TemporaryDirectory()
        switch kind {
        case "missing":
            try Self.write(Self.vrt(source: "nothere.tif"), to: dir.file("a.vrt"))
        case "self":
            try Self.write(Self.vrt(source: "a.vrt"), to: dir.file("a.vrt"))
        default:
            try Self.write(Self.vrt(source: "b.vrt"), to: dir.file("a.vrt"))
            try Self.write(Self.vrt(source: "a.vrt"), to: dir.file("b.vrt"))
        }
        let error = Self.terrainError { _ = try ElevationModel([dir.file("a.vrt")]) }
        let text = try #require(error?.message)
        switch kind {
        case "missing": #expect(text == "DEM '\(dir.file("a.vrt"))': source 'nothere.tif' does not exist")
        case "self": #expect(text == "DEM '\(dir.file("a.vrt"))': source 'a.vrt' leads back to a VRT that contains it (a cycle)")
        default: #expect(text.hasSuffix("source 'a.vrt' leads back to a VRT that contains it (a cycle)"), "\(text)")
        }
    }

    @Test(
        "network paths are refused without network access, named and inside VRTs and archives",
        arguments: [
            "/vsicurl/http://127.0.0.1:9/x.tif", "/vsizip/{/vsicurl/http://127.0.0.1:9/x.zip}/x.tif",
            "/vsis3/bucket/x.tif", "https://127.0.0.1:9/x.tif", "WMS:http://127.0.0.1:9/wms",
        ])
    func networkRefused(path: String) throws {
        let named = Self.terrainError { _ = try ElevationModel([path]) }
        #expect(named == TerrainError.networkNotAllowed(path: path, source: nil))
        #expect(named?.isUsageError == true)
        #expect(named?.message.contains("--allow-network") == true)

        let dir = TemporaryDirectory()
        try Self.write(Self.vrt(source: path, relative: false), to: dir.file("net.vrt"))
        let inVRT = Self.terrainError { _ = try ElevationModel([dir.file("net.vrt")]) }
        #expect(inVRT == TerrainError.networkNotAllowed(path: dir.file("net.vrt"), source: path))
        #expect(inVRT?.isUsageError == false)
    }

    @Test("a local web-service description a VRT names counts as network")
    func webServiceDescription() throws {
        let dir = TemporaryDirectory()
        try Self.write(
            """
            <GDAL_WMS><Service name="TMS"><ServerUrl>http://127.0.0.1:9/${z}/${x}/${y}.png</ServerUrl></Service>
            <DataWindow><UpperLeftX>-180</UpperLeftX><UpperLeftY>90</UpperLeftY><LowerRightX>180</LowerRightX>
            <LowerRightY>-90</LowerRightY><TileLevel>2</TileLevel><TileCountX>1</TileCountX><TileCountY>1</TileCountY></DataWindow>
            <BlockSizeX>256</BlockSizeX><BlockSizeY>256</BlockSizeY><BandsCount>1</BandsCount></GDAL_WMS>
            """, to: dir.file("service.xml"))
        try Self.write(Self.vrt(source: "service.xml"), to: dir.file("dem.vrt"))
        let error = Self.terrainError { _ = try ElevationModel([dir.file("dem.vrt")]) }
        guard case .networkNotAllowed(let path, let source?) = error else {
            Issue.record("expected a network refusal, got \(String(describing: error))")
            return
        }
        #expect(path == dir.file("dem.vrt") && source == dir.file("service.xml"))
    }

    @Test("with network access a refused connection fails at once with GDAL's network error")
    func networkAllowedFailsFast() {
        let path = "/vsicurl/http://127.0.0.1:9/x.tif"
        let error = Self.terrainError { _ = try ElevationModel([path], access: DataAccess(allowNetwork: true)) }
        guard case .cannotOpen(let named, let reason) = error else {
            Issue.record("expected cannotOpen, got \(String(describing: error))")
            return
        }
        #expect(named == path)
        #expect(!reason.isEmpty)
    }

    @Test("a truncated GeoTIFF opens, but its range and a read past the cut are errors, not no data")
    func truncatedGeoTIFF() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("cut.tif")
        SyntheticDEM.write(path: path, width: 400, height: 400, geoTransform: [10, 0.001, 0, 45.4, 0, -0.001], crs: "EPSG:4326") { c, r in
            Double(c + r)
        }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 200_000)
        try handle.close()
        let model = try ElevationModel([path])
        #expect(throws: TerrainError.self) { _ = try model.elevationRange() }
        let error = Self.terrainError { _ = try model.elevationRange() }
        #expect(error?.message.hasPrefix("DEM '\(path)': read failed:") == true, "\(String(describing: error))")
        // The last rows lie beyond the cut.
        #expect(throws: TerrainError.self) { _ = try model.elevations(at: [GeoPoint(longitude: 10.2, latitude: 45.0005)]) }
    }

    @Test("the range is exact, and nil only when every cell is no data")
    func rangeAndNoData() throws {
        let dir = TemporaryDirectory()
        Self.writeDEM(dir.file("dem.tif"))
        let range = try #require(try ElevationModel([dir.file("dem.tif")]).elevationRange())
        #expect(range.min == 100 && range.max == 100 + 199 + 99 && !range.approximate)
        SyntheticDEM.write(
            path: dir.file("empty.tif"), width: 20, height: 20, geoTransform: Self.geoGT, crs: "EPSG:4326",
            noData: -9999
        ) { _, _ in -9999 }
        #expect(try ElevationModel([dir.file("empty.tif")]).elevationRange() == nil)
    }

    // MARK: Sources outside the named directories, and --confine

    @Test("a VRT in one directory over read-only tiles in another reads the tiles' heights, as gdalbuildvrt users expect")
    func vrtOverTilesElsewhere() throws {
        let root = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: root.file("tiles"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root.file("work"), withIntermediateDirectories: true)
        Self.writeDEM(root.file("tiles/dem.tif"))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: root.file("tiles/dem.tif"))
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: root.file("tiles"))
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root.file("tiles")) }
        try Self.write(Self.vrt(source: root.file("tiles/dem.tif"), relative: false), to: root.file("work/all.vrt"))
        let points = [GeoPoint(longitude: 10.0105, latitude: 45.0895), GeoPoint(longitude: 10.1505, latitude: 45.0205)]
        let model = try ElevationModel([root.file("work/all.vrt")])
        #expect(try model.elevations(at: points, interpolation: .nearest) == [120, 329])
        // --confine over the VRT's directory alone refuses the tiles; over both it reads them.
        let refused = Self.terrainError { _ = try ElevationModel([root.file("work/all.vrt")], access: Self.confined(root.file("work"))) }
        #expect(
            refused
                == TerrainError.outsideConfinement(path: root.file("work/all.vrt"), source: root.file("tiles/dem.tif"), directories: [root.file("work")]))
        let both = DataAccess(confinement: [root.file("work"), root.file("tiles")])
        #expect(try ElevationModel([root.file("work/all.vrt")], access: both).elevations(at: points, interpolation: .nearest) == [120, 329])
    }

    @Test("--confine refuses a named DEM outside its directories, naming them")
    func confinedNamedDEM() throws {
        let root = Self.namedAndOther()
        let error = Self.terrainError { _ = try ElevationModel([root.file("other/dem.tif")], access: Self.confined(root.file("named"))) }
        #expect(error == TerrainError.outsideConfinement(path: root.file("other/dem.tif"), source: nil, directories: [root.file("named")]))
        #expect(error?.message == "DEM '\(root.file("other/dem.tif"))': lies outside the directories given with --confine (\(root.file("named")))")
        #expect(throws: Never.self) { _ = try ElevationModel([root.file("other/dem.tif")], access: Self.confined(root.path)) }
    }

    @Test(
        "a VRT source that is a FIFO, a device, under /proc or /sys, or a text file elsewhere is refused, confined or not",
        arguments: ["fifo", "/dev/zero", "/proc/self/environ", "/sys/kernel/mm/transparent_hugepage/enabled", "/etc/passwd"])
    func specialSources(kind: String) throws {
        let dir = TemporaryDirectory()
        let source: String
        if kind == "fifo" {
            // Beside the VRT: GDAL would wait on it for a writer that never comes.
            source = dir.file("pipe.tif")
            #expect(mkfifo(source, 0o600) == 0)
        } else {
            source = kind
        }
        try Self.write(Self.vrt(source: source, relative: false), to: dir.file("s.vrt"))
        for access in [DataAccess.local, Self.confined("/")] {
            // Confined to /, /etc/passwd is inside, and GDAL opens a VRT's sources only when it reads them.
            if kind == "/etc/passwd" && access != .local { continue }
            let error = Self.terrainError { _ = try ElevationModel([dir.file("s.vrt")], access: access) }
            let text = try #require(error?.message)
            #expect(text.hasPrefix("DEM '\(dir.file("s.vrt"))': source '\(source)' "), "\(text)")
            let why =
                switch kind {
                case "fifo": "is a FIFO (a named pipe), not a file; Transect reads only files"
                case "/dev/zero": "is a device, not a file; Transect reads only files"
                case "/etc/passwd": "is not a raster GDAL reads with a file driver; Transect refuses it"
                default: "which holds the system's state, not rasters; Transect reads only files"
                }
            #expect(text.hasSuffix(why), "\(text)")
        }
    }

    @Test("a named DEM that is a FIFO or a device is refused at once, not waited on", arguments: ["fifo", "/dev/zero", "/proc/self/mem"])
    func specialNamedDEM(kind: String) throws {
        let dir = TemporaryDirectory()
        let path = kind == "fifo" ? dir.file("dem.tif") : kind
        if kind == "fifo" { #expect(mkfifo(path, 0o600) == 0) }
        let error = Self.terrainError { _ = try ElevationModel([path]) }
        let text = try #require(error?.message)
        #expect(text.hasPrefix("DEM '\(path)': is "), "\(text)")
        #expect(text.hasSuffix("; Transect reads only files"), "\(text)")
    }

    // MARK: Names as GDAL reads them (review findings, 1)

    /// A directory `named` holding the VRT and `other` holding a DEM outside it.
    static func namedAndOther() -> TemporaryDirectory {
        let root = TemporaryDirectory()
        try? FileManager.default.createDirectory(atPath: root.file("named"), withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(atPath: root.file("other"), withIntermediateDirectories: true)
        writeDEM(root.file("other/dem.tif"))
        return root
    }

    @Test(
        "element and attribute names are matched ignoring case, as GDAL's CPLGetXMLNode matches them",
        arguments: [
            #"<sourcefilename relativeToVRT="1">SRC</sourcefilename>"#,
            #"<SOURCEFILENAME RELATIVETOVRT="1">SRC</SOURCEFILENAME>"#,
            #"<SourceFileName relativetovrt="1">SRC</SourceFileName>"#,
        ])
    func caseOfNames(element: String) throws {
        let root = Self.namedAndOther()
        let vrtPath = root.file("named/dem.vrt")
        let text = Self.vrt(source: "SRC").replacingOccurrences(
            of: #"<SourceFilename relativeToVRT="1">SRC</SourceFilename>"#,
            with: element.replacingOccurrences(of: "SRC", with: "../other/dem.tif"))
        #expect(text.contains("../other/dem.tif"))
        try Self.write(text, to: vrtPath)
        let error = Self.terrainError { _ = try ElevationModel([vrtPath], access: Self.confined(root.file("named"))) }
        #expect(error == TerrainError.outsideConfinement(path: vrtPath, source: "../other/dem.tif", directories: [root.file("named")]))
    }

    @Test(
        "a raw band is refused whatever the case of its subclass or attribute name",
        arguments: [#"subClass="vrtRawRasterBand""#, #"subClass="VRTRAWRASTERBAND""#, #"SUBCLASS="VRTRawRasterBand""#])
    func rawBandCase(attribute: String) throws {
        let dir = TemporaryDirectory()
        try String(repeating: "secret\n", count: 40).write(toFile: dir.file("secret.txt"), atomically: true, encoding: .utf8)
        try Self.write(
            """
            <VRTDataset rasterXSize="10" rasterYSize="10">
              <SRS>EPSG:4326</SRS><GeoTransform>10, 0.1, 0, 46, 0, -0.1</GeoTransform>
              <VRTRasterBand dataType="Byte" band="1" \(attribute)>
                <SourceFilename relativeToVRT="1">secret.txt</SourceFilename>
                <ImageOffset>0</ImageOffset><PixelOffset>1</PixelOffset><LineOffset>10</LineOffset>
              </VRTRasterBand>
            </VRTDataset>
            """, to: dir.file("raw.vrt"))
        let error = Self.terrainError { _ = try ElevationModel([dir.file("raw.vrt")]) }
        #expect(
            error?.message.hasPrefix("DEM '\(dir.file("raw.vrt"))': has a raw-file band (VRTRawRasterBand)") == true,
            "\(String(describing: error))")
    }

    @Test(
        "relativeToVRT is read as GDAL 3.6 reads it: atoi in sources, CPLTestBool elsewhere",
        arguments: [
            ("1", [true]), ("0", [false]), ("01", [true]), ("2", [true]), ("1x", [true]),
            ("true", [true, false]), ("yes", [true, false]), ("", [true, false]), ("off", [false]), ("FALSE", [false]),
        ])
    func relativeReadings(flag: String, readings: [Bool]) {
        #expect(SourceConfinement.relativeReadings(of: flag) == readings)
    }

    @Test(
        "a source GDAL resolves beside the VRT (relativeToVRT 01, 2, true) is checked there",
        arguments: ["01", "2", "true", "yes"])
    func relativeFlagVariants(flag: String) throws {
        let root = Self.namedAndOther()
        let vrtPath = root.file("named/dem.vrt")
        // "01" and "2" are relative for GDAL (atoi); "true" is not in a SimpleSource, but may be
        // elsewhere, so both resolutions are checked. Beside the VRT, ../other is outside.
        try Self.write(Self.vrt(source: "../other/dem.tif").replacingOccurrences(of: #"relativeToVRT="1""#, with: #"relativeToVRT="\#(flag)""#), to: vrtPath)
        let error = Self.terrainError { _ = try ElevationModel([vrtPath], access: Self.confined(root.file("named"))) }
        #expect(error == TerrainError.outsideConfinement(path: vrtPath, source: "../other/dem.tif", directories: [root.file("named")]))

        // And a source beside the VRT with such a flag is read, as GDAL reads it.
        Self.writeDEM(root.file("named/dem.tif"))
        try Self.write(Self.vrt(source: "dem.tif").replacingOccurrences(of: #"relativeToVRT="1""#, with: #"relativeToVRT="\#(flag)""#), to: vrtPath)
        let point = GeoPoint(longitude: 10.0105, latitude: 45.0895)
        if flag == "01" || flag == "2" {
            #expect(try ElevationModel([vrtPath]).elevations(at: [point], interpolation: .nearest) == [120])
        }
    }

    /// Every element through which a VRT names a file, with `SRC` for the source.
    static let referencingVRTs: [String: String] = [
        "ComplexSource":
            #"<VRTDataset rasterXSize="200" rasterYSize="100"><VRTRasterBand dataType="Float64" band="1"><ComplexSource><SourceFilename relativeToVRT="1">SRC</SourceFilename><SourceBand>1</SourceBand></ComplexSource></VRTRasterBand></VRTDataset>"#,
        "AveragedSource":
            #"<VRTDataset rasterXSize="200" rasterYSize="100"><VRTRasterBand dataType="Float64" band="1"><AveragedSource><SourceFilename relativeToVRT="1">SRC</SourceFilename><SourceBand>1</SourceBand></AveragedSource></VRTRasterBand></VRTDataset>"#,
        "KernelFilteredSource":
            #"<VRTDataset rasterXSize="200" rasterYSize="100"><VRTRasterBand dataType="Float64" band="1"><KernelFilteredSource><SourceFilename relativeToVRT="1">SRC</SourceFilename><SourceBand>1</SourceBand><Kernel><Size>3</Size><Coefs>0 0 0 0 1 0 0 0 0</Coefs></Kernel></KernelFilteredSource></VRTRasterBand></VRTDataset>"#,
        "Overview":
            #"<VRTDataset rasterXSize="200" rasterYSize="100"><VRTRasterBand dataType="Float64" band="1"><Overview><SourceFilename relativeToVRT="1">SRC</SourceFilename><SourceBand>1</SourceBand></Overview></VRTRasterBand></VRTDataset>"#,
        "MaskBand":
            #"<VRTDataset rasterXSize="200" rasterYSize="100"><VRTRasterBand dataType="Float64" band="1"><MaskBand><VRTRasterBand dataType="Byte"><SimpleSource><SourceFilename relativeToVRT="1">SRC</SourceFilename><SourceBand>1</SourceBand></SimpleSource></VRTRasterBand></MaskBand></VRTRasterBand></VRTDataset>"#,
        "VRTDerivedRasterBand":
            #"<VRTDataset rasterXSize="200" rasterYSize="100"><VRTRasterBand dataType="Float64" band="1" subClass="VRTDerivedRasterBand"><PixelFunctionType>inv</PixelFunctionType><SimpleSource><SourceFilename relativeToVRT="1">SRC</SourceFilename><SourceBand>1</SourceBand></SimpleSource></VRTRasterBand></VRTDataset>"#,
        "VRTWarpedDataset":
            #"<VRTDataset rasterXSize="200" rasterYSize="100" subClass="VRTWarpedDataset"><SRS>EPSG:4326</SRS><GeoTransform>10, 0.001, 0, 45.1, 0, -0.001</GeoTransform><VRTRasterBand dataType="Float64" band="1" subClass="VRTWarpedRasterBand"/><GDALWarpOptions><sourcedataset relativeToVRT="1">SRC</sourcedataset></GDALWarpOptions></VRTDataset>"#,
        "vrt://":
            #"<VRTDataset rasterXSize="200" rasterYSize="100"><VRTRasterBand dataType="Float64" band="1"><SimpleSource><SourceFilename relativeToVRT="0">vrt://SRC?bands=1</SourceFilename><SourceBand>1</SourceBand></SimpleSource></VRTRasterBand></VRTDataset>"#,
    ]

    @Test(
        "every element through which a VRT names a file is checked",
        arguments: [
            "ComplexSource", "AveragedSource", "KernelFilteredSource", "Overview", "MaskBand",
            "VRTDerivedRasterBand", "VRTWarpedDataset", "vrt://",
        ])
    func everyReferencingElement(kind: String) throws {
        let root = Self.namedAndOther()
        let vrtPath = root.file("named/dem.vrt")
        let source = kind == "vrt://" ? root.file("other/dem.tif") : "../other/dem.tif"
        let template = try #require(Self.referencingVRTs[kind])
        try Self.write(template.replacingOccurrences(of: "SRC", with: source), to: vrtPath)
        let error = Self.terrainError { _ = try ElevationModel([vrtPath], access: Self.confined(root.file("named"))) }
        let expected = kind == "vrt://" ? "vrt://" + source + "?bands=1" : source
        #expect(error == TerrainError.outsideConfinement(path: vrtPath, source: expected, directories: [root.file("named")]), "\(kind)")
        // Unconfined, a text file in that place is refused through every element alike.
        try "root:x:0:0:root:/root:/bin/sh\n".write(toFile: root.file("other/secret.txt"), atomically: true, encoding: .utf8)
        let secret = kind == "vrt://" ? root.file("other/secret.txt") : "../other/secret.txt"
        try Self.write(template.replacingOccurrences(of: "SRC", with: secret), to: vrtPath)
        let unconfined = Self.terrainError { _ = try ElevationModel([vrtPath]) }
        #expect(unconfined?.message.contains("is not a raster GDAL reads with a file driver") == true, "\(kind): \(String(describing: unconfined))")
    }

    @Test("confined, a VRT beside the DEM whose own source lies outside is refused through a VRT that names it")
    func nestedVRTReachingOut() throws {
        let root = Self.namedAndOther()
        Self.writeDEM(root.file("named/dem.tif"))
        // inner.vrt sits beside the DEM, but reads ../other/dem.tif; GDALGetFileList of
        // outer.vrt lists only inner.vrt, so the walk before opening must recurse.
        try Self.write(Self.vrt(source: "../other/dem.tif"), to: root.file("named/inner.vrt"))
        try Self.write(Self.vrt(source: "inner.vrt"), to: root.file("named/outer.vrt"))
        let error = Self.terrainError { _ = try ElevationModel([root.file("named/outer.vrt")], access: Self.confined(root.file("named"))) }
        #expect(
            error == TerrainError.outsideConfinement(path: root.file("named/inner.vrt"), source: "../other/dem.tif", directories: [root.file("named")]))
    }

    @Test("the ROOT_PATH open option, which moves where a nested VRT finds its sources, is refused")
    func rootPathOption() throws {
        let root = Self.namedAndOther()
        try FileManager.default.createDirectory(atPath: root.file("named/sub"), withIntermediateDirectories: true)
        Self.writeDEM(root.file("named/sub/dem.tif"))
        try Self.write(Self.vrt(source: "dem.tif"), to: root.file("named/sub/inner.vrt"))
        try Self.write(
            Self.vrt(source: "sub/inner.vrt").replacingOccurrences(
                of: "<SourceBand>", with: #"<OpenOptions><ooi KEY="root_path">\#(root.file("other"))</ooi></OpenOptions><SourceBand>"#),
            to: root.file("named/outer.vrt"))
        let error = Self.terrainError { _ = try ElevationModel([root.file("named/outer.vrt")]) }
        #expect(error?.message.contains("ROOT_PATH") == true, "\(String(describing: error))")
        // Without the option the same VRTs are read.
        try Self.write(Self.vrt(source: "sub/inner.vrt"), to: root.file("named/outer.vrt"))
        #expect(throws: Never.self) { _ = try ElevationModel([root.file("named/outer.vrt")]) }
    }

    /// Names GDAL drivers claim before any file is looked for: memory at an address, a TIFF's
    /// directory, a netCDF subdataset.
    static let prefixedNames = [
        ("MEM", "MEM:::DATAPOINTER=0x1,PIXELS=10,LINES=10"),
        ("mem", "mem:::DATAPOINTER=0x10,PIXELS=2,LINES=2,BANDS=1,DATATYPE=Float64"),
        ("GTIFF_DIR", "GTIFF_DIR:1:/etc/passwd"),
        ("NETCDF", "NETCDF:\"/nonexistent/x.nc\":elevation"),
        ("DERIVED", "DERIVED_SUBDATASET:AMPLITUDE:/nonexistent/x.tif"),
    ]

    @Test("a DEM named with a GDAL driver prefix is refused, naming the prefix, before GDAL sees the name", arguments: prefixedNames)
    func namedPrefix(prefix: String, name: String) throws {
        let error = Self.terrainError { _ = try ElevationModel([name]) }
        let text = try #require(error?.message)
        let expected = prefix == "DERIVED" ? "DERIVED_SUBDATASET" : prefix
        #expect(text.contains("uses GDAL's '\(expected):' dataset name prefix"), "\(text)")
        #expect(text.hasSuffix("Transect opens only files named plainly"), "\(text)")
        #expect(text.count < 240, "\(text)")
    }

    @Test("a VRT source named with a driver prefix is refused, naming the VRT and the prefix", arguments: prefixedNames)
    func sourcePrefix(prefix: String, name: String) throws {
        let dir = TemporaryDirectory()
        Self.writeDEM(dir.file("dem.tif"))
        let escaped = name.replacingOccurrences(of: "\"", with: "&quot;")
        for relative in [false, true] {
            try Self.write(Self.vrt(source: escaped, relative: relative), to: dir.file("p.vrt"))
            let error = Self.terrainError { _ = try ElevationModel([dir.file("p.vrt")]) }
            let text = try #require(error?.message)
            #expect(text.hasPrefix("DEM '\(dir.file("p.vrt"))': source '"), "\(text)")
            #expect(text.contains("dataset name prefix"), "\(text)")
        }
        // Wrapped in vrt://, as a named DEM: the wrapped name is checked the same way.
        let wrapped = Self.terrainError { _ = try ElevationModel(["vrt://" + name]) }
        #expect(wrapped?.message.contains("dataset name prefix") == true, "\(String(describing: wrapped))")
    }

    @Test("a file whose name merely contains a colon is read as the file it is")
    func colonInFileName() throws {
        let dir = TemporaryDirectory()
        Self.writeDEM(dir.file("a:b.tif"))
        #expect(SourceConfinement.driverPrefix(of: dir.file("a:b.tif")) == nil)
        #expect(SourceConfinement.driverPrefix(of: "tile:1.tif") == "tile")
        #expect(SourceConfinement.driverPrefix(of: "vrt:///x.tif?bands=1") == nil)
        #expect(SourceConfinement.driverPrefix(of: "GTIFF_DIR:1:x.tif") == "GTIFF_DIR")
        #expect(throws: Never.self) { _ = try ElevationModel([dir.file("a:b.tif")]) }
    }

    @Test("a DEM literally named with glob characters is that file, not a pattern over its neighbours")
    func literalGlobCharacters() throws {
        let dir = TemporaryDirectory()
        Self.writeDEM(dir.file("r*.tif"))
        // A neighbour the pattern r*.tif would also match, in another CRS: mosaicking the two fails.
        SyntheticDEM.write(path: dir.file("r2.tif"), width: 10, height: 10, geoTransform: [500000, 30, 0, 4_200_000, 0, -30], crs: "EPSG:32611") { _, _ in 5 }
        let model = try ElevationModel([dir.file("r*.tif")])
        #expect(model.paths == [dir.file("r*.tif")])
        // Without the literal file, the pattern is a pattern.
        try FileManager.default.removeItem(atPath: dir.file("r*.tif"))
        #expect(try ElevationModel([dir.file("r*.tif")]).paths == [dir.file("r2.tif")])
    }
}
