import CGDAL
import Foundation
import Testing
import TransectSupport
import TransectTestSupport
@testable import TransectGDAL

/// What a model reads, for the CLI to keep its outputs off: named paths, VRT sources at any
/// depth, side files, archives.
@Suite("ElevationModel.inputFiles and GDALPath.localFile")
struct InputFilesTests {
    static let pam = #"<PAMDataset><Metadata><MDI key="NOTE">side file</MDI></Metadata></PAMDataset>"#

    static func real(_ path: String) -> String { SourceConfinement.realPath(path) ?? path }

    @Test("a VRT's nested sources and every source's side files are listed")
    func nestedVRTAndSideFiles() throws {
        let dir = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.file("tiles"), withIntermediateDirectories: true)
        SourceConfinementTests.writeDEM(dir.file("tiles/dem.tif"))
        try Self.pam.write(toFile: dir.file("tiles/dem.tif.aux.xml"), atomically: true, encoding: .utf8)
        try SourceConfinementTests.write(SourceConfinementTests.vrt(source: "tiles/dem.tif"), to: dir.file("inner.vrt"))
        try SourceConfinementTests.write(SourceConfinementTests.vrt(source: "inner.vrt"), to: dir.file("outer.vrt"))
        let model = try ElevationModel([dir.file("outer.vrt")])
        let listed = Set(model.inputFiles.map(Self.real))
        let expected = ["outer.vrt", "inner.vrt", "tiles/dem.tif", "tiles/dem.tif.aux.xml"].map { Self.real(dir.file($0)) }
        #expect(listed == Set(expected), "\(model.inputFiles)")
    }

    @Test("every tile of a mosaic and its side files are listed")
    func mosaicTiles() throws {
        let dir = TemporaryDirectory()
        SyntheticDEM.write(path: dir.file("a.tif"), width: 10, height: 10, geoTransform: [10, 0.01, 0, 45.1, 0, -0.01], crs: "EPSG:4326") { _, _ in 1 }
        SyntheticDEM.write(path: dir.file("b.tif"), width: 10, height: 10, geoTransform: [10.1, 0.01, 0, 45.1, 0, -0.01], crs: "EPSG:4326") { _, _ in 2 }
        try Self.pam.write(toFile: dir.file("b.tif.aux.xml"), atomically: true, encoding: .utf8)
        let model = try ElevationModel([dir.path])
        #expect(Set(model.inputFiles) == Set([dir.file("a.tif"), dir.file("b.tif"), dir.file("b.tif.aux.xml")]), "\(model.inputFiles)")
    }

    @Test("a source opened again lists what GDAL lists for it; one that no longer opens lists nothing")
    func sourceOpenedAgain() throws {
        let dir = TemporaryDirectory()
        SourceConfinementTests.writeDEM(dir.file("dem.tif"))
        try Self.pam.write(toFile: dir.file("dem.tif.aux.xml"), atomically: true, encoding: .utf8)
        let expected = try Dataset(path: dir.file("dem.tif")).fileList
        #expect(Set(expected) == Set([dir.file("dem.tif"), dir.file("dem.tif.aux.xml")]), "\(expected)")
        #expect(ElevationModel.fileList(opening: dir.file("dem.tif")) == expected)
        #expect(ElevationModel.fileList(opening: dir.file("gone.tif")).isEmpty)
    }

    @Test("a raster in a zip is listed as the zip")
    func zipArchive() throws {
        let dir = TemporaryDirectory()
        SourceConfinementTests.writeDEM(dir.file("dem.tif"))
        // GDAL writes the zip: /vsizip/ takes sequential writes.
        try #require(CPLCopyFile("/vsizip/" + dir.file("dem.zip") + "/dem.tif", dir.file("dem.tif")) == 0)
        try FileManager.default.removeItem(atPath: dir.file("dem.tif"))
        let model = try ElevationModel(["/vsizip/" + dir.file("dem.zip") + "/dem.tif"])
        #expect(model.inputFiles == [dir.file("dem.zip")])
    }

    @Test("GDAL paths map to the local file that holds them")
    func localFile() throws {
        let dir = TemporaryDirectory()
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: dir.file("a.zip")))
        let zip = dir.file("a.zip")
        #expect(GDALPath.localFile(of: "/vsizip/{\(zip)}/x.tif") == zip)
        #expect(GDALPath.localFile(of: "/vsizip/\(zip)/x.tif") == zip)
        #expect(GDALPath.localFile(of: "/vsizip/\(zip)/sub/x.tif") == zip)
        #expect(GDALPath.localFile(of: "/vsigzip/\(zip)") == zip)
        #expect(GDALPath.localFile(of: "/vsitar/{\(zip)}/x.tif") == zip)
        #expect(GDALPath.localFile(of: "/vsizip/{/vsigzip/\(zip)}/x.tif") == zip)
        #expect(GDALPath.localFile(of: "vrt://\(zip)?bands=1") == zip)
        #expect(GDALPath.localFile(of: "/d/x.tif") == "/d/x.tif")
        #expect(GDALPath.localFile(of: "x.tif") == "x.tif")
        #expect(GDALPath.localFile(of: "/vsizip/\(dir.file("none.zip"))/x.tif") == nil)
        #expect(GDALPath.localFile(of: "/vsicurl/http://127.0.0.1:9/x.tif") == nil)
        #expect(GDALPath.localFile(of: "/vsimem/x.tif") == nil)
    }
}
