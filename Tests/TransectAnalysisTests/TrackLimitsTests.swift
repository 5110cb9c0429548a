import Testing
@testable import TransectSupport
@testable import TransectGeodesy
@testable import TransectAnalysis
import TransectTestSupport

@Suite("track limits and the point text of messages")
struct TrackLimitsTests {
    /// 11.1 km along the meridian 10° E; its length from PROJ.
    static let track = Track(segments: [[TrackPoint(longitude: 10, latitude: 45), TrackPoint(longitude: 10, latitude: 45.1)]])
    static let length = ProjGeodesic.wgs84.inverse(45, 10, 45.1, 10).s12

    /// 12345678 → "12,345,678", written out digit by digit.
    static func commas(_ n: Int) -> String {
        let digits = Array(String(n))
        var out = ""
        for (k, d) in digits.enumerated() {
            if k > 0 && (digits.count - k) % 3 == 0 { out += "," }
            out.append(d)
        }
        return out
    }

    @Test("a segment that would densify past Track.maxPoints is refused with the count 1 + ⌈length / segment⌉")
    func densifiedTooLarge() {
        let segment = 0.001
        let points = 1 + (Self.length / segment).rounded(.up)
        #expect(points > Track.maxPoints)
        let error = TrackLimitError.densifiedTooLarge(maxSegmentMetres: segment, points: points)
        #expect(throws: error) { try Self.track.checkDensifiedCount(maxSegmentMetres: segment) }
        #expect(error.message == "0.001 m would make \(Self.commas(Int(points))) points, more than 10,000,000; use a longer segment")
        #expect(error.isUsageError)
        // An absurd segment gives a count beyond integers, written in full.
        #expect(
            TrackLimitError.densifiedTooLarge(maxSegmentMetres: 1e-300, points: 1e304).message
                == "1e-300 m would make 1e+304 points, more than 10,000,000; use a longer segment")
    }

    @Test("a segment whose count stays within the limit passes", arguments: [0.01, 50, 1e6])
    func withinLimit(segment: Double) throws {
        #expect(1 + (Self.length / segment).rounded(.up) <= Track.maxPoints)
        try Self.track.checkDensifiedCount(maxSegmentMetres: segment)
    }

    @Test("densifiedChecked refuses before densifying, and otherwise gives the densified track: 1 + ⌈length / segment⌉ points")
    func densifiedChecked() throws {
        let segment = 0.001
        #expect(throws: TrackLimitError.densifiedTooLarge(maxSegmentMetres: segment, points: 1 + (Self.length / segment).rounded(.up))) {
            try Self.track.densifiedChecked(maxSegmentMetres: segment)
        }
        let dense = try Self.track.densifiedChecked(maxSegmentMetres: 1000)
        #expect(dense.pointCount == 1 + Int((Self.length / 1000).rounded(.up)))
        #expect(dense.points.allSatisfy { $0.time == nil })
        let timed = Track(segments: [[TrackPoint(longitude: 10, latitude: 45, time: 0), TrackPoint(longitude: 10, latitude: 45.1, time: 120)]])
        // Inserted points take times in proportion to distance, or none when asked.
        let interpolated = try timed.densifiedChecked(maxSegmentMetres: 1000)
        #expect(interpolated.points.allSatisfy { $0.time != nil })
        let untimed = try timed.densifiedChecked(maxSegmentMetres: 1000, interpolatingTimes: false)
        #expect(untimed.points.map(\.time) == [0] + Array(repeating: nil, count: untimed.pointCount - 2) + [120])
    }

    @Test("points in messages: at most eight decimals, whole numbers without a point, no negative zero")
    func coordinateText() {
        #expect(GeoPoint(longitude: -119.5, latitude: 37.75).coordinateText == "-119.5,37.75")
        #expect(GeoPoint(longitude: 11, latitude: -0.000000001).coordinateText == "11,0")
        #expect(GeoPoint(longitude: 1.123456789, latitude: 2.000000006).coordinateText == "1.12345679,2.00000001")
        #expect(NumberFormatting.shortest(.nan) == "nan" && NumberFormatting.shortest(1e15) == "1000000000000000.0" && NumberFormatting.shortest(-7) == "-7")
        #expect(NumberFormatting.rounded(-2.5, decimals: 0) == -3 && NumberFormatting.rounded(0.125, decimals: 2) == 0.13)
    }
}
