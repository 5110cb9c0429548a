import TransectCore
import TransectFormats
import TransectGDAL

/// `transect measure`: direct, horizontal and vertical distance between two endpoints, or a
/// streamed batch of pairs.
enum MeasureCommand {
    /// One measured pair, with where each height came from.
    struct Measured {
        var measurement: Measurement
        var startSource: String
        var endSource: String
    }

    /// A pair whose endpoints are parsed and in WGS84, ready to measure.
    struct Pair {
        var from: GeoPoint
        var to: GeoPoint
        /// Given Z values (absolute heights) when the user wrote them.
        var fromZ: Double?
        var toZ: Double?
    }

    static func run(_ args: ParsedArguments, console: Console) throws -> Int32 {
        try args.expectNoPositionals()
        let terrain = try TerrainOptions(args)
        let units = try args.value(MeasureOptions.units)
        let aboveGround = try args.value(MeasureOptions.aboveGround)
        let format = try args.value(MeasureOptions.format) ?? (args.has(MeasureOptions.pairs) ? "csv" : "text")

        if let pairsPath = try args.value(MeasureOptions.pairs) {
            guard !args.has(MeasureOptions.from) && !args.has(MeasureOptions.to) else {
                throw CLIError.usage("--pairs cannot be combined with --from/--to", command: "measure")
            }
            guard format == "csv" else { throw CLIError.usage("option '--format': a --pairs batch writes csv", command: "measure") }
            return try runPairs(path: pairsPath, terrain: terrain, aboveGround: aboveGround,
                                strict: try args.value(MeasureOptions.strict), out: try args.value(MeasureOptions.out), console: console)
        }
        guard ["text", "json"].contains(format) else {
            throw CLIError.usage("option '--format': '\(format)' is not text or json", command: "measure")
        }
        guard let fromText = args.value(MeasureOptions.from.name) else { throw CLIError.usage("missing --from LON,LAT[,Z]", command: "measure") }
        guard let toText = args.value(MeasureOptions.to.name) else { throw CLIError.usage("missing --to LON,LAT[,Z]", command: "measure") }
        let from = try MeasureOptions.from.parse(fromText, args)
        let to = try MeasureOptions.to.parse(toText, args)
        let wgs = try terrain.toWGS84([from, to])
        for (point, option) in zip(wgs, ["from", "to"]) {
            guard point.longitude.isFinite else {
                throw CLIError.badInput("option '--\(option)': cannot transform '\(option == "from" ? fromText : toText)' from \(terrain.crs ?? "the input CRS") to WGS84")
            }
            if let problem = PointArgument.checkGeographic(longitude: point.longitude, latitude: point.latitude) {
                throw CLIError.usage("option '--\(option)': \(problem.text)", command: "measure")
            }
        }
        let pair = Pair(from: wgs[0], to: wgs[1], fromZ: from.z, toZ: to.z)
        let needsDEM = from.z == nil || to.z == nil
        let model = needsDEM ? try terrain.openDEM(console: console) : nil
        let geoid = try terrain.openGeoid()
        let results = try measure([pair], model: model, geoid: geoid, aboveGround: aboveGround,
                                  interpolation: terrain.interpolation)
        let measured: Measured
        switch results[0] {
        case .success(let m): measured = m
        case .failure(let error): throw error
        }
        var files = RunFiles()
        files.inputs(dem: model, terrain: terrain)
        let out = try args.value(MeasureOptions.out)
        files.output("-o", out)
        try files.check(command: "measure")
        let output = try OutputTarget(path: out, console: console)
        if format == "json" {
            output.write(json(measured, units: units, dem: model?.label, geoid: terrain.geoidPath).serialized() + "\n")
        } else {
            output.write(measured.measurement.label(units: units) + "\n")
        }
        try output.commit()
        return 0
    }

    static func parsePoint(_ text: String, option: String) throws(CLIError) -> PointArgument {
        switch PointArgument.parse(text) {
        case .success(let p): return p
        case .failure(let e): throw .usage("option '--\(option)': \(e.text)", command: "measure")
        }
    }

    /// Measures a batch of pairs: DEM heights for endpoints without Z in one batched read, geoid
    /// undulations likewise. Each pair succeeds or fails on its own.
    static func measure(_ pairs: [Pair], model: ElevationModel?, geoid: ElevationModel?, aboveGround: Double,
                        interpolation: Interpolation) throws(TerrainError) -> [Result<Measured, TerrainError>] {
        var wanted: [GeoPoint] = []
        for pair in pairs {
            if pair.fromZ == nil { wanted.append(pair.from) }
            if pair.toZ == nil { wanted.append(pair.to) }
        }
        var sampled: [Double] = []
        if !wanted.isEmpty, let model {
            sampled = try model.elevations(at: wanted, interpolation: interpolation)
        }
        var undulations: [Double] = []
        if let geoid {
            let all = pairs.flatMap { [$0.from, $0.to] }
            undulations = try geoid.elevations(at: all, interpolation: .bilinear)
        }
        var next = 0
        var results: [Result<Measured, TerrainError>] = []
        results.reserveCapacity(pairs.count)
        for (k, pair) in pairs.enumerated() {
            var heights: [Double] = []
            var sources: [String] = []
            var failure: TerrainError?
            for (point, z) in [(pair.from, pair.fromZ), (pair.to, pair.toZ)] {
                if let z {
                    heights.append(z)
                    sources.append("given")
                    continue
                }
                let h = sampled[next]
                next += 1
                if h.isNaN, failure == nil, let model {
                    failure = Self.missingHeight(point, model: model)
                }
                heights.append(h + aboveGround)
                sources.append("dem")
            }
            if let failure { results.append(.failure(failure)); continue }
            var ellipsoidal: [Double?] = [nil, nil]
            if geoid != nil {
                let n1 = undulations[2 * k], n2 = undulations[2 * k + 1]
                guard n1.isFinite, n2.isFinite else {
                    results.append(.failure(.outsideCoverage(point: describe(n1.isFinite ? pair.to : pair.from), dem: geoidLabel(geoid))))
                    continue
                }
                ellipsoidal = [heights[0] + n1, heights[1] + n2]
            }
            var start = pair.from, end = pair.to
            start.heightMetres = heights[0]
            end.heightMetres = heights[1]
            let m = Measurement(start: start, end: end, startEllipsoidalHeightMetres: ellipsoidal[0],
                                endEllipsoidalHeightMetres: ellipsoidal[1])
            results.append(.success(Measured(measurement: m, startSource: sources[0], endSource: sources[1])))
        }
        return results
    }

    static func geoidLabel(_ geoid: ElevationModel?) -> String { geoid?.label ?? "geoid" }

    /// Outside the DEM, or on no data?
    static func missingHeight(_ point: GeoPoint, model: ElevationModel) -> TerrainError {
        let (c, r) = model.pixelCoordinates(of: [point])
        if model.contains(column: c[0], row: r[0]) {
            return .noData(point: describe(point), dem: model.label)
        }
        return .outsideCoverage(point: describe(point), dem: model.label)
    }

    static func describe(_ p: GeoPoint) -> String {
        "\(JSON.format(JSON.round(p.longitude, decimals: 8))),\(JSON.format(JSON.round(p.latitude, decimals: 8)))"
    }

    static func json(_ m: Measured, units: UnitSystem, dem: String?, geoid: String?) -> JSON {
        let r = m.measurement
        func endpoint(_ p: GeoPoint, _ source: String, _ h: Double) -> JSON {
            var members: [(String, JSON)] = [
                ("lon", .number(p.longitude, decimals: 9)), ("lat", .number(p.latitude, decimals: 9)),
                ("elevation_m", .number(p.heightMetres, decimals: 6)), ("height_source", .string(source)),
            ]
            if geoid != nil { members.append(("ellipsoidal_height_m", .number(h, decimals: 6))) }
            return .object(members)
        }
        return .object([
            ("start", endpoint(r.start, m.startSource, r.startEllipsoidalHeightMetres)),
            ("end", endpoint(r.end, m.endSource, r.endEllipsoidalHeightMetres)),
            ("horizontal_m", .number(r.horizontalMetres, decimals: 9)),
            ("vertical_m", .number(r.verticalMetres, decimals: 6)),
            ("direct_m", .number(r.directMetres, decimals: 9)),
            ("azimuth_start_deg", .number(r.azimuthStartDegrees, decimals: 10)),
            ("azimuth_end_deg", .number(r.azimuthEndDegrees, decimals: 10)),
            ("back_azimuth_deg", .number(r.backAzimuthDegrees, decimals: 10)),
            ("slope_deg", .number(r.slopeDegrees, decimals: 10)),
            ("grade_pct", .number(r.gradePercent, decimals: 8)),
            ("units", .string(unitsName(units))),
            ("label", .string(r.label(units: units))),
            ("dem", dem.map { .string($0) } ?? .null),
            ("geoid", geoid.map { .string($0) } ?? .null),
        ])
    }

    static func unitsName(_ units: UnitSystem) -> String {
        switch units {
        case .metric: "metric"
        case .imperial: "imperial"
        case .fixed(let u): u.rawValue
        }
    }
}
