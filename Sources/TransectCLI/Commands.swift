import TransectCLICompare
import TransectSupport

/// The subcommands, in the order the overview lists them.
enum Commands {
    static let all: [Command] = [measure, profile, viewshed, render, view, track, info, merge, compare]

    /// The table the command line looks commands up in, and finds their usage lines in.
    static let table = CommandTable(all)

    static func named(_ name: String) -> Command? { table.named(name) }

    /// Every subcommand's name, with `help`, for "did you mean".
    static var names: [String] { all.map(\.name) + ["help"] }

    static let measure = MeasureCommand.command

    static let profile = Command(
        name: "profile", summary: "Elevation profile, statistics and line of sight between points",
        usage: ["transect profile [--dem PATH…] (--from LON,LAT --to LON,LAT | --path LON,LAT LON,LAT… | --track FILE) [options]"],
        description: """
            Sample the elevation profile along the geodesic between points, with statistics and the
            line of sight from the first point to the last.
            """,
        options: ProfileOptions.all,
        notes: """
            Samples follow the geodesic (not a straight line in lon/lat). A sample is a gap where
            the DEM cells with data carry less than half of the interpolation weight (always at a
            no-data cell's centre); gaps are null in JSON, empty in CSV, and skipped by the
            statistics. Horizontal and surface lengths "with data" run over the same steps, those
            with data at both ends; the first horizontal length is the whole path's.

            Line of sight: every terrain height is reduced by cc·d²/(2R), with d the geodesic distance
            from the start, R = 6,371,008.8 m and cc the curvature coefficient; the sight line is
            straight between the reduced observer and target heights. The verdict is visible,
            obstructed (with the first obstruction), or unknown when only samples in gaps could
            block it. A path whose vertices stray from the geodesic between its ends by more than
            1e-6 of its length, that turns back, or a track in several segments, has no line of
            sight (JSON null, with line_of_sight_reason).
            """,
        run: { args, console in try ProfileCommand.run(args, console: console) })

    /// `viewshed`, reading observers files with TransectFormats' parsers.
    static let viewshed = ViewshedCommand.command(readObservers: ObserverFiles.read)

    static let render = Command(
        name: "render", summary: "Annotated map (PNG, SVG, PDF, GeoTIFF): DEM basemap, measurements, places",
        usage: [
            "transect render [--dem PATH…] -o FILE.png|svg|pdf|tif [--scene FILE.json] [options]",
            "transect render --scenes LIST [--shard K/N|auto [--skip-existing] [--manifest FILE]] [options]",
        ],
        description: """
            Render an annotated map: a DEM basemap with measurements, places, scale bar, north arrow,
            title and attribution. The format follows -o's extension (or --format): a PNG carries
            its georeference beside it (a .pgw world file and a .aux.xml with the CRS); a .tif is a
            Cloud-Optimized GeoTIFF with the CRS and geotransform inside; an .svg or .pdf has the
            basemap as one embedded image at the map's pixels and everything over it as vectors,
            with the fonts embedded. GDAL and desktop GIS read the PNG and the GeoTIFF in place.
            Nothing drawn overlaps and nothing leaves the image: space goes to the measurement
            labels, title, scale bar, north arrow, attribution, legend, Start/End labels and place
            labels, in that order; what does not fit is left out and counted on stderr.
            """,
        options: RenderOptions.all,
        notes: """
            --scenes renders each scene of LIST as --scene would, with the options given over it; a
            scene that fails is named by its line (LIST:LINE) and the others are still rendered; the
            exit code is 1, or 75 when a failure is worth retrying. With --shard K/N the S scenes
            (the lines that are neither blank nor # comments) are cut into N contiguous runs, scene s
            in shard ⌊(s − 1)·N/S⌋ + 1; when every scene of the shard is
            written, its manifest lands: the SHA-256 of LIST, the shard and its lines, the options,
            and each scene file and each file written with their SHA-256.
            """,
        run: { args, console in try RenderCommand.run(args, console: console) })

    static let view = Command(
        name: "view", summary: "Perspective view (PNG, SVG, PDF) of the terrain with the measurement, tracks and places",
        usage: ["transect view --dem PATH… -o FILE.png|svg|pdf [--camera LON,LAT[,Z] | --look-at LON,LAT[,Z] --distance M] [options]"],
        description: """
            Render the terrain in perspective, as a camera standing at a real place sees it, with the
            measurement (its direct line, horizontal leg at the lower end's height and vertical leg,
            each labelled), draped tracks and pinned places. Parts of lines hidden by terrain are dashed.
            The format follows -o's extension (or --format): in an .svg or .pdf the terrain is one
            embedded image at the view's pixels and the overlays are vectors.
            """,
        options: ViewOptions.all,
        notes: """
            The DEM's cells go ellipsoid → earth-centred → the camera's east-north-up frame, so the
            earth's curvature is exact; refraction lowers far terrain by the effective radius R/(1 − K).
            The camera's heading runs clockwise from north; pitch 0 looks straight down, 90 at the
            horizon. Without --camera or --look-at the view frames the measurement (or the tracks, or
            the DEM) from the side. Terrain is drawn with a depth buffer, four samples a pixel at fixed
            positions, the same bytes for any --threads.
            """,
        run: { args, console in try ViewCommand.run(args, console: console) })

    static let track = Command(
        name: "track", summary: "Location history: read, clean, densify, simulate, summarise",
        usage: ["transect track --in FILE [--stats] [--simulate] [-o TRACK] [--stats-out FILE] [options]"],
        description: """
            Read a location history (GPX 1.0/1.1, GeoJSON, Esri JSON polylines, CSV lon,lat[,ele][,time]),
            drop invalid positions ((0, 0), out of range, negative accuracy), summarise it (--stats,
            the default) and write it out (-o: GPX, GeoJSON, CSV or GeoPackage), densified
            (--max-segment), simulated as a location source along it (--simulate) or with DEM
            elevations (--dem). Segments stay segments in every step and every format: no line,
            fix, length, time or climb crosses the gap between two of them. The statistics go to
            stdout or --stats-out, never into a track file.

            A bad time never drops a fix: its position stays in the lengths. Durations and speeds use
            the usable times only, those later than the last usable one in the segment; a fix with a
            repeated (coarse), backward or missing time is walked through, its distance added to the
            step between the usable times around it. Speeds are in km/h (metric, m, km), mph
            (imperial, ft, yd, mi) or knots (nmi). With --dem, fixes outside the DEM or on its no data
            keep their recorded elevations (said on stderr); if no fix has any elevation left, the
            run fails. --method picks whose rules the statistics follow; every method keeps segments
            apart (no length or time across the gap between two) and sums them.

            transect (the default): geodesic lengths on the WGS84 ellipsoid; gain and loss with the
            --gain-threshold hysteresis; duration the time from each segment's first usable time to
            its last, summed (the clock time from the first fix to the last is shown beside it);
            steps at 1 km/h or faster are moving; the maximum speed is the highest average over any
            stretch of one segment lasting at least 60 s and covering at least 200 m, so one bad fix
            or timestamp hardly moves it; the fastest single step is shown as raw.

            gpxpy: gpxpy's own numbers. Its distance: a flat approximation (111,319.49 m a degree of
            latitude, longitude scaled by the cosine of the latitude), the haversine on a 6,378,137 m
            sphere for points more than 0.2 degrees apart; 3D by Pythagoras. Duration each
            segment's first to last time, summed (unknown if a segment lacks them). A step at 1 km/h
            or slower is stopped. The maximum speed drops steps whose length is more than 1.5
            standard deviations from the mean and the fastest 5 % of the rest. Elevations are
            smoothed 0.3/0.4/0.3 with their neighbours before uphill and downhill are summed.

            gpx-studio: gpx.studio's. The haversine on a 6,371,008.8 m sphere, no 3D length; a step
            from 0.5 to 1,500 km/h is moving; gain and loss after Ramer-Douglas-Peucker at 20 m on
            distance against elevation, each stretch between kept points smoothed over a 0.1 km
            window; it shows no maximum speed, so the top of its speed chart (a 10 s window) is given.
            """,
        options: TrackOptions.all,
        run: { args, console in try TrackCommand.run(args, console: console) })

    static let info = Command(
        name: "info", summary: "Describe a DEM: driver, size, CRS, extent, resolution, elevation range",
        usage: ["transect info [--dem] PATH… [--mosaic] [--format text|json]"],
        description: """
            Describe each DEM named (a file, or the mosaic of a directory's tiles), as gdalinfo
            describes a file: driver, size, CRS, extent in lon/lat, resolution in metres, no-data
            value, unit and elevation range. With --mosaic, the DEMs as the one mosaic the other
            commands read.
            """,
        options: InfoOptions.all,
        run: { args, console in try InfoCommand.run(args, console: console) })

    static let merge = Command(
        name: "merge", summary: "Join the outputs of the shards of one --pairs batch or viewshed run",
        usage: ["transect merge PART… [-o FILE]"],
        description: """
            Check the outputs of the shards of a batch of pairs (transect measure, each shard with
            its output PART) through the manifests beside them (PART.manifest.json): every shard 1…N of one input (the same
            SHA-256), made with the same options, is there exactly once, and each output still has
            the SHA-256 its manifest records. Then concatenate them in shard order (only shard 1
            holds the header): the bytes one run over the whole file writes. The parts of a
            viewshed run split over its observers file are joined cell by cell instead (counts
            added, masks or-ed, visibility combined), into the raster one run writes. Last, remove the
            temporaries killed shards left beside the parts (.PART.tmp-HOST-PID-N), of any host
            but the live processes of this one: run it once every shard has ended.
            """,
        options: MergeOptions.all,
        notes: """
            Exit codes: 1 when a shard is missing, given twice, of another input or changed; 75
            (EX_TEMPFAIL) when reading or writing failed in a way worth retrying.
            """,
        run: { args, console in try MergeCommand.run(args, console: console) })

    static let compare = CompareDefinition.command { args, console in try CompareCommand.run(args, console: console) }
}
