import Foundation
import Testing
import TransectCLITestSupport
import TransectTestSupport
import TransectCLI

/// An option that only does something beside another is refused without it (or beside one it
/// contradicts), before any file is read: otherwise it would be accepted and silently do nothing.
@Suite("options refused without the option they need")
struct OptionPartnerTests {
    /// A run that must be refused with exit 2 and exactly `message` as its error, leaving `dir`
    /// as empty as it was (the files the arguments name do not exist, so nothing was read).
    static func expectRefused(
        _ dir: TemporaryDirectory, _ arguments: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        expectUsageError(arguments, message, exactLine: true, sourceLocation: sourceLocation)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(left.isEmpty, "written: \(left)", sourceLocation: sourceLocation)
    }

    @Test("render: --extent and --extent-crs are two frames; one is refused rather than silently losing")
    func extentAndExtentCRS() throws {
        let dir = TemporaryDirectory()
        try Self.expectRefused(
            dir,
            [
                "render", "--no-dem", "--extent=-119.6,37.7,-119.5,37.8", "--frame-crs", "32611", "--extent-crs", "270000,4170000,280000,4180000",
                "-o", dir.file("map.png"),
            ],
            "option '--extent-crs': gives the frame in the frame's CRS, as --extent does in lon/lat; give one of them")
    }

    @Test("render: --max-segment densifies --track files, so it needs --track")
    func maxSegmentWithoutTrack() throws {
        let dir = TemporaryDirectory()
        try Self.expectRefused(
            dir, ["render", "--no-dem", "--extent=-119.6,37.7,-119.5,37.8", "--max-segment", "10", "-o", dir.file("map.png")],
            "option '--max-segment': densifies --track files before drawing them; give --track")
    }

    @Test("render: --every spaces the --frames, so it needs --frames")
    func everyWithoutFrames() throws {
        let dir = TemporaryDirectory()
        let message = "option '--every': spaces the frames written to --frames; give --frames"
        // The track does not exist: the refusal comes before it is read.
        try Self.expectRefused(dir, ["render", "--track", dir.file("missing.csv"), "--every", "5", "-o", dir.file("map.png")], message)
        // A scene's key is the option of that name, refused alike.
        let scenes = TemporaryDirectory()
        try Data(#"{"every": 5, "track": ["missing.csv"]}"#.utf8).write(to: URL(fileURLWithPath: scenes.file("s.json")))
        try Self.expectRefused(dir, ["render", "--scene", scenes.file("s.json"), "-o", dir.file("map.png")], message)
    }

    @Test("measure: --strict stops a --pairs batch, so it needs --pairs")
    func strictWithoutPairs() throws {
        let dir = TemporaryDirectory()
        try Self.expectRefused(
            dir, ["measure", "--from", "0,0,0", "--to", "0,1,0", "--strict", "-o", dir.file("out.txt")],
            "option '--strict': stops a --pairs batch at the first bad row; give --pairs")
    }

    @Test("measure: --units is for one measurement; a --pairs batch's columns are metres by name")
    func unitsWithPairs() throws {
        let dir = TemporaryDirectory()
        try Self.expectRefused(
            dir, ["measure", "--pairs", dir.file("missing.csv"), "--units", "imperial", "-o", dir.file("out.csv")],
            "option '--units': shows one --from/--to measurement; a --pairs batch writes metres, as its columns are named")
    }
}
