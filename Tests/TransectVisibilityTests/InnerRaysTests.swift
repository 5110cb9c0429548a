import Testing
import TransectRaster
import TransectTestSupport

@testable import TransectVisibility

/// Within a block, rays between its two ends take their horizon near the eye from their
/// parents' and sample their own terrain only from where the parents lie
/// ``Viewshed/innerRaySpacingSteps`` apart.
@Suite struct InnerRaysTests {
    /// A block's rays at `azimuths`: the order sweeps every ray once and parents before their
    /// rays; each ray's parents lie either side of it, 2^L away (L its index's trailing zero
    /// bits, the far one clamped to the block's end); its first own sample is a knot's, the
    /// last before the parents' gap widens past the spacing, or `samples` where it never does.
    /// Returns how many rays start their own samples part of the way out.
    @discardableResult
    func checkArrangement(_ azimuths: [Double], samples: Int) -> Int {
        let end = azimuths.count - 1
        let shared = SweepBuffers(
            classes: .init(start: nil, count: 0), heights: .init(start: nil, count: 0), angles: .init(start: nil, count: 0),
            rays: Viewshed.raysPerBlock + 1, samples: samples, knots: samples / 64 + 2, knotStep: 64)
        defer { shared.deallocateScratch() }
        let order = shared.arrange(block: azimuths[...], samples: samples)
        #expect(order.sorted() == Array(0...end))
        var position = [Int](repeating: -1, count: end + 1)
        for (k, q) in order.enumerated() { position[q] = k }
        var thinned = 0
        for q in 0...end {
            let from = shared.ownFrom[q]
            guard q != 0 && q != end else {
                #expect(from == 0, "the block's end \(q) is sampled from the eye")
                continue
            }
            let (a, b, f) = shared.parents[q]
            let half = 1 << q.trailingZeroBitCount
            #expect(a == q - half && b == min(q + half, end), "ray \(q)'s parents")
            #expect(position[a] < position[q] && position[b] < position[q], "ray \(q) after its parents")
            // Its fraction puts it at its own azimuth to rounding (degrees of a few units, ulps ~1e-14).
            #expect(f > 0 && f < 1 && abs(azimuths[a] + f * (azimuths[b] - azimuths[a]) - azimuths[q]) < 1e-12)
            #expect(from % Viewshed.coarseSpan == 0 || from == samples)
            let gap = (azimuths[b] - azimuths[a]) * .pi / 180
            if from > 0 && from < samples {
                // Its parents at most the spacing apart at its first own sample, and more by the next knot.
                #expect(gap * Double(from) <= Viewshed.innerRaySpacingSteps)
                #expect(gap * Double(from + Viewshed.coarseSpan) > Viewshed.innerRaySpacingSteps)
                thinned += 1
            } else if from == 0 {
                #expect(gap * Double(Viewshed.coarseSpan) > Viewshed.innerRaySpacingSteps, "ray \(q) sampled from the eye")
            } else {
                #expect(gap * Double(samples) <= Viewshed.innerRaySpacingSteps)
            }
        }
        return thinned
    }

    @Test("a whole block across two sectors' spacings, and a block cut short")
    func arrangement() {
        // 0.9 steps apart at 3,000 steps, then at 5,000 (the fan's spacing in two sectors).
        let near = 0.9 / 3_000 * 180 / .pi
        let far = 0.9 / 5_000 * 180 / .pi
        let whole = (0...128).map { q in q <= 50 ? Double(q) * near : 50 * near + Double(q - 50) * far }
        #expect(checkArrangement(whole, samples: 6_001) > 100)
        #expect(checkArrangement(Array(whole.prefix(38)), samples: 6_001) > 20)
        #expect(checkArrangement(Array(whole.prefix(2)), samples: 6_001) == 0)
        // Rays too few samples long for their parents ever to be far apart: never sampled.
        checkArrangement(whole, samples: 200)
    }

    @Test("tracing the horizon changes no cell's verdict, height or angle", arguments: [false, true])
    func tracingChangesNoCell(heights: Bool) throws {
        let (grid, geo) = CullingTests.terrain(width: 161, height: 143)
        for (c, r, above) in [(80.5, 71.5, 2.0), (150.5, 5.5, 300.0)] {
            let ll = geo.lonLat(columns: [c], rows: [r])
            let observer = ViewshedObserver(longitude: ll.longitudes[0], latitude: ll.latitudes[0], height: .aboveGround(above), name: "o")
            var settings = ViewshedSettings(computesHeights: heights, threads: 2)
            let traced = try Viewshed.compute(observer: observer, terrain: grid, georeference: geo, settings: settings, demName: "t")
            settings.tracesHorizon = false
            let untraced = try Viewshed.compute(observer: observer, terrain: grid, georeference: geo, settings: settings, demName: "t")
            #expect(traced.horizon.count == traced.rayCount && untraced.horizon.isEmpty)
            #expect(zip(traced.classes, untraced.classes).filter { $0 != $1 }.isEmpty)
            let bits = { (values: [Float]) in values.map(\.bitPattern) }
            #expect(zip(bits(traced.minimumVisibleHeightMetres), bits(untraced.minimumVisibleHeightMetres)).filter { $0 != $1 }.isEmpty)
            #expect(zip(bits(traced.angleAboveHorizonDegrees), bits(untraced.angleAboveHorizonDegrees)).filter { $0 != $1 }.isEmpty)
            #expect(traced.classes.count == 161 * 143)
        }
    }
}
