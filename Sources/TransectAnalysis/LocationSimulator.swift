import TransectGeodesy

/// A simulated location source, as the location-history sample uses one.
public enum LocationSimulator {
    /// One fix per vertex, `interval` seconds apart from `startTime`, segment by segment: the
    /// fixes of each segment are a segment of their own, and the clock pauses between segments
    /// (a segment's first fix comes `interval` after the previous segment's last). Course is the geodesic azimuth towards the next vertex (at the last vertex, the
    /// azimuth on arrival); speed is the distance to the next vertex over the interval (at the
    /// last vertex, that of the step before).
    public static func fixesPerVertex(
        _ track: Track, startTime: Double, interval: Double = 1,
        geodesic: Geodesic = .wgs84
    ) -> [[Fix]] {
        var segments: [[Fix]] = []
        var time = startTime
        for segment in track.segments {
            guard !segment.isEmpty else { continue }
            var fixes: [Fix] = []
            fixes.reserveCapacity(segment.count)
            for (k, p) in segment.enumerated() {
                var course = 0.0
                var speed = 0.0
                if k + 1 < segment.count {
                    let q = segment[k + 1]
                    let inv = geodesic.inverse(latitude1: p.latitude, longitude1: p.longitude, latitude2: q.latitude, longitude2: q.longitude)
                    course = inv.azimuth1Degrees
                    speed = inv.distanceMetres / interval
                } else if k > 0 {
                    let o = segment[k - 1]
                    let inv = geodesic.inverse(latitude1: o.latitude, longitude1: o.longitude, latitude2: p.latitude, longitude2: p.longitude)
                    course = inv.azimuth2Degrees
                    speed = inv.distanceMetres / interval
                }
                fixes.append(
                    Fix(
                        time: time, longitude: p.longitude, latitude: p.latitude, elevationMetres: p.elevationMetres,
                        courseDegrees: normalisedCourse(course), speedMetresPerSecond: speed))
                time += interval
            }
            segments.append(fixes)
        }
        return segments
    }

    /// Fixes `speed × interval` metres apart along each segment's geodesics, `interval` seconds
    /// apart, starting at each segment's first vertex and ending with its last, one segment of
    /// fixes per segment; the clock pauses between segments as in ``fixesPerVertex(_:startTime:interval:geodesic:)``
    /// (no fix is made along the gap). Course is the
    /// geodesic's azimuth at the fix; speed is `speed` (the final, shorter step keeps it too).
    public static func fixesAtSpeed(
        _ track: Track, speed: Double, startTime: Double, interval: Double = 1,
        geodesic: Geodesic = .wgs84
    ) -> [[Fix]] {
        precondition(speed > 0 && interval > 0)
        let step = speed * interval
        var segments: [[Fix]] = []
        var time = startTime
        for segment in track.segments {
            guard !segment.isEmpty else { continue }
            var fixes: [Fix] = []
            // Legs with their lengths; fixes at multiples of `step` along the segment.
            let legs = zip(segment, segment.dropFirst()).map {
                geodesic.inverseLine(latitude1: $0.latitude, longitude1: $0.longitude, latitude2: $1.latitude, longitude2: $1.longitude)
            }
            let lengths = legs.map { $0.distanceMetres ?? 0 }
            let total = lengths.reduce(0, +)
            var s = 0.0
            var leg = 0
            var legStart = 0.0
            while true {
                let atEnd = s >= total
                let along = min(s, total)
                while leg < legs.count - 1 && along > legStart + lengths[leg] {
                    legStart += lengths[leg]
                    leg += 1
                }
                var fix: Fix
                if legs.isEmpty {
                    let p = segment[0]
                    fix = Fix(
                        time: time, longitude: p.longitude, latitude: p.latitude, elevationMetres: p.elevationMetres,
                        courseDegrees: 0, speedMetresPerSecond: 0)
                } else {
                    let local = along - legStart
                    let pos = legs[leg].position(atDistance: local)
                    let f = lengths[leg] > 0 ? local / lengths[leg] : 0
                    fix = Fix(
                        time: time, longitude: pos.longitude, latitude: pos.latitude,
                        elevationMetres: Track.lerp(segment[leg].elevationMetres, segment[leg + 1].elevationMetres, f),
                        courseDegrees: normalisedCourse(pos.azimuth2Degrees), speedMetresPerSecond: speed)
                }
                fixes.append(fix)
                time += interval
                if atEnd || legs.isEmpty { break }
                s += step
            }
            segments.append(fixes)
        }
        return segments
    }

    /// An azimuth in (−180, 180] as a course in [0, 360).
    static func normalisedCourse(_ azimuth: Double) -> Double {
        let c = azimuth < 0 ? azimuth + 360 : azimuth
        return c >= 360 ? c - 360 : c
    }
}
