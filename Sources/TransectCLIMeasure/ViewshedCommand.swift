import TransectGDAL
import TransectSupport
import TransectVisibility

/// `transect viewshed`: what one or many observers see over a DEM, as a GeoTIFF on the DEM's
/// grid, with a summary on stdout.
package enum ViewshedCommand {
    /// The command, reading observers files other than GeoPackages with `readObservers` (nil in
    /// ``MeasureCommand/table``, whose entry hands any `--observers` on to the full command line).
    package static func command(readObservers: ObserversFileReader?) -> Command {
        Command(
            name: "viewshed", summary: "What observers see over a DEM: visibility, counts, heights (GeoTIFF)",
            usage: ["transect viewshed [--dem PATH…] (--observer LON,LAT[,Z]… | --observers FILE) -o FILE.tif [options]"],
            description: """
                Compute what one or many observers see over a DEM and write it as a Cloud-Optimized
                GeoTIFF on the DEM's own grid and CRS, with a summary on stdout. One observer gives its
                visibility (or the least visible target height, or the angle above the horizon, and
                the horizon per azimuth); several give the count of observers that see each cell, or
                which (a bitmask, up to 64).
                """,
            options: ViewshedOptions.all,
            notes: """
                A cell is visible when the straight sight line from the observer's eye to the target
                above the cell centre clears every terrain sample between them: the terrain sampled
                along the geodesic every half cell with --interpolation, as profile samples it, and
                lowered by cc·d²/(2R) at geodesic distance d (R = 6,371,008.8 m), so a geographic DEM
                and its projected twin agree. A sight line crossing no data is unknown, never visible,
                unless terrain with data hides the cell; terrain within a quarter cell of the target
                is the target's own. A profile from the observer to a cell centre, stepped at half a
                cell, gives the same verdict but at the edges of what is visible.

                Values of the visibility raster: visible 255 and hidden 0 (as gdal_viewshed writes
                them), unknown 2, out of range 1 (beyond --max-distance, nearer than --min-distance,
                outside --azimuth or --pitch). The sweep casts sight rays along geodesics at most half
                a cell apart at the farthest cell and judges each cell between its two rays, with its
                own line over its last two cells; the whole DEM is read into memory (at most
                100,000,000 cells).
                """,
            run: { args, console in try run(args, console: console, readObservers: readObservers) })
    }

    /// Reads and checks every option, computes with one ``ElevationModel/viewsheds(of:settings:keepEach:)``
    /// call, then writes the raster (and the horizon) in one transaction and the summary.
    static func run(_ args: ParsedArguments, console: Console, readObservers: ObserversFileReader?) throws -> Int32 {
        try args.expectNoPositionals()
        let terrain = try TerrainOptions(args)
        let settings = try ViewshedRunSettings(args, terrain: terrain, readObservers: readObservers)
        // The DEM read whole while it opens (a viewshed reads every cell).
        let dem = try terrain.openDEM(console: console, readsWholeEarly: true)
        var files = RunFiles()
        files.inputs(dem: dem, terrain: terrain)
        files.input("--observers", settings.observersFile)
        files.output("-o", settings.out)
        files.output("--horizon", settings.horizon)

        // A shard computes its range of the observers and says so in a manifest beside -o.
        let rows = settings.shard.map { $0.rows(of: settings.observers.count) } ?? 1...settings.observers.count
        if settings.shard != nil { files.output("-o", ShardManifest.path(for: settings.out)) }
        try files.check(command: "viewshed")
        let inputSHA256 = try settings.observersFile.flatMap { (file: String) throws(CLIError) -> String? in
            // Only a shard's manifest records the input (and a shard never reads stdin).
            guard settings.shard != nil else { return nil }
            guard let digest = try ShardManifest.digest(ofFile: file) else { throw CLIError.badInput("observers '\(file)' is missing") }
            guard let read = settings.observersFingerprint, MeasureCommand.PairsShardPlan.Fingerprint(path: file) == read else {
                throw CLIError.retryable(
                    "observers '\(file)' changed while shard \(settings.shard?.text ?? "") read it (between reading and hashing it); run the shard again")
            }
            return digest
        }
        let subset = rows.map { Array(settings.observers[($0.lowerBound - 1)..<$0.upperBound]) } ?? []
        let run: ViewshedRun
        do {
            run = try dem.viewsheds(
                of: subset, settings: settings.settings, keepEach: false, cumulative: settings.observers.count > 1 || settings.shard != nil,
                firstIndex: (rows?.lowerBound ?? 1) - 1, maskBits: settings.product == .mask && settings.observers.count <= 64)
        } catch let error as ViewshedError {
            if error.isUsageError { throw CLIError.usage(error.message, command: "viewshed") }
            throw error
        }
        // The classes counted for the summary while the raster is written, on a thread of its own.
        var counts: [ViewshedClass: Int] = [:]
        let counter = OwnThread { counts = tally(run.combinedClasses) }
        if counter == nil { counts = tally(run.combinedClasses) }
        let transaction = OutputTransaction()
        let (type, bytes, noData, description) = raster(run, product: settings.product)
        let temporary = try transaction.writeBand(
            ViewshedRaster.Band(
                type: type, values: bytes, width: run.width, height: run.height, geoTransform: dem.geoTransform, wkt: try dem.crs.wkt,
                noData: noData, description: description, metadata: metadata(settings)),
            to: settings.out, threads: settings.settings.threads)
        if let horizon = settings.horizon, let first = run.viewsheds.first {
            try transaction.write(horizonCSV(first), to: horizon)
        }
        if let shard = settings.shard, let file = settings.observersFile, let inputSHA256 {
            guard let outputSHA256 = try ShardManifest.digest(ofFile: temporary) else {
                throw CLIError.badInput("'\(settings.out)' vanished while it was written")
            }
            let manifest = ShardManifest(
                input: file, inputSHA256: inputSHA256, shard: shard, rows: rows, totalRows: settings.observers.count,
                goodRows: subset.count, badRows: 0, outputSHA256: outputSHA256, options: options(settings, terrain: terrain))
            try transaction.write(manifest.json.serialized() + "\n", to: ShardManifest.path(for: settings.out))
        }
        try transaction.commit()
        counter?.join()
        console.out(
            settings.format == .json
                ? summaryJSON(run, settings: settings, dem: dem, counts: counts) : summaryText(run, settings: settings, dem: dem, counts: counts))
        return 0
    }

    /// The raster -o holds: its type, cells as bytes (native order), no-data value and description.
    static func raster(_ run: ViewshedRun, product: ViewshedProduct) -> (GeoTIFFWriter.BandType, [UInt8], Double?, String) {
        func bytes<T>(_ values: [T]) -> [UInt8] { values.withUnsafeBytes { Array($0) } }
        switch product {
        case .visibility:
            let classes = run.combinedClasses
            return (.byte, classes, nil, "visibility: visible 255, hidden 0, unknown 2, out of range 1")
        case .count:
            let counts = run.visibleCounts.isEmpty ? run.viewsheds[0].classes.map { UInt32($0 == ViewshedClass.visible.rawValue ? 1 : 0) } : run.visibleCounts
            return (.uint32, bytes(counts), nil, "observers that see the cell")
        case .mask:
            let masks = run.visibleMasks.isEmpty ? run.viewsheds[0].classes.map { UInt64($0 == ViewshedClass.visible.rawValue ? 1 : 0) } : run.visibleMasks
            return (.uint64, bytes(masks), nil, "bit k set where observer k sees the cell")
        case .minHeight:
            return (.float32, bytes(run.viewsheds[0].minimumVisibleHeightMetres), .nan, "least visible target height above the ground, metres")
        case .angle:
            return (.float32, bytes(run.viewsheds[0].angleAboveHorizonDegrees), .nan, "target's angle above the horizon, degrees")
        }
    }

    /// The options that shape a part's bytes, as a shard's manifest records them: parts made
    /// with other ones do not merge.
    static func options(_ s: ViewshedRunSettings, terrain: TerrainOptions) -> [String] {
        let v = s.settings
        return terrain.demSpecs.map { "dem=\($0)" } + terrain.noData.map { "nodata=\(JSON.format($0))" } + [
            "product=\(s.product.rawValue)", "interpolation=\(v.interpolation)", "curvature=\(JSON.format(v.curvature))",
            "target-height=\(JSON.format(v.targetHeightMetres))", "min-distance=\(JSON.format(v.minimumDistanceMetres))",
            "max-distance=\(v.maximumDistanceMetres.map(JSON.format) ?? "")",
            "azimuth=\(v.azimuthDegrees.map { "\(JSON.format($0.from)):\(JSON.format($0.to))" } ?? "")",
            "pitch=\(v.pitchDegrees.map { "\(JSON.format($0.lowerBound)):\(JSON.format($0.upperBound))" } ?? "")",
            "observers=\(s.observers.count)",
        ]
    }

    /// The settings that made the raster, as metadata a GIS shows (`gdalinfo` lists them).
    static func metadata(_ s: ViewshedRunSettings) -> [(String, String)] {
        var items: [(String, String)] = [
            ("TRANSECT_PRODUCT", s.product.rawValue),
            ("TRANSECT_OBSERVERS", String(s.observers.count)),
            ("TRANSECT_CURVATURE_COEFFICIENT", JSON.format(s.settings.curvature)),
            ("TRANSECT_TARGET_HEIGHT_M", JSON.format(s.settings.targetHeightMetres)),
        ]
        if s.observers.count == 1, let o = s.observers.first {
            items.append(("TRANSECT_OBSERVER", "\(JSON.format(o.longitude)),\(JSON.format(o.latitude))"))
        }
        if let d = s.settings.maximumDistanceMetres { items.append(("TRANSECT_MAX_DISTANCE_M", JSON.format(d))) }
        return items
    }

    /// The horizon, a line per sight ray: azimuth, elevation angle and distance of the highest
    /// terrain, and whether the ray crossed no data.
    static func horizonCSV(_ v: Viewshed) -> String {
        var text = "azimuth_deg,elevation_deg,distance_m,crosses_nodata\n"
        for p in v.horizon {
            let e = p.elevationDegrees.isNaN ? "" : NumberFormatting.fixed(p.elevationDegrees, decimals: 6)
            let d = p.distanceMetres.isNaN ? "" : NumberFormatting.fixed(p.distanceMetres, decimals: 3)
            text += "\(NumberFormatting.fixed(p.azimuthDegrees, decimals: 6)),\(e),\(d),\(p.crossesNoData)\n"
        }
        return text
    }

    /// Cells of each class in `classes`.
    static func tally(_ classes: [UInt8]) -> [ViewshedClass: Int] {
        // The four classes' cells, 32 at a time in one pass: a lane of a class's counter takes
        // one for a cell of the class (the comparison's mask, all ones, subtracted), and the
        // lanes are summed before one could overflow.
        typealias Lanes = SIMD32<UInt8>
        let (c0, c1, c2, c3) = (ViewshedClass.hidden, ViewshedClass.outOfRange, ViewshedClass.unknown, ViewshedClass.visible)
        let (v0, v1, v2, v3) = (Lanes(repeating: c0.rawValue), Lanes(repeating: c1.rawValue), Lanes(repeating: c2.rawValue), Lanes(repeating: c3.rawValue))
        var totals = (0, 0, 0, 0)
        classes.withUnsafeBytes { raw in
            let count = raw.count
            var start = 0
            while start + Lanes.scalarCount <= count {
                // At most 255 rounds before the lanes are summed.
                let rounds = min(255, (count - start) / Lanes.scalarCount)
                var (l0, l1, l2, l3) = (Lanes(), Lanes(), Lanes(), Lanes())
                for r in 0..<rounds {
                    let cells = raw.loadUnaligned(fromByteOffset: start + r * Lanes.scalarCount, as: Lanes.self)
                    l0 &-= unsafeBitCast(cells .== v0, to: Lanes.self)
                    l1 &-= unsafeBitCast(cells .== v1, to: Lanes.self)
                    l2 &-= unsafeBitCast(cells .== v2, to: Lanes.self)
                    l3 &-= unsafeBitCast(cells .== v3, to: Lanes.self)
                }
                // At most 32 × 255 a class: UInt16 lanes sum it without wrapping.
                func sum(_ lanes: Lanes) -> Int { Int(SIMD32<UInt16>(truncatingIfNeeded: lanes).wrappedSum()) }
                totals = (totals.0 + sum(l0), totals.1 + sum(l1), totals.2 + sum(l2), totals.3 + sum(l3))
                start += rounds * Lanes.scalarCount
            }
            for c in raw[start...] {
                switch c {
                case c0.rawValue: totals.0 += 1
                case c1.rawValue: totals.1 += 1
                case c2.rawValue: totals.2 += 1
                case c3.rawValue: totals.3 += 1
                default: break
                }
            }
        }
        return [c0: totals.0, c1: totals.1, c2: totals.2, c3: totals.3]
    }

    /// The summary on stdout, from the run's classes counted as ``tally(_:)`` does (`counts`).
    static func summaryText(_ run: ViewshedRun, settings: ViewshedRunSettings, dem: ElevationModel, counts t: [ViewshedClass: Int]) -> String {
        let classes = run.combinedClasses
        let inRange = classes.count - (t[.outOfRange] ?? 0)
        func cells(_ count: Int) -> String { "\(NumberFormatting.grouped(Double(count), decimals: 0)) cells" }
        func line(_ label: String, _ count: Int) -> String {
            let pct = NumberFormatting.fixed(100 * Double(count) / Double(max(inRange, 1)), decimals: 2)
            return label.padded(to: 14) + "\(cells(count)) (\(pct) % of those in range)\n"
        }
        var text =
            "Viewshed over DEM '\(dem.label)' (\(NumberFormatting.grouped(Double(run.width), decimals: 0)) × \(NumberFormatting.grouped(Double(run.height), decimals: 0)) cells), curvature \(JSON.format(settings.settings.curvature))\n"
        if let v = run.viewsheds.first, settings.observers.count == 1 {
            let o = settings.observers[0]
            text +=
                "Observer: \(JSON.format(o.longitude)),\(JSON.format(o.latitude)), ground \(NumberFormatting.grouped(v.observerGroundMetres, decimals: 2)) m, eye \(NumberFormatting.grouped(v.observerEyeMetres, decimals: 2)) m\n"
            text +=
                "Sight rays: \(NumberFormatting.grouped(Double(v.rayCount), decimals: 0)), sampled every \(NumberFormatting.grouped(v.sampleStepMetres, decimals: 2)) m\n"
        } else {
            text += "Observers: \(settings.observers.count) (a cell is visible when one of them sees it)\n"
        }
        text += line("Visible:", t[.visible] ?? 0) + line("Hidden:", t[.hidden] ?? 0) + line("Unknown:", t[.unknown] ?? 0)
        text += "Out of range: \(cells(t[.outOfRange] ?? 0))\n"
        text += "Wrote \(settings.out) (\(settings.product.rawValue))\n"
        return text
    }

    /// The summary as JSON, from the run's classes counted as ``tally(_:)`` does (`counts`).
    static func summaryJSON(_ run: ViewshedRun, settings: ViewshedRunSettings, dem: ElevationModel, counts t: [ViewshedClass: Int]) -> String {
        var fields: [(String, JSON)] = [
            ("dem", .string(dem.label)), ("width", .number(Double(run.width))), ("height", .number(Double(run.height))),
            ("observers", .number(Double(settings.observers.count))), ("curvature_coefficient", .number(settings.settings.curvature)),
            ("target_height_m", .number(settings.settings.targetHeightMetres)),
            ("visible_cells", .number(Double(t[.visible] ?? 0))), ("hidden_cells", .number(Double(t[.hidden] ?? 0))),
            ("unknown_cells", .number(Double(t[.unknown] ?? 0))), ("out_of_range_cells", .number(Double(t[.outOfRange] ?? 0))),
            ("output", .string(settings.out)), ("product", .string(settings.product.rawValue)),
        ]
        if let v = run.viewsheds.first, settings.observers.count == 1 {
            fields += [
                ("observer_ground_m", .number(v.observerGroundMetres)), ("observer_eye_m", .number(v.observerEyeMetres)),
                ("rays", .number(Double(v.rayCount))), ("sample_step_m", .number(v.sampleStepMetres)),
            ]
        }
        return JSON.object(fields).serialized() + "\n"
    }
}
