import Testing
@testable import TransectGDAL

/// GDAL's reasons quoted once: without the path again, libtiff's sentinel row and column, a
/// failed function named twice, in at most 200 characters.
@Suite("GDALReason: GDAL's reason quoted once")
struct GDALReasonTests {
    @Test(
        "the messages GDAL 3.6 gives for a truncated tiled GeoTIFF, a bare TIFF header and a text file",
        arguments: [
            (
                "TIFFReadEncodedTile:Read error at row 4294967295, col 4294967295; got 37109 bytes, expected 262144 (cut.tif, band 1: IReadBlock failed at X offset 1, Y offset 0: TIFFReadEncodedTile() failed.)",
                "cut.tif", "TIFFReadEncodedTile: Read error; got 37109 bytes, expected 262144 (band 1: IReadBlock failed at X offset 1, Y offset 0)"
            ),
            ("hdr.tif: hdr.tif:Cannot read TIFF header", "hdr.tif", "Cannot read TIFF header"),
            ("`/etc/hostname' not recognized as a supported file format.", "/etc/hostname", "not recognized as a supported file format."),
            ("no such file or directory", "x.tif", "no such file or directory"),
        ])
    func messages(reason: String, path: String, expected: String) {
        #expect(GDALReason.tidy(reason, path: path) == expected)
    }

    @Test("a reason longer than 200 characters ends in an ellipsis at 200; one that would be left empty stays as it was")
    func limits() {
        let long = String(repeating: "block read failed; ", count: 40)
        let tidy = GDALReason.tidy(long, path: "a.tif")
        #expect(tidy.count == 200 && tidy.hasSuffix("…"))
        #expect(GDALReason.tidy("a.tif:", path: "a.tif") == "a.tif:")
        // A function failing once is named once: kept.
        #expect(GDALReason.tidy("GDALOpen() failed.", path: "a.tif") == "GDALOpen() failed.")
    }

    @Test("the error messages quote the tidied reason, and temporary failures are still told by the raw one")
    func messagesAndTemporary() {
        let raw =
            "TIFFReadEncodedTile:Read error at row 4294967295, col 4294967295; got 0 bytes, expected 262144 (/vsicurl/http://h/d.tif, band 1: IReadBlock failed at X offset 0, Y offset 0: TIFFReadEncodedTile() failed.)"
        let error = TerrainError.readFailed(path: "/vsicurl/http://h/d.tif", reason: raw)
        #expect(
            error.message
                == "DEM '/vsicurl/http://h/d.tif': read failed: TIFFReadEncodedTile: Read error; got 0 bytes, expected 262144 (band 1: IReadBlock failed at X offset 0, Y offset 0)"
        )
        #expect(error.isTemporary)
        #expect(!error.message.contains("4294967295"))
    }
}
