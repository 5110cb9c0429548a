// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Transect",
    products: [
        .executable(name: "transect", targets: ["transect"]),
        .library(name: "TransectCore", targets: ["TransectCore"]),
        .library(name: "TransectGDAL", targets: ["TransectGDAL"]),
        .library(name: "TransectRender", targets: ["TransectRender"]),
        .library(name: "TransectFormats", targets: ["TransectFormats"]),
        // The full command line as a shared library: the launcher loads it with dlopen only for
        // the commands that need GDAL, PROJ, cairo, libpng or Foundation. `make build` builds it
        // beside the executable (.build/release/libTransectCLI.so).
        .library(name: "TransectCLI", type: .dynamic, targets: ["TransectCLI"]),
        // `measure` alone as a shared library without Foundation, cairo or libpng: the launcher
        // loads it for every measure it does not run itself (.build/release/libTransectMeasure.so).
        .library(name: "TransectMeasure", type: .dynamic, targets: ["TransectCLIMeasure"]),
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
        // Pure Swift: geodesy, sampling kernels, measurement, profiles, tracks, units. The standard
        // library, plus the platform C library for libm and errno text, CKernelHints' header and
        // the self-contained CSHA256 (no library behind it).
        .target(name: "TransectCore", dependencies: ["CKernelHints", "CSHA256"]),
        // The formats `measure` reads without Foundation: the pairs CSV, CSV lines, line and chunk
        // readers, the strict JSON parser, FormatError.
        .target(name: "TransectFormatsBase", dependencies: ["TransectCore"]),
        // Track, place and scene files with Foundation's parsers; re-exports TransectFormatsBase.
        .target(name: "TransectFormats", dependencies: ["TransectCore", "TransectFormatsBase"]),
        // DEMs through GDAL: open, mosaic, CRS transforms, block reads, warping, the geoid and the
        // measurement and profile services. The only target that calls GDAL, OGR, OSR or CPL.
        .target(name: "TransectGDAL", dependencies: ["TransectCore", "CGDAL"]),
        // Map frames and their fitting, basemaps, overlays, labels and charts: cairo draws (through
        // Canvas only), libpng writes (through PNGFile only).
        .target(name: "TransectRender", dependencies: ["TransectCore", "TransectGDAL", "CCairo", "CPNG"]),
        // The option parser, the options declared once, measure's output: the GDAL-free half of
        // the command line. No Foundation and no C module, as the launcher links it.
        .target(name: "TransectCLIBase", dependencies: ["TransectCore"]),
        // measure and the machinery it shares with the other commands (the command and its help,
        // output targets and transactions, signal clean-up, DEM and point options): neither
        // Foundation nor TransectRender, so libTransectMeasure.so loads neither.
        .target(
            name: "TransectCLIMeasure", dependencies: ["TransectCore", "TransectCLIBase", "TransectGDAL", "TransectFormatsBase"]),
        // The command table, options declared once, output formats: a testable library. Commands
        // parse, call one library entry point and format; no C module here.
        .target(
            name: "TransectCLI",
            dependencies: ["TransectCore", "TransectCLIBase", "TransectCLIMeasure", "TransectGDAL", "TransectRender", "TransectFormats"]),
        // The launcher: runs measure with both heights given itself, loads libTransectCLI.so for
        // anything else. Links neither GDAL, PROJ, cairo, libpng nor Foundation.
        .executableTarget(name: "transect", dependencies: ["TransectCore", "TransectCLIBase"]),
        // make bench: hot paths against PROJ, GDAL, a plain C loop (CBenchPeer) and the Python
        // pipeline, measured in the same run.
        .target(name: "CBenchPeer", linkerSettings: [.linkedLibrary("m")]),
        .executableTarget(
            name: "transect-bench", dependencies: ["TransectCore", "TransectGDAL", "TransectRender", "CGDAL", "CPROJ", "CBenchPeer", "TransectTestSupport"]),

        // Shared by the test targets: the ../shared/data locator, synthetic DEMs via GDAL, the
        // seeded generator and the PROJ oracles (GeographicLib's C geodesic, coordinate operations).
        .target(name: "TransectTestSupport", dependencies: ["CGDAL", "CPROJ", "TransectGDAL"], path: "Tests/Support"),
        .testTarget(name: "TransectCoreTests", dependencies: ["TransectCore", "TransectTestSupport"]),
        .testTarget(name: "TransectGDALTests", dependencies: ["TransectGDAL", "TransectCore", "CGDAL", "TransectTestSupport"]),
        .testTarget(name: "TransectFormatsTests", dependencies: ["TransectFormats", "TransectFormatsBase", "TransectCore", "TransectTestSupport"]),
        .testTarget(
            name: "TransectRenderTests", dependencies: ["TransectRender", "TransectGDAL", "TransectCore", "CGDAL", "CPNG", "TransectTestSupport"],
            exclude: ["Golden"]),
        .testTarget(name: "TransectCLITests", dependencies: ["TransectCLI", "TransectGDAL", "TransectCore", "CGDAL", "TransectTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
