import Testing
import TransectGeodesy

@Suite("coordinate text LON,LAT[,Z]")
struct CoordinateTextTests {
    @Test("two or three numbers, spaces and tabs allowed around each")
    func parses() throws {
        #expect(try PointArgument.parse("-119.5, 37.7").get() == PointArgument(x: -119.5, y: 37.7))
        #expect(try PointArgument.parse("\t1e2,-2 , 3.5 ").get() == PointArgument(x: 100, y: -2, z: 3.5))
        let t = try CoordinateText.parse("1,2,3").get()
        #expect(t.x == 1 && t.y == 2 && t.z == 3)
    }

    @Test(
        "anything else is refused with the offending part",
        arguments: [
            ("0x1p3,1", "'0x1p3' in '0x1p3,1' is not a number"),
            ("1,0x10", "'0x10' in '1,0x10' is not a number"),
            ("nan,2", "'nan' in 'nan,2' is not a finite number"),
            ("1,inf", "'inf' in '1,inf' is not a finite number"),
            ("1e999,2", "'1e999' in '1e999,2' is not a finite number"),
            ("1", "'1' is not LON,LAT or LON,LAT,Z"),
            ("1,2,3,4", "'1,2,3,4' is not LON,LAT or LON,LAT,Z"),
            ("1,,2", "'' in '1,,2' is not a number"),
            ("1_000,2", "'1_000' in '1_000,2' is not a number"),
            ("1,2\u{0}5", "the coordinates contain a NUL byte"),
        ])
    func refused(text: String, message: String) {
        #expect(throws: PointError.malformed(message)) { try PointArgument.parse(text).get() }
    }

    @Test("geographic range: latitude within ±90°, longitude within ±540°")
    func ranges() {
        #expect(PointArgument.checkGeographic(longitude: 540, latitude: -90) == nil)
        #expect(PointArgument.checkGeographic(longitude: 1e308, latitude: 0) == .malformed("longitude 1e+308 is beyond ±540°"))
        #expect(PointArgument.checkGeographic(longitude: 100, latitude: 90.5) == .malformed("latitude 90.5 is beyond ±90°"))
    }

    @Test(
        "a latitude out of range whose pair is valid the other way round asks about LON,LAT",
        arguments: [
            (37.7, -119.5, "latitude -119.5 is beyond ±90° (did you mean -119.5,37.7? points are LON,LAT)"),
            (0, 90.5, "latitude 90.5 is beyond ±90° (did you mean 90.5,0? points are LON,LAT)"),
            (-90, 180, "latitude 180 is beyond ±90° (did you mean 180,-90? points are LON,LAT)"),
            // Swapped, these would still be out of range: no hint.
            (90.5, 100, "latitude 100 is beyond ±90°"),
            (0, 181, "latitude 181 is beyond ±90°"),
            (0, -1e308, "latitude -1e+308 is beyond ±90°"),
        ])
    func swappedHint(longitude: Double, latitude: Double, message: String) {
        #expect(PointArgument.checkGeographic(longitude: longitude, latitude: latitude) == .malformed(message))
    }
}
