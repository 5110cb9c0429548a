// swift-tools-version:6.0
import PackageDescription

// The four command libraries' test targets run the command line in process and read its
// outputs back with GDAL: one list for all four.
let commandLineTestDependencies: [Target.Dependency] = [
    "TransectCLI", "TransectCLIBase", "TransectCLICompare", "TransectGDAL", "TransectSupport", "TransectGeodesy", "TransectAnalysis", "TransectPerspective",
    "TransectRender", "TransectFormats", "TransectImageCompare", "CGDAL", "TransectTestSupport", "TransectCLITestSupport",
]

let package = Package(
    name: "Transect",
    products: [
        .executable(name: "transect", targets: ["transect"]),
        .library(name: "TransectSupport", targets: ["TransectSupport"]),
        .library(name: "TransectGeodesy", targets: ["TransectGeodesy"]),
        .library(name: "TransectRaster", targets: ["TransectRaster"]),
        .library(name: "TransectAnalysis", targets: ["TransectAnalysis"]),
        .library(name: "TransectPerspective", targets: ["TransectPerspective"]),
        .library(name: "TransectVisibility", targets: ["TransectVisibility"]),
        .library(name: "TransectImageCompare", targets: ["TransectImageCompare"]),
        .library(name: "TransectPNG", targets: ["TransectPNG"]),
        .library(name: "TransectGDAL", targets: ["TransectGDAL"]),
        .library(name: "TransectRender", targets: ["TransectRender"]),
        .library(name: "TransectFormats", targets: ["TransectFormats"]),
        // The full command line as a shared library: the launcher loads it with dlopen only for
        // the commands that need GDAL, PROJ, cairo, libpng or Foundation. `make build` builds it
        // beside the executable (.build/release/libTransectCLI.so).
        .library(name: "TransectCLI", type: .dynamic, targets: ["TransectCLI"]),
        // `measure` and `viewshed` as a shared library without Foundation, cairo or libpng: the
        // launcher loads it for every measure it does not run itself and every viewshed without an
        // observers file (.build/release/libTransectCLIMeasure.so).
        // Product, target and library share the one name.
        .library(name: "TransectCLIMeasure", type: .dynamic, targets: ["TransectCLIMeasure"]),
        // `compare` of PNGs with the verdict on stdout as a shared library with libpng and zlib but
        // neither GDAL, cairo nor Foundation: the launcher loads it for every compare and it hands
        // on what it does not run (.build/release/libTransectCLICompare.so).
        .library(name: "TransectCLICompare", type: .dynamic, targets: ["TransectCLICompare"]),
    ],
    targets: [
        // System libraries from Debian, found through pkg-config.
        .systemLibrary(name: "CGDAL", pkgConfig: "gdal", providers: [.apt(["libgdal-dev"])]),
        .systemLibrary(name: "CPROJ", pkgConfig: "proj", providers: [.apt(["libproj-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo-ft", providers: [.apt(["libcairo2-dev"])]),
        // The PNG writer (zlib, strips deflated in parallel) and libpng's reader behind one C
        // file that owns the setjmp, returning error codes to Swift.
        .target(name: "CPNG", linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z")]),
        // SHA-256's compression function on the x86 SHA extensions, chosen by CPUID at run time.
        .target(name: "CSHA256"),

        // The kernels' prefetch and the target CPU's rounding, which Swift cannot spell: one
        // header of static inline functions and macros, nothing linked.
        .target(name: "CKernelHints"),
        // The pure-Swift modules, one idea each, as swift-numerics splits its maths. Each sees the
        // standard library and the platform's C library only, plus the modules named here; the
        // graph is the one ARCHITECTURE.md draws (a test holds the two together).
        // Support code: the errno funnel, SHA-256 (CSHA256, no library behind it), shards, the
        // number grammar and formatting, output bytes, JSON values, message and XML text,
        // directory entries, line counting, the parallel loop type, kernel hints (CKernelHints).
        .target(name: "TransectSupport", dependencies: ["CKernelHints", "CSHA256"]),
        // Geodesy: the ellipsoid, Karney's geodesics and their lanes, geodesic lines, ECEF, the
        // vector maths, GeoPoint and the coordinates users write, Web Mercator, earth curvature.
        .target(name: "TransectGeodesy", dependencies: ["TransectSupport"]),
        // Raster kernels: elevation grids, sampled windows, the bilinear kernel, the spline warp,
        // hillshade, the Hilbert order. Geodesy for its exact degree trigonometry (the sun).
        .target(name: "TransectRaster", dependencies: ["TransectSupport", "TransectGeodesy"]),
        // Analysis: measurements, pair batches, profiles and their statistics, line of sight,
        // tracks and their statistics, the location simulator, timestamps, units.
        .target(name: "TransectAnalysis", dependencies: ["TransectSupport", "TransectGeodesy"]),
        // Visibility: viewsheds, by a sweep of sight rays along geodesics over a raster in memory,
        // with the line of sight's model; cumulative over many observers. Raster for sampling as
        // profile samples.
        .target(name: "TransectVisibility", dependencies: ["TransectSupport", "TransectGeodesy", "TransectRaster"]),
        // The perspective renderer: camera, framing, the terrain scene and its levels, the
        // depth-buffer rasteriser. Raster for the hillshade that lights the scene.
        .target(name: "TransectPerspective", dependencies: ["TransectSupport", "TransectGeodesy", "TransectRaster"]),
        // Image comparison: matplotlib's RMS, pixelmatch's perceptual count and the diff image, in
        // one pass over two RGBA images; the caller lends the parallel loop.
        .target(name: "TransectImageCompare", dependencies: ["TransectSupport"]),
        // The formats `measure` reads without Foundation: the pairs CSV, CSV lines, line and chunk
        // readers, the strict JSON parser, FormatError.
        .target(name: "TransectFormatsBase", dependencies: ["TransectSupport", "TransectGeodesy", "TransectAnalysis"]),
        // Track, place and scene files with Foundation's parsers; re-exports TransectFormatsBase.
        .target(name: "TransectFormats", dependencies: ["TransectSupport", "TransectGeodesy", "TransectAnalysis", "TransectFormatsBase"]),
        // DEMs through GDAL: open, mosaic, CRS transforms, block reads, warping, the geoid and the
        // measurement and profile services. The only target that calls GDAL, OGR, OSR or CPL.
        .target(
            name: "TransectGDAL",
            dependencies: ["TransectSupport", "TransectGeodesy", "TransectRaster", "TransectAnalysis", "TransectPerspective", "TransectVisibility", "CGDAL"]),
        // PNG bytes to pixels (libpng) and back (the shim's writer): the CPNG shim's one Swift
        // caller, which loads neither cairo nor GDAL.
        .target(name: "TransectPNG", dependencies: ["TransectSupport", "CPNG"]),
        // Map frames and their fitting, basemaps, overlays, labels and charts: cairo draws (through
        // Canvas only), PNGs are written and read through PNGFile (over TransectPNG) only.
        .target(
            name: "TransectRender",
            dependencies: [
                "TransectSupport", "TransectGeodesy", "TransectRaster", "TransectAnalysis", "TransectPerspective", "TransectGDAL", "CCairo", "TransectPNG",
            ]),
        // The GDAL-free command line: the option parser and options, commands and their help,
        // output targets and transactions, signal clean-up, progress, measure's output. No
        // Foundation and no C module, as the launcher links it.
        .target(name: "TransectCLIBase", dependencies: ["TransectSupport", "TransectGeodesy", "TransectRaster", "TransectAnalysis"]),
        // measure, its batches, shards and manifests, viewshed, and the DEM, CRS and point options
        // every command shares: neither Foundation nor TransectRender, so libTransectCLIMeasure.so
        // loads neither.
        .target(
            name: "TransectCLIMeasure",
            dependencies: [
                "TransectSupport", "TransectGeodesy", "TransectRaster", "TransectAnalysis", "TransectVisibility", "TransectCLIBase", "TransectGDAL",
                "TransectFormatsBase",
            ]),
        // compare's options, pairs, judging and verdict, and the compare of PNGs to stdout that
        // runs without GDAL, cairo or Foundation (libTransectCLICompare.so).
        .target(name: "TransectCLICompare", dependencies: ["TransectSupport", "TransectCLIBase", "TransectImageCompare", "TransectPNG"]),
        // The command table, options declared once, output formats: a testable library. Commands
        // parse, call one library entry point and format; no C module here.
        .target(
            name: "TransectCLI",
            dependencies: [
                "TransectSupport", "TransectGeodesy", "TransectRaster", "TransectAnalysis", "TransectPerspective", "TransectCLIBase", "TransectCLIMeasure",
                "TransectGDAL", "TransectRender",
                "TransectFormats", "TransectImageCompare", "TransectCLICompare",
            ]),
        // The launcher: runs measure with both heights given itself, loads libTransectCLI.so for
        // anything else. Links neither GDAL, PROJ, cairo, libpng nor Foundation.
        .executableTarget(name: "transect", dependencies: ["TransectSupport", "TransectCLIBase"]),
        // make bench: hot paths against PROJ, GDAL, a plain C loop (CBenchPeer) and the Python
        // pipeline, measured in the same run.
        .target(name: "CBenchPeer", linkerSettings: [.linkedLibrary("m")]),
        .executableTarget(
            name: "transect-bench",
            dependencies: [
                "TransectSupport", "TransectGeodesy", "TransectRaster", "TransectGDAL", "TransectRender", "CGDAL", "CPROJ", "CBenchPeer", "TransectTestSupport",
            ]),

        // Shared by the test targets: the ../shared/data locator, synthetic DEMs via GDAL, the
        // seeded generator and the PROJ oracles (GeographicLib's C geodesic, coordinate operations).
        .target(name: "TransectTestSupport", dependencies: ["CGDAL", "CPROJ", "TransectGDAL", "TransectGeodesy"], path: "Tests/Support"),
        // The command line run in process, for the test targets of the three command libraries.
        .target(name: "TransectCLITestSupport", dependencies: ["TransectCLI"], path: "Tests/CLISupport"),
        .testTarget(name: "TransectSupportTests", dependencies: ["TransectSupport", "TransectTestSupport"]),
        .testTarget(name: "TransectGeodesyTests", dependencies: ["TransectSupport", "TransectGeodesy", "TransectAnalysis", "TransectTestSupport"]),
        .testTarget(name: "TransectRasterTests", dependencies: ["TransectRaster", "TransectTestSupport"]),
        .testTarget(name: "TransectAnalysisTests", dependencies: ["TransectSupport", "TransectGeodesy", "TransectAnalysis", "TransectTestSupport"]),
        .testTarget(
            name: "TransectPerspectiveTests",
            dependencies: ["TransectSupport", "TransectGeodesy", "TransectRaster", "TransectAnalysis", "TransectPerspective", "TransectTestSupport"]),
        .testTarget(
            name: "TransectVisibilityTests",
            dependencies: ["TransectVisibility", "TransectSupport", "TransectGeodesy", "TransectRaster", "TransectTestSupport"]),
        .testTarget(name: "TransectPNGTests", dependencies: ["TransectPNG", "TransectSupport", "TransectTestSupport"]),
        .testTarget(name: "TransectImageCompareTests", dependencies: ["TransectImageCompare", "TransectSupport", "TransectTestSupport"]),
        .testTarget(
            name: "TransectGDALTests",
            dependencies: ["TransectGDAL", "TransectSupport", "TransectGeodesy", "TransectRaster", "TransectAnalysis", "CGDAL", "TransectTestSupport"]),
        .testTarget(
            name: "TransectFormatsTests",
            dependencies: ["TransectFormats", "TransectFormatsBase", "TransectSupport", "TransectGeodesy", "TransectAnalysis", "TransectTestSupport"]),
        .testTarget(
            name: "TransectFormatsBaseTests",
            dependencies: ["TransectFormats", "TransectFormatsBase", "TransectSupport", "TransectGeodesy", "TransectAnalysis", "TransectTestSupport"]),
        .testTarget(
            name: "TransectRenderTests",
            dependencies: [
                "TransectRender", "TransectGDAL", "TransectSupport", "TransectGeodesy", "TransectRaster", "TransectAnalysis", "TransectPerspective", "CGDAL",
                "CPNG", "TransectPNG", "TransectTestSupport",
            ],
            exclude: ["Golden"]),
        .testTarget(
            name: "TransectCLITests",
            dependencies: commandLineTestDependencies),
        .testTarget(
            name: "TransectCLIBaseTests",
            dependencies: commandLineTestDependencies),
        .testTarget(
            name: "TransectCLIMeasureTests",
            dependencies: commandLineTestDependencies),
        .testTarget(
            name: "TransectCLICompareTests",
            dependencies: commandLineTestDependencies),
        // Checks of the repository's own documents and conventions against its code: the import
        // graph, every tolerance in the tests carrying its reason, the README's console blocks.
        .testTarget(name: "RepositoryTests", dependencies: ["TransectTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
