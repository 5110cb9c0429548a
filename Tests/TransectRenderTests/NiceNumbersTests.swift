import Testing
@testable import TransectRender

@Suite("nice numbers, frames and label placement")
struct NiceNumbersTests {
    @Test("steps are 1, 2 or 5 × 10ⁿ and ticks land on their multiples")
    func ticks() {
        #expect(NiceNumbers.step(span: 1460, target: 6) == 200)
        #expect(NiceNumbers.step(span: 3.92, target: 8) == 0.5)
        #expect(NiceNumbers.floorNice(2345) == 2000 && NiceNumbers.floorNice(0.07) == 0.05)
        #expect(NiceNumbers.ticks(lo: 1219, hi: 2680, step: 500) == [1500, 2000, 2500])
        #expect(NiceNumbers.label(2500, step: 500) == "2,500" && NiceNumbers.label(0.5, step: 0.5) == "0.5")
    }

    @Test("UTM zones from longitude and hemisphere")
    func utm() {
        #expect(MapFrame.utmCRS(longitude: -119.5, latitude: 37.7) == "EPSG:32611")
        #expect(MapFrame.utmCRS(longitude: 13.8, latitude: 46.4) == "EPSG:32633")
        #expect(MapFrame.utmCRS(longitude: 174.8, latitude: -41.3) == "EPSG:32760")
        #expect(MapFrame.utmCRS(longitude: 180, latitude: 0) == "EPSG:32601")
        // Longitudes outside [−180, 180) are reduced first; 180° (and 540°) is −180°, zone 1.
        #expect(MapFrame.utmCRS(longitude: 540, latitude: 0) == "EPSG:32601")
        #expect(MapFrame.utmCRS(longitude: -180, latitude: 0) == "EPSG:32601")
        #expect(MapFrame.utmCRS(longitude: -540, latitude: 0) == "EPSG:32601")
        #expect(MapFrame.utmCRS(longitude: 13.8 + 720, latitude: 46.4) == "EPSG:32633")
        #expect(MapFrame.utmCRS(longitude: -119.5 - 360, latitude: -1) == "EPSG:32711")
        #expect(MapFrame.utmCRS(longitude: 179.999, latitude: 1) == "EPSG:32660")
    }

    @Test("labels never overlap what was placed before, and stay inside the image")
    func placer() {
        var placer = LabelPlacer(width: 100, height: 50)
        let a = Box(x: 10, y: 10, width: 30, height: 10)
        #expect(placer.place([a]) == a)
        #expect(placer.place([a]) == nil)
        #expect(placer.place([Box(x: 90, y: 10, width: 30, height: 10)]) == nil)
        #expect(placer.place([a, Box(x: 10, y: 25, width: 30, height: 10)]) == Box(x: 10, y: 25, width: 30, height: 10))
    }
}
