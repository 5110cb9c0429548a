import Testing
import TransectTestSupport

@testable import TransectRender

/// The lines labels keep clear of: the bucketed answers are the plain ones, and a stroke's half
/// width counts.
@Suite("line index")
struct LineIndexTests {
    @Test("a box crosses a line within its half width, and not a pixel beyond")
    func halfWidth() {
        var index = LineIndex(width: 300, height: 200)
        index.insert([(0, 100), (300, 100)], half: 5)
        #expect(index.crosses(Box(x: 20, y: 80, width: 30, height: 15.5)))  // reaches y 95.5
        #expect(!index.crosses(Box(x: 20, y: 80, width: 30, height: 14.5)))  // stops at y 94.5
        #expect(index.crosses(Box(x: 20, y: 104, width: 30, height: 10)))
        // A diagonal, and a segment wholly off the image, which no box inside can meet.
        index.insert([(0, 0), (300, 200)], half: 1)
        #expect(index.crosses(Box(x: 145, y: 95, width: 10, height: 2)))
        index.insert([(-500, -50), (-400, -50)], half: 1)
        #expect(index.segments.count == 2)
    }

    @Test("bucketed decisions match comparing with every segment", arguments: [1, 2, 3])
    func matchesScan(seed: UInt64) {
        var g = SeededRandom(seed: seed)
        var index = LineIndex(width: 800, height: 500)
        var all: [((Double, Double), (Double, Double), Double)] = []
        for _ in 0..<60 {
            let a = (Double.random(in: -100...900, using: &g), Double.random(in: -100...600, using: &g))
            let b = (a.0 + Double.random(in: -200...200, using: &g), a.1 + Double.random(in: -200...200, using: &g))
            let half = Double.random(in: 0.5...6, using: &g)
            index.insert([a, b], half: half)
            all.append((a, b, half))
        }
        for _ in 0..<2000 {
            // Inside the image, where labels go (a segment is kept only as far as the image).
            let x = Double.random(in: 0...780, using: &g)
            let y = Double.random(in: 0...480, using: &g)
            let box = Box(x: x, y: y, width: Double.random(in: 1...(800 - x), using: &g), height: Double.random(in: 1...(500 - y), using: &g))
            let scan = all.contains { LineIndex.clip($0.0, $0.1, to: box.inset(-$0.2)) != nil }
            #expect(index.crosses(box) == scan, "\(box)")
        }
    }

    @Test("distances from a box to a polyline and between segments")
    func distances() {
        let box = Box(x: 10, y: 10, width: 20, height: 10)
        #expect(LineIndex.distance(box, [(0, 40), (50, 40)]) == 20)
        #expect(LineIndex.distance(box, [(0, 0), (40, 30)]) == 0)
        #expect(LineIndex.distance(box, [(33, 24)]) == 5)
        #expect(LineIndex.segmentDistance((0, 0), (10, 10), (0, 10), (10, 0)) == 0)
        #expect(LineIndex.segmentDistance((0, 0), (10, 0), (0, 3), (10, 3)) == 3)
    }
}

/// Where markers stand: a label's own points and the markers it covers are not "another
/// marker"; a track's fixes may stand nearer a label with a leader, down to their own limit.
@Suite("marker index")
struct MarkerIndexTests {
    @Test("other markers within the distance are found; own, covered and far ones are not")
    func clear() {
        var index = MarkerIndex(width: 400, height: 300)
        index.insert((100, 100))
        index.insert((150, 100), track: 1)
        let box = Box(x: 110, y: 90, width: 20, height: 20)
        #expect(!index.clear(of: box, by: 15, except: []))
        #expect(index.clear(of: box, by: 15, except: [(100.3, 99.8)]))  // within half a pixel: the same spot
        #expect(index.clear(of: box, by: 9, except: []))
        #expect(!index.clear(of: box, by: 25, except: [(100, 100)]))
        // The fix of track 1 need only keep 19 px away from a label of that track.
        #expect(index.clear(of: box, by: 25, except: [(100, 100)], track: (1, 19)))
        #expect(!index.clear(of: box, by: 25, except: [(100, 100)], track: (1, 21)))
        // A marker under the box is left out by the caller, not counted here.
        var under = MarkerIndex(width: 400, height: 300)
        under.insert((120, 100))
        #expect(under.clear(of: box, by: 50, except: []))
    }
}
