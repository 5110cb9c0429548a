import TransectGeodesy

/// Why a fix was dropped by ``Track/cleaned()``: only a position that cannot be one drops a
/// fix. A timestamp problem (repeated, going backwards, coarse, missing) never does: the fix
/// keeps its place in the geometry and ``TrackStatistics`` leaves its time out of the time
/// steps (see ``TimeCounts``).
public enum DropReason: String, Sendable, CaseIterable {
    /// At (0, 0): a receiver that had no fix yet.
    case zeroZero = "zero_zero"
    /// Latitude beyond ±90°, longitude beyond ±360°, or not a number.
    case outOfRange = "out_of_range"
    /// A negative horizontal accuracy, which location services use to mark an invalid fix.
    case negativeAccuracy = "negative_accuracy"
}

extension Track {
    /// The track without invalid fixes, and how many were dropped for each reason. Empty
    /// segments are removed.
    public func cleaned() -> (track: Track, dropped: [DropReason: Int]) {
        var copy = self
        let dropped = copy.clean()
        return (copy, dropped)
    }

    /// Drops invalid fixes in place (see ``DropReason``) and returns how many were dropped for
    /// each reason; empty segments are removed. In place, so a large track is not held twice.
    /// Times are left as they are, whatever they hold: every valid position is kept.
    ///
    /// - Complexity: O(n).
    public mutating func clean() -> [DropReason: Int] {
        var dropped: [DropReason: Int] = [:]
        for s in segments.indices {
            var kept = 0
            segments[s].withUnsafeMutableBufferPointer { points in
                for k in points.indices {
                    let p = points[k]
                    let reason: DropReason?
                    if !p.latitude.isFinite || !p.longitude.isFinite || abs(p.latitude) > 90 || abs(p.longitude) > 360 {
                        reason = .outOfRange
                    } else if p.latitude == 0 && p.longitude == 0 {
                        reason = .zeroZero
                    } else if let a = p.accuracyMetres, a < 0 || a.isNaN {
                        reason = .negativeAccuracy
                    } else {
                        reason = nil
                    }
                    if let reason {
                        dropped[reason, default: 0] += 1
                    } else {
                        points[kept] = p
                        kept += 1
                    }
                }
            }
            segments[s].removeLast(segments[s].count - kept)
        }
        segments.removeAll { $0.isEmpty }
        return dropped
    }

    /// The track with points inserted along the geodesics so that no step is longer than
    /// `maxSegmentMetres`. A step of length d becomes ⌈d / max⌉ equal parts; elevation and time
    /// are interpolated linearly in distance. Segments stay separate.
    ///
    /// - Complexity: O(n + inserted points); check ``densifiedPointCount(maxSegmentMetres:geodesic:)``
    ///   against ``maxPoints`` before calling with a segment length from user input.
    ///
    /// With `interpolatingTimes` false, inserted points get no time: statistics then take their
    /// time steps from the recorded fixes alone (an interpolated time inside a run of coarse,
    /// repeated stamps would make a step of a fraction of a second over the run's distance).
    public func densified(maxSegmentMetres: Double, interpolatingTimes: Bool = true, geodesic: Geodesic = .wgs84) -> Track {
        precondition(maxSegmentMetres > 0, "the maximum segment must be positive")
        var out: [[TrackPoint]] = []
        for segment in segments {
            guard var previous = segment.first else { continue }
            var dense = [previous]
            for p in segment.dropFirst() {
                let line = geodesic.inverseLine(
                    latitude1: previous.latitude, longitude1: previous.longitude,
                    latitude2: p.latitude, longitude2: p.longitude)
                let d = line.distanceMetres ?? 0
                // Callers check densifiedPointCount against maxPoints first; the cap only keeps
                // an unchecked call from trapping on the conversion.
                let parts = d > maxSegmentMetres ? Int(min((d / maxSegmentMetres).rounded(.up), Self.maxPoints)) : 1
                if parts > 1 {
                    let distances = (1..<parts).map { d * Double($0) / Double(parts) }
                    for (k, pos) in line.positions(atDistances: distances).enumerated() {
                        let f = distances[k] / d
                        dense.append(
                            TrackPoint(
                                longitude: pos.longitude, latitude: pos.latitude,
                                elevationMetres: Self.lerp(previous.elevationMetres, p.elevationMetres, f),
                                time: interpolatingTimes ? Self.lerp(previous.time, p.time, f) : nil))
                    }
                }
                dense.append(p)
                previous = p
            }
            out.append(dense)
        }
        return Track(name: name, segments: out, waypoints: waypoints)
    }

    /// The most points a densified track or a simulation may hold: 10 million fixes (about
    /// 400 MB as `Fix` values) is far beyond any recorded history, and a bound on the memory a
    /// typo in `--max-segment` or `--speed` can ask for.
    public static let maxPoints = 10_000_000.0

    /// How many points ``densified(maxSegmentMetres:geodesic:)`` would give, as a `Double` so that
    /// an absurd ratio (a 1e-300 m segment) is a large number to refuse, not an integer trap.
    public func densifiedPointCount(maxSegmentMetres: Double, geodesic: Geodesic = .wgs84) -> Double {
        var count = 0.0
        for segment in segments {
            guard !segment.isEmpty else { continue }
            count += 1
            for (a, b) in zip(segment, segment.dropFirst()) {
                let d = geodesic.inverse(
                    latitude1: a.latitude, longitude1: a.longitude,
                    latitude2: b.latitude, longitude2: b.longitude
                ).distanceMetres
                count += d > maxSegmentMetres ? (d / maxSegmentMetres).rounded(.up) : 1
            }
        }
        return count
    }

    /// The geodesic length of every segment, summed, in metres.
    public func lengthMetres(geodesic: Geodesic = .wgs84) -> Double {
        var total = 0.0
        for segment in segments {
            for (a, b) in zip(segment, segment.dropFirst()) {
                total +=
                    geodesic.inverse(
                        latitude1: a.latitude, longitude1: a.longitude,
                        latitude2: b.latitude, longitude2: b.longitude
                    ).distanceMetres
            }
        }
        return total
    }

    static func lerp(_ a: Double?, _ b: Double?, _ f: Double) -> Double? {
        guard let a, let b else { return nil }
        return a + (b - a) * f
    }
}
