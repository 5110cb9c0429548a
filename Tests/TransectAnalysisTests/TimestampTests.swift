import Testing
@testable import TransectAnalysis
import TransectTestSupport

@Suite("ISO 8601 timestamps")
struct TimestampTests {
    // Reference values from Python: calendar.timegm(time.strptime(s, "%Y-%m-%dT%H:%M:%S")).
    @Test(
        "known instants",
        arguments: [
            ("1970-01-01T00:00:00Z", 0.0),
            ("2000-01-01T00:00:00Z", 946_684_800),
            ("2000-02-29T12:00:00Z", 951_825_600),  // a leap day of a century leap year
            ("2000-03-01T00:00:00Z", 951_868_800),
            ("2024-02-29T23:59:59Z", 1_709_251_199),
            ("1901-12-13T20:45:52Z", -2_147_483_648),  // −2³¹
            ("2038-01-19T03:14:07Z", 2_147_483_647),  // 2³¹ − 1
            ("1969-12-31T23:59:59Z", -1),
            ("0001-01-01T00:00:00Z", -62_135_596_800),
            ("0000-03-01T00:00:00Z", -62_162_035_200),  // the algorithm's day 0
            ("9999-12-31T23:59:59Z", 253_402_300_799),
        ])
    func known(text: String, seconds: Double) throws {
        #expect(Timestamp.parseISO8601(text) == seconds)
        #expect(Timestamp.iso8601(seconds) == text)
    }

    @Test("offsets, lower case, missing zone and fractional seconds of any length")
    func variants() {
        let base = 946_684_800.0  // 2000-01-01T00:00:00Z
        #expect(Timestamp.parseISO8601("2000-01-01T01:00:00+01:00") == base)
        #expect(Timestamp.parseISO8601("2000-01-01T01:00:00+0100") == base)
        #expect(Timestamp.parseISO8601("1999-12-31T18:30:00-05:30") == base)
        #expect(Timestamp.parseISO8601("1999-12-31T18:30:00-0530") == base)
        #expect(Timestamp.parseISO8601("2000-01-01T00:00:00+00:00") == base)
        #expect(Timestamp.parseISO8601("2000-01-01t00:00:00z") == base)
        #expect(Timestamp.parseISO8601("2000-01-01 00:00:00Z") == base)
        #expect(Timestamp.parseISO8601("2000-01-01T00:00:00") == base)  // no zone: UTC
        #expect(Timestamp.parseISO8601("2000-01-01T00:00:00.5Z") == base + 0.5)
        #expect(Timestamp.parseISO8601("2000-01-01T00:00:00.250Z") == base + 0.25)
        #expect(Timestamp.parseISO8601("2000-01-01T00:00:00.000000000000000000001Z") == base)
        #expect(Timestamp.parseISO8601("2000-01-01T00:00:00.75+01:00") == base - 3600 + 0.75)
        // The Mojstrovka GPX's times: seven decimals before 1970. Python:
        // float(Decimal(calendar.timegm(...)) + Decimal("0.2073437")) = -2147483647.7926562.
        #expect(Timestamp.parseISO8601("1901-12-13T20:45:52.2073437Z") == -2_147_483_647.792_656_2)
    }

    @Test(
        "invalid dates and malformed text are rejected",
        arguments: [
            "2001-02-29T00:00:00Z",  // 2001 is not a leap year
            "1900-02-29T00:00:00Z",  // divisible by 100, not by 400
            "2100-02-29T00:00:00Z",
            "2000-04-31T00:00:00Z", "2000-13-01T00:00:00Z", "2000-00-10T00:00:00Z", "2000-01-00T00:00:00Z",
            "2000-01-01T24:00:00Z", "2000-01-01T23:60:00Z", "2000-01-01T23:59:60Z",
            "2000-01-01T00:00:00+24:00", "2000-01-01T00:00:00+01:60", "2000-01-01T00:00:00+1",
            "2000-01-01", "2000-01-01T00:00Z", "2000-1-01T00:00:00Z", "20000-01-01T00:00:00Z",
            "2000-01-01T00:00:00.Z", "2000-01-01T00:00:00ZZ", "2000-01-01T00:00:00 ", " 2000-01-01T00:00:00Z",
            "2000-01-01X00:00:00Z", "2000-01-01T00:00:00UTC", "", "yesterday", "２０００-01-01T00:00:00Z",
        ])
    func rejected(text: String) {
        #expect(Timestamp.parseISO8601(text) == nil)
    }

    @Test("milliseconds are written only when there are some, rounded to the nearest")
    func writing() {
        #expect(Timestamp.iso8601(946_684_800.25) == "2000-01-01T00:00:00.250Z")
        #expect(Timestamp.iso8601(946_684_800.0004) == "2000-01-01T00:00:00Z")
        #expect(Timestamp.iso8601(946_684_799.9996) == "2000-01-01T00:00:00Z")  // carries into the next day
        #expect(Timestamp.iso8601(-0.001) == "1969-12-31T23:59:59.999Z")
        #expect(Timestamp.iso8601(-2_147_483_647.792_656_2) == "1901-12-13T20:45:52.207Z")
    }

    /// Days since 1970 by counting whole years and months: slow, obviously right, and sharing
    /// nothing with Hinnant's algorithm.
    static func naiveDays(year: Int, month: Int, day: Int) -> Int {
        func leap(_ y: Int) -> Bool { y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) }
        var days = 0
        if year >= 1970 { for y in 1970..<year { days += leap(y) ? 366 : 365 } } else { for y in year..<1970 { days -= leap(y) ? 366 : 365 } }
        let lengths = [31, leap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        for m in 0..<(month - 1) { days += lengths[m] }
        return days + day - 1
    }

    @Test("days from civil and back agree with counting days, for every day of 1896–2105 and random years 0–9999")
    func calendar() {
        var day = Self.naiveDays(year: 1896, month: 1, day: 1)
        for year in 1896...2105 {
            for month in 1...12 {
                for d in 1...Timestamp.daysInMonth(year: year, month: month) {
                    #expect(Timestamp.daysFromCivil(year: year, month: month, day: d) == day)
                    let back = Timestamp.civilFromDays(day)
                    #expect(back.year == year && back.month == month && back.day == d)
                    day += 1
                }
            }
        }
        var random = SeededRandom(seed: 8601)
        for _ in 0..<500 {
            let year = random.below(10_000)
            let month = 1 + random.below(12)
            let d = 1 + random.below(Timestamp.daysInMonth(year: year, month: month))
            let n = Timestamp.daysFromCivil(year: year, month: month, day: d)
            #expect(n == Self.naiveDays(year: year, month: month, day: d))
            let back = Timestamp.civilFromDays(n)
            #expect(back.year == year && back.month == month && back.day == d)
        }
    }

    @Test("text → seconds → text is exact; seconds → text → seconds within one ulp (random millisecond times, years 0–9999)")
    func roundTrips() throws {
        var random = SeededRandom(seed: 3339)
        let lo = -62_167_219_200_000
        let hi = 253_402_300_799_999  // 0000-01-01 … 9999-12-31, in ms
        for _ in 0..<2000 {
            let ms = lo + Int(random.next() % UInt64(hi - lo))
            let t = Double(ms) / 1000
            let text = Timestamp.iso8601(t)
            let back = try #require(Timestamp.parseISO8601(text))
            // The parser adds the whole seconds and the correctly rounded fraction: one more
            // rounding than Double(ms) / 1000, so the two may differ by one ulp.
            #expect((back - t).magnitude <= t.ulp, "\(text)")
            #expect(Timestamp.iso8601(back) == text)
        }
    }
}
