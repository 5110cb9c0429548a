// Inverse and direct problems over buffers, four pairs at a time.

extension Geodesic {
    /// Whether the lane kernels serve this ellipsoid: they implement the oblate (f ≥ 0) branch
    /// of the nearly antipodal starting guess; a prolate ellipsoid uses the scalar port.
    var lanesServe: Bool { f >= 0 }

    /// One inverse problem through the lane kernel (lane 0 of a broadcast).
    func inverseOneLane(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> GeodesicInverseResult {
        let r = inverseLanes(
            Lanes(repeating: lat1), Lanes(repeating: lon1), Lanes(repeating: lat2), Lanes(repeating: lon2))
        return GeodesicInverseResult(
            distanceMetres: r.s12[0], azimuth1Degrees: r.azi1[0], azimuth2Degrees: r.azi2[0],
            arcDegrees: r.a12[0])
    }

    /// Four inverse problems: distance, azimuths in degrees and arc length.
    func inverseLanes(
        _ lat1: Lanes, _ lon1: Lanes, _ lat2: Lanes, _ lon2: Lanes
    ) -> (s12: Lanes, azi1: Lanes, azi2: Lanes, a12: Lanes) {
        let sol = solveInverse(lat1, lon1, lat2, lon2)
        return (
            sol.s12, VectorMath.atan2d(sol.salp1, sol.calp1), VectorMath.atan2d(sol.salp2, sol.calp2),
            sol.a12
        )
    }

    /// Solves the inverse problem for every pair of a batch, four pairs at a time.
    ///
    /// Pair k runs from (`latitudes1[k]`, `longitudes1[k]`) to (`latitudes2[k]`,
    /// `longitudes2[k]`), degrees; its distance (metres), azimuth at point 1 and forward
    /// azimuth at point 2 (degrees) land at index k of the three outputs. Each result is bit
    /// for bit what ``inverse(latitude1:longitude1:latitude2:longitude2:)`` gives for the pair.
    ///
    /// - Precondition: all seven buffers have the same count.
    /// Complexity: O(count).
    public func inverse(
        latitudes1: UnsafeBufferPointer<Double>, longitudes1: UnsafeBufferPointer<Double>,
        latitudes2: UnsafeBufferPointer<Double>, longitudes2: UnsafeBufferPointer<Double>,
        distances: UnsafeMutableBufferPointer<Double>,
        azimuths1: UnsafeMutableBufferPointer<Double>, azimuths2: UnsafeMutableBufferPointer<Double>
    ) {
        let count = latitudes1.count
        precondition(
            [longitudes1.count, latitudes2.count, longitudes2.count, distances.count, azimuths1.count, azimuths2.count]
                .allSatisfy { $0 == count }, "Geodesic.inverse: the buffers differ in length")
        guard lanesServe else {
            for k in 0..<count {
                let r = referenceInverse(
                    latitude1: latitudes1[k], longitude1: longitudes1[k],
                    latitude2: latitudes2[k], longitude2: longitudes2[k])
                (distances[k], azimuths1[k], azimuths2[k]) = (r.distanceMetres, r.azimuth1Degrees, r.azimuth2Degrees)
            }
            return
        }
        Self.inLaneGroups(latitudes1, longitudes1, latitudes2, longitudes2, into: distances, azimuths1, azimuths2) { a, b, c, d in
            let r = inverseLanes(a, b, c, d)
            return (r.s12, r.azi1, r.azi2)
        }
    }

    /// The inverse problem from each of `starts` to the end at the same index (heights are
    /// ignored), four pairs at a time; each result equals
    /// ``inverse(from:to:)`` for its pair, bit for bit, arc length included.
    ///
    /// - Precondition: `starts.count == ends.count`.
    public func inverse(from starts: [GeoPoint], to ends: [GeoPoint]) -> [GeodesicInverseResult] {
        precondition(starts.count == ends.count, "Geodesic.inverse(from:to:): the arrays differ in length")
        let count = starts.count
        guard lanesServe else {
            return (0..<count).map { inverse(from: starts[$0], to: ends[$0]) }
        }
        var out: [GeodesicInverseResult] = []
        out.reserveCapacity(count)
        var k = 0
        while k < count {
            let m = Swift.min(4, count - k)
            var a = Lanes(repeating: 0)
            var b = Lanes(repeating: 0)
            var c = Lanes(repeating: 0)
            var d = Lanes(repeating: 0)
            for i in 0..<m {
                (a[i], b[i]) = (starts[k + i].latitude, starts[k + i].longitude)
                (c[i], d[i]) = (ends[k + i].latitude, ends[k + i].longitude)
            }
            let r = inverseLanes(a, b, c, d)
            for i in 0..<m {
                out.append(
                    GeodesicInverseResult(
                        distanceMetres: r.s12[i], azimuth1Degrees: r.azi1[i], azimuth2Degrees: r.azi2[i],
                        arcDegrees: r.a12[i]))
            }
            k += m
        }
        return out
    }

    /// The direct problem from `start` (its height ignored) along each of `azimuths` (degrees)
    /// over the distance at the same index (metres, signed), four at a time; each result
    /// equals ``direct(from:azimuthDegrees:distanceMetres:)`` for its pair, bit for bit.
    ///
    /// - Precondition: `azimuths.count == distances.count`.
    public func direct(from start: GeoPoint, azimuths: [Double], distances: [Double]) -> [GeodesicDirectResult] {
        precondition(azimuths.count == distances.count, "Geodesic.direct(from:azimuths:distances:): the arrays differ in length")
        let count = azimuths.count
        var out: [GeodesicDirectResult] = []
        out.reserveCapacity(count)
        var k = 0
        while k < count {
            let m = Swift.min(4, count - k)
            var c = Lanes(repeating: 0)
            var d = Lanes(repeating: 0)
            for i in 0..<m { (c[i], d[i]) = (azimuths[k + i], distances[k + i]) }
            let r = solveDirect(Lanes(repeating: start.latitude), Lanes(repeating: start.longitude), c, d)
            for i in 0..<m { out.append(GeodesicDirectResult(latitude: r.latitude[i], longitude: r.longitude[i], azimuth2Degrees: r.azimuth2[i])) }
            k += m
        }
        return out
    }

    /// Solves the direct problem for every start of a batch, four at a time: from
    /// (`latitudes1[k]`, `longitudes1[k]`) with azimuth `azimuths1[k]` (degrees) over
    /// `distances[k]` metres (signed) to (`latitudes2[k]`, `longitudes2[k]`) with forward
    /// azimuth `azimuths2[k]`. Each result is bit for bit what
    /// ``direct(latitude1:longitude1:azimuth1Degrees:distanceMetres:)`` gives.
    ///
    /// - Precondition: all seven buffers have the same count.
    /// Complexity: O(count).
    public func direct(
        latitudes1: UnsafeBufferPointer<Double>, longitudes1: UnsafeBufferPointer<Double>,
        azimuths1: UnsafeBufferPointer<Double>, distances: UnsafeBufferPointer<Double>,
        latitudes2: UnsafeMutableBufferPointer<Double>, longitudes2: UnsafeMutableBufferPointer<Double>,
        azimuths2: UnsafeMutableBufferPointer<Double>
    ) {
        let count = latitudes1.count
        precondition(
            [longitudes1.count, azimuths1.count, distances.count, latitudes2.count, longitudes2.count, azimuths2.count]
                .allSatisfy { $0 == count }, "Geodesic.direct: the buffers differ in length")
        Self.inLaneGroups(latitudes1, longitudes1, azimuths1, distances, into: latitudes2, longitudes2, azimuths2) { a, b, c, d in
            let r = solveDirect(a, b, c, d)
            return (r.latitude, r.longitude, r.azimuth2)
        }
    }

    /// Runs `solve` over four input buffers four entries at a time (the last group's unused
    /// lanes hold zeros, whose results are dropped) and stores its three results at the same
    /// indices of the outputs. All seven buffers have the same count.
    @inline(__always) private static func inLaneGroups(
        _ in0: UnsafeBufferPointer<Double>, _ in1: UnsafeBufferPointer<Double>, _ in2: UnsafeBufferPointer<Double>,
        _ in3: UnsafeBufferPointer<Double>, into out0: UnsafeMutableBufferPointer<Double>, _ out1: UnsafeMutableBufferPointer<Double>,
        _ out2: UnsafeMutableBufferPointer<Double>, _ solve: (Lanes, Lanes, Lanes, Lanes) -> (Lanes, Lanes, Lanes)
    ) {
        let count = in0.count
        var k = 0
        while k < count {
            let m = Swift.min(4, count - k)
            var a = Lanes(repeating: 0)
            var b = Lanes(repeating: 0)
            var c = Lanes(repeating: 0)
            var d = Lanes(repeating: 0)
            for i in 0..<m {
                a[i] = in0[k + i]
                b[i] = in1[k + i]
                c[i] = in2[k + i]
                d[i] = in3[k + i]
            }
            let r = solve(a, b, c, d)
            for i in 0..<m {
                out0[k + i] = r.0[i]
                out1[k + i] = r.1[i]
                out2[k + i] = r.2[i]
            }
            k += m
        }
    }
}
