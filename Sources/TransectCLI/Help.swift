/// Help texts, printed on stdout by `-h/--help` and `transect help <subcommand>`.
enum Help {
    static let version = "0.1.0"

    static let overview = """
    transect \(version): offline terrain measurement from DEM files

    USAGE: transect <subcommand> [options]

    SUBCOMMANDS:
      measure    Direct, horizontal and vertical distance between two points
      info       Describe a DEM: driver, size, CRS, extent, resolution, elevation range
      help       Show help for a subcommand

    OPTIONS:
      -h, --help     Show this help
      --version      Show the version

    Coordinates are WGS84 LON,LAT in degrees unless --crs is given. Distances are metres
    inside; --units picks how they are shown. Without --dem, heights come from ETOPO5, a
    5-arc-minute global grid. Exit codes: 0 success, 1 bad data, 2 bad usage.
    See 'transect help <subcommand>'.

    """

    static let measureUsage = "transect measure [--dem PATH…] --from LON,LAT[,Z] --to LON,LAT[,Z] [options]"
    static let measure = """
    Measure the direct (3D), horizontal (geodesic) and vertical distance between two points.

    USAGE: \(measureUsage)
           transect measure [--dem PATH…] --pairs FILE|- [--out FILE] [--strict]

    OPTIONS:
      --dem PATH           A DEM file, a directory of tiles or a glob; repeatable. Together
                           they are one mosaic. Default: ETOPO5 (5′ global grid).
      --from LON,LAT[,Z]   Start. Z is an absolute height in metres; without it the height
                           comes from the DEM.
      --to LON,LAT[,Z]     End, as --from.
      --above-ground M     Metres added to heights sampled from the DEM (default 0).
      --units U            metric (m/km), imperial (ft/mi), or m, km, ft, mi, yd, nmi.
      --interpolation I    nearest, bilinear (default) or cubic.
      --geoid egm96|PATH   Geoid grid for ellipsoidal heights (h = H + N) in the direct
                           distance; egm96 is PROJ's egm96_15.gtx.
      --crs CRS            Coordinates are X,Y in this CRS (e.g. EPSG:32611), not lon/lat.
      --format F           text (the label, default) or json; csv for --pairs.
      --pairs FILE|-       Batch: CSV with header from_lon,from_lat,to_lon,to_lat (optional
                           id, from_z, to_z); streams CSV rows with an error column.
      --strict             With --pairs, stop at the first bad row (exit 1).
      -o, --out FILE       Write results to FILE (atomically) instead of stdout.
      -h, --help           Show this help.

    Horizontal is the geodesic on the WGS84 ellipsoid (Karney); vertical is end minus start
    elevation; direct is the straight line between the points in earth-centred coordinates.

    """

    static let infoUsage = "transect info [--dem] PATH… [--format text|json]"
    static let info = """
    Describe a DEM (or a mosaic of tiles): driver, size, CRS, extent in lon/lat, resolution
    in metres, no-data value, unit and elevation range.

    USAGE: \(infoUsage)

    OPTIONS:
      --dem PATH     A DEM file, a directory of tiles or a glob; repeatable.
      --format F     text (default) or json.
      -h, --help     Show this help.

    """

    static func usageLine(for command: String?) -> String {
        switch command {
        case "measure"?: measureUsage
        case "info"?: infoUsage
        default: "transect <subcommand> [options]"
        }
    }

    static func text(for command: String) -> String? {
        switch command {
        case "measure": measure
        case "info": info
        default: nil
        }
    }
}
