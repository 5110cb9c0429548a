import Testing
import TransectSupport

@Suite("Layer formats by extension")
struct LayerFormatTests {
    @Test(
        "each layer extension names its format in any case; other extensions and none name none",
        arguments: [
            ("a.geojson", LayerFormat.geojson), ("dir.v1/B.GEOJSONL", .geojsonseq), ("x.geojsons", .geojsonseq), ("m.gpkg", .gpkg),
            ("m.FGB", .flatgeobuf), ("m.csv", nil), ("m.json", nil), ("gpkg", nil), (".gpkg", nil), ("m.", nil), ("a.gpkg/b", nil),
        ] as [(String, LayerFormat?)])
    func byExtension(path: String, format: LayerFormat?) {
        #expect(LayerFormat(path: path) == format)
    }

    @Test("a file's extension is what follows the last dot of its name")
    func fileExtension() {
        #expect(FileExtension.of("/a.b/c.tar.gz") == "gz")
        #expect(FileExtension.of("/a.b/c") == nil)
        #expect(FileExtension.of(".hidden") == nil)
        #expect(FileExtension.of("x.") == nil)
    }
}
