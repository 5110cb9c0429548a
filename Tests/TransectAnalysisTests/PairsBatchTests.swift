import Testing
import TransectAnalysis

@Suite struct PairsBatchTests {
    static func batch(ids: Bool) -> PairsBatch {
        var batch = PairsBatch(firstNumber: 101)
        for k in 0..<10 {
            batch.append(
                from: (Double(k), -Double(k)), to: (Double(k) + 0.5, -Double(k) - 0.5), heights: (k % 3 == 0 ? Double(k) : nil, nil),
                id: ids ? "id-\(k)" : nil)
        }
        batch.coordinateProblems = [2: "c2", 7: "c7"]
        batch.heightProblems = [3: "h3", 9: "h9"]
        return batch
    }

    @Test("rows(range) is the batch of those rows: numbers, ids, ends, heights and problems, indexed from 0", arguments: [false, true])
    func rows(ids: Bool) {
        let whole = Self.batch(ids: ids)
        for range in [0..<10, 0..<4, 3..<8, 7..<10, 5..<5] {
            let part = whole.rows(range)
            #expect(part.count == range.count)
            #expect(part.firstNumber == whole.firstNumber + range.lowerBound)
            for (j, k) in range.enumerated() {
                #expect(part.number(j) == whole.number(k))
                #expect(part.id(j) == whole.id(k))
                #expect(part.xs[2 * j] == whole.xs[2 * k] && part.xs[2 * j + 1] == whole.xs[2 * k + 1])
                #expect(part.ys[2 * j] == whole.ys[2 * k] && part.ys[2 * j + 1] == whole.ys[2 * k + 1])
                #expect(part.heights[2 * j].bitPattern == whole.heights[2 * k].bitPattern)
                #expect(part.coordinateProblems[j] == whole.coordinateProblems[k])
                #expect(part.heightProblems[j] == whole.heightProblems[k])
            }
            #expect(part.coordinateProblems.count == whole.coordinateProblems.keys.count { range.contains($0) })
            #expect(part.heightProblems.count == whole.heightProblems.keys.count { range.contains($0) })
        }
    }
}
