import Foundation
import Testing
import TransectSupport
import TransectTestSupport

@Suite("NumberFormatting.fixed against C's %.*f, and durations")
struct NumberFormattingFixedTests {
    /// The oracle: what glibc's printf writes, without the sign of a zero.
    static func printf(_ value: Double, _ decimals: Int) -> String {
        var s = String(format: "%.\(decimals)f", value)
        if s.hasPrefix("-"), s.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) { s.removeFirst() }
        return s
    }

    @Test("ties go to the even neighbour of the exact binary value, closed forms")
    func ties() {
        #expect(NumberFormatting.fixed(0.125, decimals: 2) == "0.12")
        #expect(NumberFormatting.fixed(0.375, decimals: 2) == "0.38")
        #expect(NumberFormatting.fixed(2.5, decimals: 0) == "2" && NumberFormatting.fixed(3.5, decimals: 0) == "4")
        #expect(NumberFormatting.fixed(-2.5, decimals: 0) == "-2" && NumberFormatting.fixed(-0.5, decimals: 0) == "0")
        // 1.005 is stored as 1.00499999999999989…: below the tie.
        #expect(NumberFormatting.fixed(1.005, decimals: 2) == "1.00")
        #expect(NumberFormatting.fixed(0, decimals: 3) == "0.000" && NumberFormatting.fixed(-0.0, decimals: 0) == "0")
        #expect(NumberFormatting.fixed(-0.0000000001, decimals: 9) == "0.000000000")
        #expect(NumberFormatting.fixed(-119.5234567, decimals: 4) == "-119.5235")
        #expect(NumberFormatting.fixed(1e22, decimals: 1) == "10000000000000000000000.0")
        #expect(NumberFormatting.fixed(.nan, decimals: 2) == "nan" && NumberFormatting.fixed(-.infinity, decimals: 2) == "-inf")
    }

    @Test("every tie k/2^n at every decimal count matches printf")
    func tiesMatchPrintf() {
        for n in 1...12 {
            for k in stride(from: 1, to: 1 << n, by: 2) {
                let value = Double(k) / Double(1 << n) + Double(n)
                for decimals in 0...9 {
                    #expect(NumberFormatting.fixed(value, decimals: decimals) == Self.printf(value, decimals), "\(value) at \(decimals)")
                    #expect(NumberFormatting.fixed(-value, decimals: decimals) == Self.printf(-value, decimals), "\(-value) at \(decimals)")
                }
            }
        }
    }

    @Test("random doubles of every magnitude, and coordinates, elevations and speeds as tracks hold them, match printf")
    func randomMatchPrintf() {
        var random = SeededRandom(seed: 10)
        for _ in 0..<20_000 {
            let value = Double(bitPattern: random.next())
            guard value.isFinite else { continue }
            let decimals = random.below(10)
            #expect(NumberFormatting.fixed(value, decimals: decimals) == Self.printf(value, decimals), "\(value) at \(decimals)")
        }
        for _ in 0..<20_000 {
            let lon = random.uniform(-180, 180)
            let elevation = random.uniform(-500, 9000)
            let speed = random.uniform(0, 400)
            #expect(NumberFormatting.fixed(lon, decimals: 9) == Self.printf(lon, 9), "\(lon)")
            #expect(NumberFormatting.fixed(elevation, decimals: 3) == Self.printf(elevation, 3), "\(elevation)")
            #expect(NumberFormatting.fixed(speed, decimals: 6) == Self.printf(speed, 6), "\(speed)")
        }
        for value in [
            Double.greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, .leastNormalMagnitude, 0x1p52, 0x1p53 - 1, 4.35, 0.0005,
        ] {
            for decimals in 0...9 {
                #expect(NumberFormatting.fixed(value, decimals: decimals) == Self.printf(value, decimals), "\(value) at \(decimals)")
            }
        }
    }

    @Test(
        "durations: rounded to the second, minutes and seconds in two digits",
        arguments: [(0, "0h 00m 00s"), (3723.4, "1h 02m 03s"), (59.5, "0h 01m 00s"), (360_000, "100h 00m 00s"), (3599.49, "0h 59m 59s")]
            as [(Double, String)])
    func durations(seconds: Double, expected: String) {
        #expect(NumberFormatting.hoursMinutesSeconds(seconds) == expected)
    }
}
