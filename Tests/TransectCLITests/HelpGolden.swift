// The help texts as they must read: generated from the Command table, pinned here so that any
// change to an option, its help or the layout shows up as a diff in review.
enum HelpGolden {
    static let overview = #"""
        transect 0.1.0: offline terrain measurement from DEM files

        USAGE: transect <subcommand> [options]

        SUBCOMMANDS:
          measure     Direct, horizontal and vertical distance between two points
          profile     Elevation profile, statistics and line of sight between points
          viewshed    What observers see over a DEM: visibility, counts, heights (GeoTIFF)
          render      Annotated map (PNG, SVG, PDF, GeoTIFF): DEM basemap, measurements, places
          view        Perspective view (PNG, SVG, PDF) of the terrain with the measurement, tracks and places
          track       Location history: read, clean, densify, simulate, summarise
          info        Describe a DEM: driver, size, CRS, extent, resolution, elevation range
          merge       Join the outputs of the shards of one --pairs batch or viewshed run
          compare     Compare rendered images (or directories of them) against baselines, for CI
          help        Show help for a subcommand

        OPTIONS:
          -h, --help     Show this help
          --version      Show the version

        Coordinates are WGS84 LON,LAT in degrees unless --crs is given. Distances are metres
        inside; --units picks how they are shown. Without --dem, heights come from ETOPO5, a
        5-arc-minute global grid. Exit codes: 0 success, 1 bad data, 2 bad usage, 75 a failure
        worth retrying (I/O). See 'transect help <subcommand>'.
        """#

    static let measure = #"""
        Measure the direct (3D), horizontal (geodesic) and vertical distance between two points.

        USAGE: transect measure [--dem PATH…] --from LON,LAT[,Z] --to LON,LAT[,Z] [options]
               transect measure [--dem PATH…] --pairs FILE|- [--out FILE] [--strict]
               transect measure [--dem PATH…] --pairs FILE --shard K/N|auto [--out PART [--skip-existing]]

        OPTIONS:
          --dem PATH              A DEM file, a directory of tiles or a glob; repeatable. Together
                                  they are one mosaic. Default: ETOPO5 (5′ global grid).
          --nodata V              Cells holding V are no data, whatever the DEM records: once for
                                  every DEM, or once for each --dem in turn.
          --from LON,LAT[,Z]      Start. Z is an absolute height in metres; without it the height
                                  comes from the DEM.
          --to LON,LAT[,Z]        End, as --from.
          --above-ground M        Metres added to heights sampled from the DEM. Default: 0 m.
          --units U               metric (m/km), imperial (ft/mi), or m, km, ft, mi, yd, nmi (also
                                  by name: metres, feet, miles, nautical-miles, …). Default: metric.
          -r, --interpolation I   nearest (or near), bilinear or cubic. Default: bilinear.
          --geoid egm96|PATH      Geoid grid for ellipsoidal heights (h = H + N) in the direct
                                  distance; egm96 is PROJ's egm96_15.gtx.
          --crs CRS               Coordinates are X,Y in this CRS (EPSG:32611, or just 32611), not
                                  lon/lat.
          --format F              text (the label) or json; csv for --pairs; geojson, geojsonseq,
                                  gpkg or flatgeobuf for a measurements layer. Default: by -o's
                                  extension, else text (csv with --pairs).
          --max-segment M         In a layer, no step of a measured line is longer than M metres:
                                  the line follows the geodesic in any GIS. Default: 1000 m.
          --pairs FILE|-          Batch: CSV with header from_lon,from_lat,to_lon,to_lat (optional
                                  id, from_z, to_z); streams CSV rows with an error column.
          --strict                With --pairs, stop at the first bad row (exit 1).
          --shard K/N|auto        With --pairs FILE, measure only the K-th of N contiguous row
                                  ranges (only shard 1 writes the header); auto takes K and N from
                                  Slurm, Kubernetes or AWS Batch array variables. With -o, writes
                                  FILE.manifest.json beside it.
          --skip-existing         With --shard and -o, do nothing when the output and its manifest
                                  already match this input and these options.
          --threads N             Worker threads. Default: every online CPU; 1 runs on one thread;
                                  the output is the same bytes for any N.
          -o, --out FILE          Write results to FILE (atomically) instead of stdout.
          --allow-network         Let GDAL read network paths (/vsicurl/, /vsis3/, URLs).
          --timeout S             With --allow-network: a server that does not answer fails the run
                                  within S seconds a request, retries included (exit 75). Default:
                                  30.
          --confine DIR           Read DEMs, their VRT sources and the geoid only beside or below
                                  DIR (repeatable); without it a VRT's sources may be raster files
                                  anywhere.
          -h, --help              Show this help.

        Horizontal is the geodesic on the WGS84 ellipsoid (Karney); vertical is end minus start
        elevation; direct is the straight line between the points in earth-centred coordinates.
        """#

    static let profile = #"""
        Sample the elevation profile along the geodesic between points, with statistics and the
        line of sight from the first point to the last.

        USAGE: transect profile [--dem PATH…] (--from LON,LAT --to LON,LAT | --path LON,LAT LON,LAT… | --track FILE) [options]

        OPTIONS:
          --dem PATH                 A DEM file, a directory of tiles or a glob; repeatable.
          --nodata V                 Cells holding V are no data, whatever the DEM records: once for
                                     every DEM, or once for each --dem in turn.
          --from LON,LAT             Start of the profile.
          --to LON,LAT               End of the profile.
          --path LON,LAT …           Two or more vertices, profiled leg after leg with continuous
                                     distance (instead of --from/--to).
          --track FILE               Profile along a track (GPX, GeoJSON, Esri JSON, CSV; - reads
                                     stdin), segment after segment: a break between segments, never
                                     a line across the gap.
          --elevations E             With --track: recorded (the default without --dem: the track's
                                     own points and elevations, no DEM read) or dem (the default
                                     with --dem: the DEM sampled along the track).
          --max-segment M            With --track, densify the track first so no step exceeds M
                                     metres.
          --step M                   Metres between samples (default: the DEM's resolution at the
                                     path's middle). The last step of each leg may be shorter.
          --samples N                N evenly spaced samples instead of a step.
          --max-samples N            The most samples the profile may take. Default: 10,000,000.
          --observer-height M        Eye height above the terrain at the start. Default: 1.7 m.
          --target-height M          Target height above the terrain at the end. Default: 0 m.
          --curvature C              Curvature coefficient cc: terrain at distance d is lowered by
                                     cc·d²/(2R) (1 = curvature only, 0 = flat earth; default
                                     0.85714).
          --refraction K             Refraction coefficient k, the same parameter as --curvature 1 −
                                     k (default 0.14286).
          -r, --interpolation I      nearest (or near), bilinear or cubic. Default: bilinear.
          --crs CRS                  --from/--to/--path points are X,Y in this CRS (EPSG:32611, or
                                     just 32611) instead of lon/lat.
          --units U                  Units of the text table: metric, imperial, m, km, ft, mi, yd,
                                     nmi. Default: metric.
          --format F                 text, json, csv (json and csv are in metres) or gpkg (layers
                                     profile, samples and obstruction). Default: gpkg for -o
                                     FILE.gpkg, else text.
          -o, --out FILE             Write to FILE (atomically) instead of stdout.
          --chart FILE               Also draw the profile chart (elevation against distance, sight
                                     line, obstruction, extremes) for a report: .png, .svg or .pdf
                                     by the extension; - for stdout with -o FILE (--chart-format,
                                     else PNG).
          --chart-format png|svg|pdf
                                     Write the chart in this format whatever its name's extension
                                     says (default: by the extension).
          --chart-size WxH           Chart size in pixels (at least 300x200), or a print size at
                                     --dpi (160x100mm, 6.5x4in). Default: 1200x600.
          --dpi N                    The chart's resolution: text, lines and symbols are drawn
                                     dpi/96 times their size (default 96, or 300 for a print
                                     --chart-size).
          --font-scale F             The chart's text F times its size; lines and symbols keep
                                     theirs. Default: 1.
          --chart-layout FILE.json   Also write where the chart's title, legend and labels went.
          --title TEXT               The chart's title. Default: Elevation profile.
          --png fast|balanced|small  PNG compression: fast (zlib level 1, run-length), balanced
                                     (level 4 or run-length, the shorter per strip) or small (level
                                     9 or run-length); the pixels are the same. Default: balanced.
          --threads N                Worker threads. Default: every online CPU; 1 runs on one
                                     thread; the output is the same bytes for any N.
          --allow-network            Let GDAL read network paths (/vsicurl/, /vsis3/, URLs).
          --timeout S                With --allow-network: a server that does not answer fails the
                                     run within S seconds a request, retries included (exit 75).
                                     Default: 30.
          --confine DIR              Read DEMs, their VRT sources and the geoid only beside or below
                                     DIR (repeatable); without it a VRT's sources may be raster
                                     files anywhere.
          -h, --help                 Show this help.

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
        """#

    static let viewshed = #"""
        Compute what one or many observers see over a DEM and write it as a Cloud-Optimized
        GeoTIFF on the DEM's own grid and CRS, with a summary on stdout. One observer gives its
        visibility (or the least visible target height, or the angle above the horizon, and
        the horizon per azimuth); several give the count of observers that see each cell, or
        which (a bitmask, up to 64).

        USAGE: transect viewshed [--dem PATH…] (--observer LON,LAT[,Z]… | --observers FILE) -o FILE.tif [options]

        OPTIONS:
          --dem PATH               A DEM file, a directory of tiles or a glob; repeatable.
          --nodata V               Cells holding V are no data, whatever the DEM records: once for
                                   every DEM, or once for each --dem in turn.
          --observer LON,LAT[,Z]   An observer; with Z, its eye's height above the DEM's datum
                                   instead of --observer-height above the ground. Repeatable.
          --observers FILE         Observers from a CSV (lon, lat and optionally name, z, height,
                                   target_height columns), GeoJSON Points (the same as properties; a
                                   third coordinate is z) or a GeoPackage's points (the same fields,
                                   in its CRS); - reads stdin.
          --observer-height M      Eye height above the terrain, for observers without z or height.
                                   Default: 1.7 m.
          --target-height M        Target height above the terrain of every cell, for observers
                                   without target_height. Default: 0 m.
          --curvature C            Curvature coefficient cc: terrain at distance d is lowered by
                                   cc·d²/(2R) (1 = curvature only, 0 = flat earth; default 0.85714).
          --refraction K           Refraction coefficient k, the same parameter as --curvature 1 − k
                                   (default 0.14286).
          --max-distance M         Cells farther than M metres are out of range (default: the whole
                                   DEM).
          --min-distance M         Cells nearer than M metres are out of range. Default: 0 m.
          --azimuth A1:A2          Only cells in the directions clockwise from A1 to A2 degrees
                                   (e.g. 300:60).
          --pitch P1:P2            Only cells whose sight line's pitch lies from P1 to P2 degrees
                                   above the level (e.g. -10:90).
          -r, --interpolation I    How the terrain is read along sight lines: nearest (or near),
                                   bilinear or cubic, as profile reads it. Default: bilinear.
          -o, --out FILE           The raster: a Cloud-Optimized GeoTIFF (.tif) on the DEM's grid
                                   and CRS.
          --output WHAT            What -o holds: visibility (Byte: visible 255, hidden 0, unknown
                                   2, out of range 1), count (UInt32: observers that see each cell),
                                   mask (UInt64: bit k for observer k, up to 64), min-height
                                   (Float32 metres) or angle (Float32 degrees above the horizon;
                                   these two for one observer). Default: visibility for one
                                   observer, count for several.
          --horizon FILE.csv       Also write the horizon: each sight ray's azimuth, elevation angle
                                   and distance (one observer).
          --shard K/N|auto         With --observers FILE, compute only the K-th of N contiguous
                                   ranges of its observers (auto: K and N from Slurm, Kubernetes or
                                   AWS Batch array variables) and write -o's part of the count, mask
                                   or visibility with FILE.manifest.json beside it; transect merge
                                   joins the parts into the bytes of one run.
          --format F               The summary on stdout: text or json. Default: text.
          --threads N              Worker threads. Default: every online CPU; 1 runs on one thread;
                                   the output is the same bytes for any N.
          --allow-network          Let GDAL read network paths (/vsicurl/, /vsis3/, URLs).
          --timeout S              With --allow-network: a server that does not answer fails the run
                                   within S seconds a request, retries included (exit 75). Default:
                                   30.
          --confine DIR            Read DEMs, their VRT sources and the geoid only beside or below
                                   DIR (repeatable); without it a VRT's sources may be raster files
                                   anywhere.
          -h, --help               Show this help.

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
        """#

    static let render = #"""
        Render an annotated map: a DEM basemap with measurements, places, scale bar, north arrow,
        title and attribution. The format follows -o's extension (or --format): a PNG carries
        its georeference beside it (a .pgw world file and a .aux.xml with the CRS); a .tif is a
        Cloud-Optimized GeoTIFF with the CRS and geotransform inside; an .svg or .pdf has the
        basemap as one embedded image at the map's pixels and everything over it as vectors,
        with the fonts embedded. GDAL and desktop GIS read the PNG and the GeoTIFF in place.
        Nothing drawn overlaps and nothing leaves the image: space goes to the measurement
        labels, title, scale bar, north arrow, attribution, legend, Start/End labels and place
        labels, in that order; what does not fit is left out and counted on stderr.

        USAGE: transect render [--dem PATH…] -o FILE.png|svg|pdf|tif [--scene FILE.json] [options]
               transect render --scenes LIST [--shard K/N|auto [--skip-existing] [--manifest FILE]] [options]

        OPTIONS:
          --dem PATH                 A DEM file, a directory of tiles or a glob; repeatable. Without
                                     it no terrain is drawn (a canvas with a graticule).
          --no-dem                   Draw no terrain even where a scene names a DEM.
          --nodata V                 Cells holding V are no data, whatever the DEM records: once for
                                     every DEM, or once for each --dem in turn.
          -o, --out FILE             The map to write (atomically), in the format its extension
                                     names: .png (with a world file), .svg, .pdf, or .tif (a
                                     Cloud-Optimized GeoTIFF).
          --format png|svg|pdf|tif   Write the map and the frames in this format whatever its name's
                                     extension says (default: by the extension).
          --layout FILE.json         Also write where the title, legend, north arrow, scale bar,
                                     attribution, labels and markers went (pixel boxes, y down).
          --layers FILE.gpkg         Also write what the map shows as GeoPackage layers in its CRS:
                                     frame, measurements, places, trails, fixes and labels.
          --scene FILE.json          Settings from a JSON file whose keys are these options' names;
                                     relative paths resolve against the file; flags override it.
          --size WxH                 Pixels (1600x1000), or a print size at --dpi (160x100mm,
                                     6.5x4in; also cm and pt). Default: 1600x1000.
          --extent W,S,E,N           The frame in lon/lat. Default: the content with --margin around
                                     it.
          --extent-crs X0,Y0,X1,Y1   The frame as a box in the frame's CRS: --frame-crs, or a
                                     projected DEM's.
          --margin F                 Margin around fitted content, a fraction of its span. Default:
                                     0.12.
          --frame-crs CRS            The map's projected CRS (EPSG:3857 for Web Mercator). Default:
                                     the DEM's if projected, else the UTM zone of what is shown, or
                                     the azimuthal equidistant projection centred on it when it
                                     reaches over 1,000 km from its centre or past UTM's latitudes.
          --crs CRS                  --measure points are X,Y in this CRS (EPSG:32611, or just
                                     32611), not lon/lat.
          --basemap B                hillshade, light-gray, tint, none, or an image GDAL can
                                     georeference (PNG + world file, GeoTIFF). Default: hillshade.
          --azimuth D                Hillshade light: the sun's azimuth in degrees, as gdaldem
                                     hillshade. Default: 315°.
          --altitude D               Hillshade light: the sun's altitude in degrees. Default: 45°.
          --z-factor Z               Hillshade vertical exaggeration. Default: 1.
          --multidirectional         Hillshade lit from several directions, as gdaldem
                                     -multidirectional.
          --measure LON,LAT:LON,LAT  A measurement line with its label; repeatable. Ends without Z
                                     take heights from the DEM (ETOPO5 without one).
          -r, --interpolation I      nearest (near), bilinear, cubic or cubicspline: how the DEM is
                                     resampled into the map, as gdalwarp's -r (by default
                                     cubicspline where a pixel is finer than a DEM cell, bilinear
                                     elsewhere), and how --measure heights are sampled (cubic for
                                     cubicspline). Default: bilinear.
          --geoid egm96|PATH         Geoid grid for ellipsoidal heights (h = H + N) in the --measure
                                     labels' direct distance; egm96 is PROJ's egm96_15.gtx.
          --places FILE              Places to label (CSV name,lon,lat or GeoJSON points; - for
                                     stdin); repeatable.
          --track FILE               A location history to draw as a trail (GPX, GeoJSON, Esri JSON,
                                     CSV), one fix per vertex; repeatable. The frame opens at
                                     1:10,000 where the size allows.
          --viewshed FILE.tif        Draw a viewshed over the basemap: a visibility raster transect
                                     viewshed wrote (hidden and unknown ground veiled, with a
                                     legend).
          --observer LON,LAT[,Z]     Compute the viewshed of this observer on the --dem and draw it
                                     as --viewshed does (Z: the eye above the datum); repeatable.
          --observer-height M        With --observer: the eye's height above the terrain where Z is
                                     not given. Default: 1.7 m.
          --max-segment M            Densify --track files along geodesics so no step exceeds M
                                     metres. Default: 50 m.
          --frames DIR               Also write numbered frames, frame k showing the fixes up to k.
          --every N                  With --frames, one frame per N fixes. Default: 1.
          --title TEXT               A title in the top-left corner.
          --decorations all|none     none leaves out scale bar, north arrow, title and attribution.
                                     Default: all.
          --units U                  Units of labels and the scale bar (metric, imperial, m, km, ft,
                                     mi, yd, nmi). Default: metric.
          --dpi N                    Resolution: text, lines and symbols are drawn dpi/96 times
                                     their size, so they keep their size in points (default 96, or
                                     300 for a print --size).
          --font-scale F             Text F times its size; lines and symbols keep theirs. Default:
                                     1.
          --max-pixels N             The most pixels a frame may have. Default: 100,000,000.
          --png fast|balanced|small  PNG compression: fast (zlib level 1, run-length), balanced
                                     (level 4 or run-length, the shorter per strip) or small (level
                                     9 or run-length); the pixels are the same. Default: balanced.
          --threads N                Worker threads. Default: every online CPU; 1 runs on one
                                     thread; the output is the same bytes for any N.
          --scenes LIST              Render every scene file LIST names, one a line (relative to
                                     LIST; blank lines and # comments skipped), each written where
                                     its own out says; the other options apply to every scene as
                                     over --scene.
          --shard K/N|auto           With --scenes, render only the K-th of N contiguous runs of
                                     LIST's scenes (scene s of S in shard ⌊(s − 1)·N/S⌋ + 1); auto
                                     takes K and N from Slurm, Kubernetes or AWS Batch array
                                     variables. Writes a manifest once every scene of the shard is
                                     written, and till then records each scene written in
                                     MANIFEST.journal.
          --skip-existing            With --shard, do nothing when the shard's manifest matches
                                     LIST, its scene files and these options, and every output it
                                     lists still has its SHA-256; else render only the scenes its
                                     journal (or manifest) does not record with their files
                                     unchanged.
          --manifest FILE            With --shard, where the shard's manifest goes. Default: beside
                                     LIST, LIST.shard-K-of-N.manifest.json.
          --allow-network            Let GDAL read network paths (/vsicurl/, /vsis3/, URLs).
          --timeout S                With --allow-network: a server that does not answer fails the
                                     run within S seconds a request, retries included (exit 75).
                                     Default: 30.
          --confine DIR              Read DEMs, their VRT sources and the geoid only beside or below
                                     DIR (repeatable); without it a VRT's sources may be raster
                                     files anywhere.
          -h, --help                 Show this help.

        --scenes renders each scene of LIST as --scene would, with the options given over it; a
        scene that fails is named by its line (LIST:LINE) and the others are still rendered; the
        exit code is 1, or 75 when a failure is worth retrying. With --shard K/N the S scenes
        (the lines that are neither blank nor # comments) are cut into N contiguous runs, scene s
        in shard ⌊(s − 1)·N/S⌋ + 1; when every scene of the shard is
        written, its manifest lands: the SHA-256 of LIST, the shard and its lines, the options,
        and each scene file and each file written with their SHA-256.
        """#

    static let view = #"""
        Render the terrain in perspective, as a camera standing at a real place sees it, with the
        measurement (its direct line, horizontal leg at the lower end's height and vertical leg,
        each labelled), draped tracks and pinned places. Parts of lines hidden by terrain are dashed.
        The format follows -o's extension (or --format): in an .svg or .pdf the terrain is one
        embedded image at the view's pixels and the overlays are vectors.

        USAGE: transect view --dem PATH… -o FILE.png|svg|pdf [--camera LON,LAT[,Z] | --look-at LON,LAT[,Z] --distance M] [options]

        OPTIONS:
          --dem PATH              A DEM file, a directory of tiles or a glob; repeatable. Together
                                  they are one mosaic, the terrain shown.
          --nodata V              Cells holding V are no data, whatever the DEM records: once for
                                  every DEM, or once for each --dem in turn.
          -o, --out FILE          The image to write (atomically): .png, .svg or .pdf by the
                                  extension; - for stdout (--format, else PNG).
          --format png|svg|pdf    Write the image and the frames in this format whatever its name's
                                  extension says (default: by the extension).
          --scene FILE.json       Settings from a JSON file whose keys are these options' names;
                                  relative paths resolve against the file; flags override it.
          --viewshed FILE.tif     Drape a viewshed over the terrain: a visibility raster transect
                                  viewshed wrote (hidden ground veiled dark, unknown violet).
          --camera LON,LAT[,Z]    Where the camera stands; Z in metres, the DEM's heights (default:
                                  100 m above the terrain). Default: the measurement (or the tracks,
                                  or the DEM) framed from the side.
          --heading D             Camera heading, clockwise from north.
          --pitch D               Camera pitch: 0 looks straight down, 90 at the horizon.
          --roll D                Camera roll, clockwise. Default: 0°.
          --fov D                 Horizontal field of view. Default: 60°.
          --size WxH              Pixels (1600x1000), or a print size at --dpi (160x100mm, 6.5x4in).
                                  Default: 1600x1000.
          --dpi N                 Resolution: labels, lines and markers are drawn dpi/96 times their
                                  size (default 96, or 300 for a print --size).
          --font-scale F          Text F times its size; lines and symbols keep theirs. Default: 1.
          --look-at LON,LAT[,Z]   With --distance: the point the camera looks at, from --heading and
                                  --pitch; Z defaults to the terrain's height.
          --distance M            With --look-at: the camera's distance from it.
          --curvature C           Curvature coefficient cc: terrain at distance d is lowered by
                                  cc·d²/(2R) (1 = curvature only, 0 = flat earth; default 0.85714).
          --refraction K          Refraction coefficient k, the same parameter as --curvature 1 − k
                                  (default 0.14286).
          --basemap B             How terrain is shaded: hillshade or tint, as the maps. Default:
                                  hillshade.
          --from LON,LAT[,Z]      The measurement's start. Z is an absolute height in metres;
                                  without it the height comes from the DEM.
          --to LON,LAT[,Z]        The measurement's end, as --from.
          --units U               Units of the measurement's labels (metric, imperial, m, km, ft,
                                  mi, yd, nmi). Default: metric.
          --track FILE            A location history to drape on the terrain (GPX, GeoJSON, Esri
                                  JSON, CSV); repeatable.
          --places FILE           Places to pin (CSV name,lon,lat or GeoJSON points; - for stdin);
                                  repeatable.
          --anchors FILE.json     Also write where the measurement's ends and corner, each place and
                                  each track vertex land in the image.
          --frames DIR            With --orbit: write the orbit's frames to DIR instead of one
                                  image.
          --orbit N               With --frames: N frames circling the look-at point, heading
                                  turning 360°/N each.
          --png fast|balanced|small
                                  PNG compression: fast (zlib level 1, run-length), balanced (level
                                  4 or run-length, the shorter per strip) or small (level 9 or
                                  run-length); the pixels are the same. Default: balanced.
          --threads N             Worker threads. Default: every online CPU; 1 runs on one thread;
                                  the output is the same bytes for any N.
          --allow-network         Let GDAL read network paths (/vsicurl/, /vsis3/, URLs).
          --timeout S             With --allow-network: a server that does not answer fails the run
                                  within S seconds a request, retries included (exit 75). Default:
                                  30.
          --confine DIR           Read DEMs, their VRT sources and the geoid only beside or below
                                  DIR (repeatable); without it a VRT's sources may be raster files
                                  anywhere.
          -h, --help              Show this help.

        The DEM's cells go ellipsoid → earth-centred → the camera's east-north-up frame, so the
        earth's curvature is exact; refraction lowers far terrain by the effective radius R/(1 − K).
        The camera's heading runs clockwise from north; pitch 0 looks straight down, 90 at the
        horizon. Without --camera or --look-at the view frames the measurement (or the tracks, or
        the DEM) from the side. Terrain is drawn with a depth buffer, four samples a pixel at fixed
        positions, the same bytes for any --threads.
        """#

    static let track = #"""
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

        USAGE: transect track --in FILE [--stats] [--simulate] [-o TRACK] [--stats-out FILE] [options]

        OPTIONS:
          --in FILE               The track file (GPX, GeoJSON, Esri JSON or CSV); - reads stdin.
          --stats                 Statistics (the default): points, segments, 2D and 3D length, gain
                                  and loss, elevation range, duration, moving time, speeds, bounding
                                  box; on stdout, or in --stats-out.
          --simulate              Emit fixes: one per vertex 1 s apart after densifying to
                                  --max-segment (the location-history sample's source), or spaced
                                  --speed M/S × 1 s along the line. Each fix has time, position,
                                  elevation, course (geodesic azimuth) and speed. Each segment is
                                  simulated on its own, never across the gap to the next; the clock
                                  pauses between segments (a segment's first fix is 1 s after the
                                  last one before it).
          --max-segment M         Densify along geodesics so no step within a segment exceeds M
                                  metres: the track written (times interpolated) and the statistics'
                                  elevations (default 50 with --simulate; no densifying otherwise
                                  unless given).
          --speed M/S             With --simulate: fixes at this speed instead of one per vertex.
          --start-time T          First fix time, ISO 8601. Default: 2000-01-01T00:00:00Z.
          --dem PATH              DEM for elevations; repeatable.
          --nodata V              Cells holding V are no data, whatever the DEM records: once for
                                  every DEM, or once for each --dem in turn.
          -r, --interpolation I   How elevations are sampled from --dem: nearest (or near), bilinear
                                  or cubic. Default: bilinear.
          --elevation E           dem (default when --dem is given) or recorded.
          --gain-threshold M      Hysteresis for gain and loss. Default: 3 m.
          --method M              Whose rules the statistics follow: transect (ours), gpxpy or
                                  gpx-studio (each described above). Default: transect.
          --units U               Units of the text summary: lengths, heights and speeds. Default:
                                  metric.
          --format F              The statistics' format, text (default) or json; or the track's,
                                  gpx, geojson, csv or gpkg (default from --out's extension; csv on
                                  stdout).
          -o, --out FILE          Write the track (after cleaning, --max-segment, --simulate and
                                  --dem elevations) to FILE, in the format its extension names
                                  (.gpx, .geojson, .csv, .gpkg) or --format gives; - for stdout (not
                                  gpkg).
          --stats-out FILE        Write the statistics to FILE (atomically) instead of stdout: JSON
                                  with --format json or a .json name, text otherwise.
          --allow-network         Let GDAL read network paths (/vsicurl/, /vsis3/, URLs).
          --timeout S             With --allow-network: a server that does not answer fails the run
                                  within S seconds a request, retries included (exit 75). Default:
                                  30.
          --confine DIR           Read DEMs, their VRT sources and the geoid only beside or below
                                  DIR (repeatable); without it a VRT's sources may be raster files
                                  anywhere.
          -h, --help              Show this help.
        """#

    static let info = #"""
        Describe each DEM named (a file, or the mosaic of a directory's tiles), as gdalinfo
        describes a file: driver, size, CRS, extent in lon/lat, resolution in metres, no-data
        value, unit and elevation range. With --mosaic, the DEMs as the one mosaic the other
        commands read.

        USAGE: transect info [--dem] PATH… [--mosaic] [--format text|json]

        OPTIONS:
          --dem PATH        A DEM file, a directory of tiles or a glob; repeatable.
          --nodata V        Cells holding V are no data, whatever the DEM records: once for every
                            DEM, or once for each --dem in turn.
          --format F        text or json. Default: text.
          --mosaic          Describe the DEMs named as the one mosaic other commands read, not each
                            on its own (as gdalinfo would).
          --stats           Also report the network requests (GET, HEAD) and bytes of opening the
                            DEM, of one point read at its centre, and of the description (which
                            reads every cell); zero for a local DEM.
          --allow-network   Let GDAL read network paths (/vsicurl/, /vsis3/, URLs).
          --timeout S       With --allow-network: a server that does not answer fails the run within
                            S seconds a request, retries included (exit 75). Default: 30.
          --confine DIR     Read DEMs, their VRT sources and the geoid only beside or below DIR
                            (repeatable); without it a VRT's sources may be raster files anywhere.
          -h, --help        Show this help.
        """#

    static let merge = #"""
        Check the outputs of the shards of a batch of pairs (transect measure, each shard with
        its output PART) through the manifests beside them (PART.manifest.json): every shard 1…N of one input (the same
        SHA-256), made with the same options, is there exactly once, and each output still has
        the SHA-256 its manifest records. Then concatenate them in shard order (only shard 1
        holds the header): the bytes one run over the whole file writes. The parts of a
        viewshed run split over its observers file are joined cell by cell instead (counts
        added, masks or-ed, visibility combined), into the raster one run writes. Last, remove the
        temporaries killed shards left beside the parts (.PART.tmp-HOST-PID-N), of any host
        but the live processes of this one: run it once every shard has ended.

        USAGE: transect merge PART… [-o FILE]

        OPTIONS:
          -o, --out FILE   Write the merged output to FILE (atomically) instead of stdout.
          -h, --help       Show this help.

        Exit codes: 1 when a shard is missing, given twice, of another input or changed; 75
        (EX_TEMPFAIL) when reading or writing failed in a way worth retrying.
        """#

    static let compare = #"""
        Compare two images, or two directories of them paired by relative path (PNGs, and GeoTIFFs
        and other 8-bit rasters GDAL reads), and judge each pair: a file on one side only, or two
        images of different sizes, fail. Two figures are measured in one pass: the RMS over 0–255
        of every channel value, exactly as matplotlib's compare_images computes it, and the pixels
        that differ perceptually as pixelmatch counts them (YIQ distance beyond --threshold, with
        anti-aliased pixels detected in both images and not counted), with their share.

        USAGE: transect compare BASELINE CANDIDATE [--tolerance rms=R|pixels=N|pixels=P%]… [--diff DIR] [--json FILE|-] [--report FILE.html] [--update]

        OPTIONS:
          --tolerance METRIC=VALUE   A bound a pair must keep to pass: rms=R (the RMS over 0–255),
                                     pixels=N (pixels counted as different) or pixels=P% (their
                                     share of the image); repeatable, one per metric. Without it a
                                     pair passes only when identical (rms=0); with it, only the
                                     metrics given are judged. Default: rms=0.
          --threshold T              The YIQ colour distance, as a share of the largest (black
                                     against white), beyond which a pixel counts as different
                                     (pixelmatch's threshold); anti-aliased pixels are never
                                     counted. Default: 0.1.
          --diff DIR                 Write a diff image for each pair that is not identical to
                                     DIR/PATH.diff.png: counted differences red, anti-aliasing
                                     yellow, smaller differences pink, over the baseline faded to
                                     grey.
          --json FILE|-              Write every pair's figures as JSON to FILE, or to stdout
                                     (instead of the text) with -.
          --report FILE.html         Write one self-contained HTML page (images inlined): each pair
                                     that differs with its baseline, candidate and diff side by
                                     side, worst first.
          --update                   Copy each candidate that fails over its baseline (those only in
                                     CANDIDATE too), all at once and atomically, and list them.
          --max-pixels N             The most pixels an image may have; a larger one is refused
                                     before it is decoded. Default: 100,000,000.
          --threads N                Worker threads. Default: every online CPU; 1 runs on one
                                     thread; the output is the same bytes for any N.
          -h, --help                 Show this help.

        RMS follows matplotlib's loader: an image keeps its alpha channel only when it is RGBA and
        some pixel is not opaque; grey and palette images count as RGB. Where matplotlib refuses a
        pair of 3 and 4 channels, the opaque one is compared with alpha 255.

        A directory contributes its .png, .tif and .tiff files (names starting with a dot aside).
        Stdout has a line per pair (identical, within or beyond the tolerance, with its figures)
        and a summary. Outputs (--diff, --json, --report, --update) are written together at the end, atomically:
        a run that fails on an unreadable image writes none of them. Exit codes: 0 when every pair
        is within tolerance (with --update: once every failing candidate replaced its baseline),
        1 when a pair is beyond it or an image cannot be read, 2 for bad usage.
        """#
}
