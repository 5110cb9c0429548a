/// ISO 8601 / RFC 3339 timestamps to and from seconds since 1970-01-01T00:00:00Z (UTC), with
/// the standard library only.
///
/// Calendar arithmetic is the proleptic Gregorian calendar through Howard Hinnant's
/// *days from civil* algorithm (http://howardhinnant.github.io/date_algorithms.html): the year
/// is shifted to start on 1 March, so that the leap day is the last day of the shifted year, and
/// then split into 400-year eras of exactly 146 097 days. It is exact for every year we accept
/// (0000–9999) and needs no tables.
///
/// ```swift
/// Timestamp.parseISO8601("2000-01-01T00:00:00Z")        // 946684800
/// Timestamp.parseISO8601("2000-01-01T01:00:00+01:00")   // 946684800
/// Timestamp.iso8601(946684800.25)                       // "2000-01-01T00:00:00.250Z"
/// ```
public enum Timestamp {
    /// Parses an ISO 8601 date-time into seconds since 1970-01-01T00:00:00Z.
    ///
    /// Accepted: `YYYY-MM-DDTHH:MM:SS` (the `T` may be `t` or a space), then optional fractional
    /// seconds of any length (`.5`, `.2073437`), then `Z`/`z`, `±HH:MM` or `±HHMM`. A time with
    /// no zone is taken as UTC (GPX and most track formats record UTC). Rejected, with `nil`:
    /// anything else, including dates that do not exist (`2001-02-29`, `2000-04-31`), hours above
    /// 23, minutes or seconds above 59 (a leap second `:60` has no place on this time scale),
    /// and offsets above 23:59.
    ///
    /// The fractional part is converted by the standard library's correctly rounded decimal
    /// parser and added to the whole seconds once, so the result is the double nearest the
    /// written instant up to one rounding of the sum.
    ///
    /// - Parameter text: the timestamp, without surrounding white space.
    /// - Returns: seconds since 1970-01-01T00:00:00Z, or `nil` when `text` is not a valid time.
    /// - Complexity: O(n) in the length of `text`.
    public static func parseISO8601(_ text: String) -> Double? {
        guard let parts = parts(text) else { return nil }
        let fraction = parts.fractionDigits.isEmpty ? 0 : Double("0." + String(decoding: parts.fractionDigits, as: UTF8.self)) ?? 0
        return Double(parts.wholeSeconds) + fraction
    }

    /// The instant of ``parseISO8601(_:)`` in whole microseconds since 1970-01-01T00:00:00Z,
    /// exactly: the whole seconds × 10⁶ plus the first six digits of the fraction, later digits
    /// dropped (as Python's `datetime`, and so gpxpy, keeps them). A double holds an instant
    /// far from 1970 only to about half a microsecond (its step is 0.48 µs in 1901), so a
    /// difference of two times written to the microsecond is exact only this way.
    ///
    /// ```swift
    /// Timestamp.parseISO8601Microseconds("1901-12-13T20:45:52.2073437Z")  // -2147483647792657
    /// ```
    ///
    /// - Returns: microseconds since 1970, or `nil` when `text` is not a valid time.
    public static func parseISO8601Microseconds(_ text: String) -> Int64? {
        guard let parts = parts(text) else { return nil }
        var micro: Int64 = 0
        for k in 0..<6 { micro = micro * 10 + (k < parts.fractionDigits.count ? Int64(parts.fractionDigits[k] - 0x30) : 0) }
        return Int64(parts.wholeSeconds) * 1_000_000 + micro
    }

    /// A valid timestamp's whole seconds since 1970 (offset applied) and the digits of its
    /// fraction, as written; nil for anything ``parseISO8601(_:)`` refuses.
    private static func parts(_ text: String) -> (wholeSeconds: Int, fractionDigits: [UInt8])? {
        let b = Array(text.utf8)
        var k = 0

        /// `count` ASCII digits at `k` as an integer; advances `k`.
        func digits(_ count: Int) -> Int? {
            guard k + count <= b.count else { return nil }
            var value = 0
            for i in k..<(k + count) {
                let d = Int(b[i]) - 48
                guard d >= 0 && d <= 9 else { return nil }
                value = value * 10 + d
            }
            k += count
            return value
        }
        func expect(_ c: UInt8) -> Bool {
            guard k < b.count, b[k] == c else { return false }
            k += 1
            return true
        }

        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2) else { return nil }
        guard k < b.count, b[k] == 0x54 || b[k] == 0x74 || b[k] == 0x20 else { return nil }  // T t space
        k += 1
        guard let hour = digits(2), expect(0x3A), let minute = digits(2), expect(0x3A), let second = digits(2) else { return nil }
        guard (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }

        var fraction: [UInt8] = []
        if k < b.count, b[k] == 0x2E || b[k] == 0x2C {  // . or ,
            let start = k + 1
            k = start
            while k < b.count, b[k] >= 0x30, b[k] <= 0x39 { k += 1 }
            guard k > start else { return nil }
            fraction = Array(b[start..<k])
        }

        var offsetSeconds = 0
        if k < b.count {
            switch b[k] {
            case 0x5A, 0x7A:  // Z z
                k += 1
            case 0x2B, 0x2D:  // + -
                let sign = b[k] == 0x2D ? -1 : 1
                k += 1
                guard let oh = digits(2) else { return nil }
                _ = expect(0x3A)
                guard let om = digits(2), oh <= 23, om <= 59 else { return nil }
                offsetSeconds = sign * (oh * 3600 + om * 60)
            default:
                return nil
            }
        }
        guard k == b.count else { return nil }

        let days = daysFromCivil(year: year, month: month, day: day)
        let whole = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return (whole, fraction)
    }

    /// Formats seconds since 1970-01-01T00:00:00Z as an ISO 8601 UTC time:
    /// `2000-01-01T00:00:00Z`, or `2000-01-01T00:00:00.250Z` when the value, rounded to the
    /// nearest millisecond, has a fractional part. Milliseconds are the finest resolution
    /// written; `parseISO8601(iso8601(t))` is `t` rounded to the millisecond.
    ///
    /// - Parameter seconds: a time in seconds since 1970, finite and within ±10¹⁵ s (about
    ///   ±31 million years); years outside 0000–9999 are written with as many digits as they
    ///   need (and a sign when negative).
    /// - Returns: the time in UTC, deterministic (no locale, no time zone database).
    public static func iso8601(_ seconds: Double) -> String {
        precondition(seconds.isFinite && seconds.magnitude <= 1e15, "Timestamp.iso8601 needs a finite time within ±1e15 s")
        // Round once, to whole milliseconds, then split with floor division so that times
        // before 1970 count forward from the start of their day.
        let totalMilliseconds = Int64((seconds * 1000).rounded(.toNearestOrAwayFromZero))
        let (msDays, msOfDay) = floorDivMod(totalMilliseconds, 86_400_000)
        let (year, month, day) = civilFromDays(Int(msDays))
        let ms = Int(msOfDay)
        let hour = ms / 3_600_000
        let minute = ms / 60_000 % 60
        let second = ms / 1000 % 60
        let milli = ms % 1000

        var text = year >= 0 ? pad(year, 4) : "-" + pad(-year, 4)
        text += "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2)
        if milli != 0 { text += "." + pad(milli, 3) }
        return text + "Z"
    }

    // MARK: - Calendar (proleptic Gregorian)

    /// True for Gregorian leap years.
    static func isLeapYear(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    /// The number of days in a month (1–12) of a year.
    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (month 1–12, day 1–31).
    ///
    /// Hinnant's days-from-civil: with the year starting in March, the day of the year is
    /// ⌊(153·m' + 2)/5⌋ + d − 1 (m' = 0 for March … 11 for February), and each 400-year era
    /// holds 146 097 days; 719 468 is the day number of 1970-01-01 counted from 0000-03-01.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400  // [0, 399]
        let shiftedMonth = month > 2 ? month - 3 : month + 9  // March = 0
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1  // [0, 365]
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear  // [0, 146096]
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day number since 1970-01-01 (the inverse of
    /// `daysFromCivil`, Hinnant's civil-from-days).
    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097  // [0, 146096]
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365  // [0, 399]
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // [0, 365]
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // [0, 11]
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1  // [1, 31]
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9  // [1, 12]
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivMod(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        var q = a / b
        var r = a % b
        if r < 0 {
            q -= 1
            r += b
        }
        return (q, r)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let s = String(value)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
