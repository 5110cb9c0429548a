import Testing
import TransectVisibility

@testable import TransectCLIMeasure

@Suite("The viewshed summary's count of each class")
struct ViewshedTallyTests {
    /// Each class's cells counted one by one.
    static func counted(_ cells: [UInt8]) -> [ViewshedClass: Int] {
        var out: [ViewshedClass: Int] = [:]
        for kind in ViewshedClass.allCases { out[kind] = cells.filter { $0 == kind.rawValue }.count }
        return out
    }

    @Test(
        "the lanes' counts equal a count cell by cell, for any length about the lanes' widths and every byte value",
        arguments: [0, 1, 31, 32, 33, 255 * 32 - 1, 255 * 32, 255 * 32 + 1, 3 * 255 * 32 + 77, 100_003])
    func tallyMatchesACountCellByCell(count: Int) {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &+ UInt64(count)
        let cells = (0..<count).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // Mostly the four classes, in runs and alone, and now and then any other byte.
            let r = UInt8(truncatingIfNeeded: state >> 56)
            return r < 200 ? [0, 1, 2, 255][Int(r % 4)] : r
        }
        #expect(ViewshedCommand.tally(cells) == Self.counted(cells))
        let run = [UInt8](repeating: 255, count: count)
        #expect(ViewshedCommand.tally(run) == Self.counted(run))
    }
}
