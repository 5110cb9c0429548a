import CGDAL
import Synchronization
import TransectGeodesy
import TransectRaster
import TransectSupport
import TransectVisibility

/// A DEM's georeference for a viewshed: WGS84 points to pixels through
/// ``ElevationModel/pixelCoordinates(longitudes:latitudes:)`` and pixels to WGS84 through the
/// geotransform and the CRS, whatever the CRS is.
///
/// Holds transformations of its own, which are not thread-safe: the sweep calls it from one
/// thread, and observers swept at once each have one.
public final class DEMGeoreference: ViewshedGeoreference {
    let model: ElevationModel
    let toWGS84: CoordinateTransformer?
    let fromWGS84: CoordinateTransformer?
    let geographic: Bool
    /// Transformations like `toWGS84` and `fromWGS84` for the other workers of
    /// ``lonLat(columns:rows:threads:)`` and ``pixelCoordinates(longitudes:latitudes:threads:)``,
    /// made on their first calls.
    private var toWGS84Helpers: [CoordinateTransformer] = []
    private var fromWGS84Helpers: [CoordinateTransformer] = []

    public init(_ model: ElevationModel) throws(TerrainError) {
        self.model = model
        let wgs84 = try SpatialReference.wgs84()
        let same = model.crs.isSame(as: wgs84)
        toWGS84 = same ? nil : try CoordinateTransformer(from: model.crs, to: wgs84)
        fromWGS84 = same ? nil : try CoordinateTransformer(from: wgs84, to: model.crs)
        geographic = model.crs.isGeographic
    }

    public func pixelCoordinates(longitudes: [Double], latitudes: [Double]) throws -> (columns: [Double], rows: [Double]) {
        try model.pixelCoordinates(longitudes: longitudes, latitudes: latitudes, through: fromWGS84, geographic: geographic)
    }

    public func lonLat(columns: [Double], rows: [Double]) throws -> (longitudes: [Double], latitudes: [Double]) {
        try Self.lonLat(columns: columns[...], rows: rows[...], geoTransform: model.geoTransform, through: toWGS84)
    }

    /// Points a worker transforms at least: fewer stay on the calling thread.
    static let pointsPerWorker = 16_384

    /// ``lonLat(columns:rows:)`` in contiguous pieces on up to `threads` threads, each piece
    /// through a transformation of its own (PROJ's are not thread-safe): the same values,
    /// since PROJ transforms each point alone.
    public func lonLat(columns: [Double], rows: [Double], threads: Int) throws -> (longitudes: [Double], latitudes: [Double]) {
        guard let toWGS84 else { return try lonLat(columns: columns, rows: rows) }
        let gt = model.geoTransform
        return try Self.inPieces(count: columns.count, threads: threads, transformer: toWGS84, helpers: &toWGS84Helpers) {
            (range: Range<Int>, transformer: CoordinateTransformer) throws(TerrainError) -> ([Double], [Double]) in
            try Self.lonLat(columns: columns[range], rows: rows[range], geoTransform: gt, through: transformer)
        }
    }

    /// ``pixelCoordinates(longitudes:latitudes:)`` in contiguous pieces on up to `threads`
    /// threads, as ``lonLat(columns:rows:threads:)`` takes them.
    public func pixelCoordinates(longitudes: [Double], latitudes: [Double], threads: Int) throws -> (columns: [Double], rows: [Double]) {
        guard let fromWGS84 else { return try pixelCoordinates(longitudes: longitudes, latitudes: latitudes) }
        let model = UncheckedModel(model: model)
        let geographic = geographic
        return try Self.inPieces(count: longitudes.count, threads: threads, transformer: fromWGS84, helpers: &fromWGS84Helpers) {
            (range: Range<Int>, transformer: CoordinateTransformer) throws(TerrainError) -> ([Double], [Double]) in
            try model.model.pixelCoordinates(
                longitudes: Array(longitudes[range]), latitudes: Array(latitudes[range]), through: transformer, geographic: geographic)
        }
    }

    /// `transform` over `count` points in contiguous pieces on up to `threads` threads (at least
    /// ``pointsPerWorker`` points each), the first through `transformer` and the others through
    /// its copies in `helpers` (made as needed), the pieces' outputs joined in order.
    private static func inPieces(
        count n: Int, threads: Int, transformer: CoordinateTransformer, helpers: inout [CoordinateTransformer],
        _ transform: @escaping @Sendable (Range<Int>, CoordinateTransformer) throws(TerrainError) -> ([Double], [Double])
    ) throws(TerrainError) -> ([Double], [Double]) {
        let pieces = min(max(1, threads), n / pointsPerWorker)
        guard pieces > 1 else { return try transform(0..<n, transformer) }
        while helpers.count < pieces - 1 { helpers.append(try CoordinateTransformer(from: transformer.source, to: transformer.target)) }
        let transformers = PieceTransformers(all: [transformer] + helpers.prefix(pieces - 1))
        let parts = ParallelFill.array(count: pieces, chunk: 1, parallel: stripedParallelLoop(threads: pieces)) {
            p -> Result<([Double], [Double]), TerrainError> in
            Result { () throws(TerrainError) in try transform((p * n / pieces)..<((p + 1) * n / pieces), transformers.all[p]) }
        }
        var first: [Double] = []
        var second: [Double] = []
        first.reserveCapacity(n)
        second.reserveCapacity(n)
        for part in parts {
            let (a, b) = try part.get()
            first += a
            second += b
        }
        return (first, second)
    }

    /// WGS84 degrees of pixel coordinates through the geotransform `gt` and `transformer`.
    private static func lonLat(
        columns: ArraySlice<Double>, rows: ArraySlice<Double>, geoTransform gt: [Double], through transformer: CoordinateTransformer?
    ) throws(TerrainError) -> (longitudes: [Double], latitudes: [Double]) {
        var xs = [Double](repeating: .nan, count: columns.count)
        var ys = xs
        for (k, (column, row)) in zip(columns, rows).enumerated() {
            xs[k] = gt[0] + column * gt[1] + row * gt[2]
            ys[k] = gt[3] + column * gt[4] + row * gt[5]
        }
        try transformer?.transform(x: &xs, y: &ys)
        for k in 0..<xs.count where !(xs[k].isFinite && ys[k].isFinite && abs(ys[k]) <= 90) {
            xs[k] = .nan
            ys[k] = .nan
        }
        return (xs, ys)
    }
}

/// A piece's own transformation for each worker of ``DEMGeoreference``'s calls on threads.
///
/// `@unchecked Sendable` is safe because worker p uses only `all[p]`, and the caller waits for
/// every worker before it uses any again.
private struct PieceTransformers: @unchecked Sendable {
    let all: [CoordinateTransformer]
}

/// The DEM for the workers of ``DEMGeoreference/pixelCoordinates(longitudes:latitudes:threads:)``
/// and of a viewshed's first steps.
///
/// `@unchecked Sendable` is safe because those read only what ``ElevationModel`` fixed when it
/// opened (its geotransform, size and CRS), each through its own transformation, except the
/// one worker of the first steps that reads the raster, the only one to use its dataset.
private struct UncheckedModel: @unchecked Sendable {
    let model: ElevationModel
}

extension DecodedWindow {
    /// What a viewshed reads of this terrain whatever the observer, made on `threads` workers.
    func viewshedPreparation(threads: Int) -> ViewshedTerrainPreparation {
        switch self {
        case .float32(let grid): ViewshedTerrainPreparation(terrain: grid, threads: threads)
        case .float64(let grid): ViewshedTerrainPreparation(terrain: grid, threads: threads)
        }
    }
}

/// What the two threads of a viewshed's first steps hand back: the DEM's window and its terrain
/// preparation from one, the georeference and the observer's cells' geometry from the other.
///
/// `@unchecked Sendable` is safe because each thread writes only its own slots, which are read
/// after both returned.
private final class FirstSteps: @unchecked Sendable {
    var window: Result<DecodedWindow, TerrainError>?
    var georeference: Result<DEMGeoreference, TerrainError>?
    var geometry: ViewshedCellGeometry?
    var prepared: ViewshedTerrainPreparation?
}

/// The viewsheds of one or more observers over a DEM: each observer's classes, and for
/// several, how many observers see each cell and, up to 64 observers, which.
public struct ViewshedRun: Sendable {
    /// One viewshed per observer, in order (the classes of the last ones dropped once counted
    /// when there are many: see ``ElevationModel/viewsheds(of:settings:keepEach:)``).
    public var viewsheds: [Viewshed]
    /// How many observers see each cell, row-major; empty for one observer.
    public var visibleCounts: [UInt32]
    /// Bit k set where observer k sees the cell; empty for one observer or more than 64.
    public var visibleMasks: [UInt64]
    /// The observers' classes in one (``ViewshedClass`` raw values): visible where any sees the
    /// cell, else unknown where any cannot tell, else hidden where any judged it, else out of
    /// range. One observer's own classes.
    public var combinedClasses: [UInt8]
    /// The DEM's size.
    public var width: Int
    public var height: Int

    /// Combines `other` into `classes`, cell by cell, keeping the higher ``rank(_:)``: what
    /// observers swept apart (by workers, or by shards) see together.
    public static func combine(_ classes: inout [UInt8], with other: [UInt8]) {
        precondition(classes.count == other.count, "classes of the same raster")
        let ranks = (0...255).map { UInt8(rank(UInt8($0))) }
        ranks.withUnsafeBufferPointer { ranks in
            classes.withUnsafeMutableBufferPointer { classes in
                other.withUnsafeBufferPointer { other in
                    for i in 0..<classes.count where ranks[Int(other[i])] > ranks[Int(classes[i])] { classes[i] = other[i] }
                }
            }
        }
    }

    /// Rank of a class when observers' classes combine: visible over unknown over hidden over
    /// out of range.
    public static func rank(_ c: UInt8) -> Int {
        switch c {
        case ViewshedClass.visible.rawValue: 3
        case ViewshedClass.unknown.rawValue: 2
        case ViewshedClass.hidden.rawValue: 1
        default: 0
        }
    }
}

extension ElevationModel {
    /// The most cells a viewshed reads into memory: 4 bytes a cell for the terrain (8 for a
    /// DEM whose values need Float64), 1 more for an observer's classes (9 with heights or
    /// angles) and 13 for several (their count, combined class and, for a mask, their bits).
    public static let maximumViewshedCells = 100_000_000
    /// The most cells for which observers are swept at once, one a worker (each holding some
    /// 14 bytes a cell while it sweeps: its observer's classes and its own counts, classes and
    /// bits); larger DEMs sweep one observer at a time on all of them.
    public static let concurrentViewshedCells = 25_000_000

    /// The whole DEM in memory for a viewshed: Float32 where that holds every value, else
    /// Float64 (``DecodedWindow``), `nan` for no data.
    func viewshedWindow() throws(TerrainError) -> DecodedWindow {
        guard width * height <= Self.maximumViewshedCells else {
            throw .unusableRaster(
                path: label,
                reason:
                    "has \(NumberFormatting.grouped(Double(width * height), decimals: 0)) cells, more than a viewshed reads (\(NumberFormatting.grouped(Double(Self.maximumViewshedCells), decimals: 0))): cut it with gdal_translate -projwin"
            )
        }
        // The cells read as the DEM opened, where they are a Float32 window's (scale 1, offset
        // 0): the same values as reading them now, turned into metres and checked in one pass.
        let early = earlyWhole?.take()
        let w = width
        if storesFloat32Windows, var cells = early, cells.count == width * height {
            let noData = info.noDataAsRead
            let limit = Float(Self.maximumHeightMetres)
            if let k = cells.withUnsafeMutableBufferPointer({ Self.unscaledMetresFirstBeyond($0, noDataAsRead: noData, limit: limit) }) {
                throw .implausibleHeight(path: label, metres: Double(cells[k]), point: "column \(k % w), row \(k / w)")
            }
            return .float32(Float32ElevationGrid(width: width, height: height, originColumn: 0, originRow: 0, values: cells))
        }
        let window = try readDecodedWindow(column: 0, row: 0, width: width, height: height, source: directReadBand())
        switch window {
        case .float32(let grid): try checkHeights(grid.values) { "column \($0 % w), row \($0 / w)" }
        case .float64(let grid): try checkHeights(grid.values) { "column \($0 % w), row \($0 / w)" }
        }
        return window
    }

    /// The band of the DEM's one local GeoTIFF opened again with direct reads
    /// (``GDALEnvironment/withDirectReads(_:)``), which the driver takes only as it opens a file:
    /// an uncompressed GeoTIFF read whole then goes from the file into the window, not through
    /// GDAL's block cache, which would copy every cell once more and keep them all. Nil for
    /// anything else (a mosaic, a `--nodata` VRT or a network path keep the DEM's own band, as
    /// does a file that no longer opens as the same raster).
    func directReadBand() -> RasterBand? {
        guard paths.count == 1, driverName == "GTiff", givenNoData.isEmpty, !paths[0].hasPrefix("/vsi") else { return nil }
        return Self.reopenedGeoTIFFBand(paths[0], width: width, height: height, dataType: info.dataType)
    }

    /// Band 1 of the local GeoTIFF at `path` opened again for direct reads (only as a GeoTIFF),
    /// where it still is one of `width` × `height` cells of `dataType`; nil otherwise.
    static func reopenedGeoTIFFBand(_ path: String, width: Int, height: Int, dataType: GDALDataType) -> RasterBand? {
        let reopened = try? GDALEnvironment.withDirectReads { () throws(TerrainError) in try Dataset(reopeningGeoTIFF: path) }
        guard let reopened, reopened.driverName == "GTiff", reopened.width == width, reopened.height == height,
            let band = reopened.band(1), band.dataType == dataType
        else { return nil }
        return band
    }

    /// The viewshed of each of `observers`, in order, and for more than one the count of
    /// observers that see each cell (and, up to 64, which). The DEM is read once; observers are
    /// swept `settings.threads` at a time, one a worker (over a DEM of more than
    /// ``concurrentViewshedCells`` cells, one at a time on every worker), so the run is linear
    /// in observers and its bytes are the same for any thread count.
    ///
    /// - Parameter keepEach: keep every observer's viewshed (memory: a byte a cell each);
    ///   otherwise only the first is kept, the others counted.
    ///   - cumulative: count and mask even for one observer (a shard's part of a larger run).
    ///   - firstIndex: the index of the first of `observers` in the whole run, whose bit it takes
    ///     in the mask (a shard's observers are some of the run's).
    ///   - maskBits: whether the whole run has observers for a mask (64 or fewer).
    public func viewsheds(
        of observers: [ViewshedObserver], settings: ViewshedSettings, keepEach: Bool = true, cumulative: Bool? = nil, firstIndex: Int = 0,
        maskBits: Bool? = nil
    ) throws -> ViewshedRun {
        let cumulative = cumulative ?? (observers.count > 1)
        let masked = cumulative && (maskBits ?? (observers.count <= 64))
        // One observer over a DEM that does not wrap (and that a viewshed reads): its cells'
        // geometry needs no terrain, so it is computed here, on Dispatch's workers, while a
        // thread of its own reads the DEM and prepares its blocks; the sweep takes both. The
        // geometry's failure is left for the sweep to meet again where it would.
        let window: DecodedWindow
        let georeference: DEMGeoreference
        let early: ViewshedCellGeometry?
        let preparedEarly: ViewshedTerrainPreparation?
        if observers.count == 1 && settings.threads > 1 && !wrapsLongitude && width * height <= Self.maximumViewshedCells {
            let steps = FirstSteps()
            let model = UncheckedModel(model: self)
            let observer = observers[0]
            // Not a worker of Dispatch's pool: the geometry's parallel loops need them all.
            let read = {
                let window = Result { () throws(TerrainError) in try model.model.viewshedWindow() }
                steps.window = window
                steps.prepared = try? window.get().viewshedPreparation(threads: settings.threads)
            }
            let reader = OwnThread(read)
            if reader == nil { read() }
            let made = Result { () throws(TerrainError) in try DEMGeoreference(model.model) }
            steps.georeference = made
            if case .success(let g) = made {
                steps.geometry = try? Viewshed.cellGeometry(
                    observer: observer, width: model.model.width, height: model.model.height, georeference: g, settings: settings)
            }
            reader?.join()
            window = try steps.window!.get()
            georeference = try steps.georeference!.get()
            early = steps.geometry
            preparedEarly = steps.prepared
        } else {
            window = try viewshedWindow()
            georeference = try DEMGeoreference(self)
            early = nil
            preparedEarly = nil
        }
        // Sight rays are placed in the raster's pixels, which do not join across a seam: a DEM
        // that wraps in longitude is turned for each observer to put the seam behind it
        // (``wrappedViewshed``), which needs the plain WGS84 degrees it is read in here.
        let turnable = wrapsLongitude && georeference.toWGS84 == nil && geoTransform[2] == 0 && geoTransform[4] == 0
        guard !wrapsLongitude || turnable else { throw ViewshedError.wrapsAround(dem: label) }
        // Every observer stands on the DEM (and on data, where its eye is given above the
        // ground, and short of a pole over a DEM that wraps) before any is swept: the last line
        // of a long file fails at once, not hours on.
        if !observers.isEmpty {
            let at = try georeference.pixelCoordinates(longitudes: observers.map(\.longitude), latitudes: observers.map(\.latitude))
            let ground = window.sample(columns: at.columns, rows: at.rows, interpolation: settings.interpolation)
            for (k, observer) in observers.enumerated() {
                let (c, r) = (at.columns[k], at.rows[k])
                guard c.isFinite, r.isFinite, c >= 0, r >= 0, c <= Double(width), r <= Double(height) else {
                    throw ViewshedError.observerOutside(observer: observer.name, dem: label)
                }
                if case .aboveGround = observer.height, ground[k].isNaN {
                    throw ViewshedError.observerOnNoData(observer: observer.name, dem: label)
                }
                if turnable { try Self.checkPole(observer: observer, settings: settings, demName: label) }
            }
        }
        let n = width * height
        // Several observers are swept at once, one a worker (each with its own georeference),
        // where their memory allows; one observer on all the workers otherwise. Worker w takes
        // observers w, w + T, … and counts them itself; the counts, bits and classes join
        // the same whatever the order, so the run's bytes are the same on any threads.
        let together =
            settings.threads > 1 && observers.count > 1 && n <= Self.concurrentViewshedCells
            ? min(settings.threads, observers.count) : 1
        var perObserver = settings
        if together > 1 { perObserver.threads = 1 }
        let each = perObserver
        let georeferences = ViewshedGeoreferences(
            all: [georeference] + (try (1..<max(together, 1)).map { _ throws(TerrainError) in try DEMGeoreference(self) }))
        let label = label
        let gt = geoTransform
        let earliestFailure = EarliestFailure()
        // What every observer reads of the window alike, made once on every worker (a DEM that
        // wraps is turned for each observer, and prepared with it).
        let prepared = turnable ? nil : preparedEarly ?? window.viewshedPreparation(threads: settings.threads)
        let tallies = ParallelFill.array(count: together, chunk: 1, parallel: stripedParallelLoop(threads: together)) { w in
            var tally = ViewshedTally(cells: n, cumulative: cumulative, masked: masked)
            for k in stride(from: w, to: observers.count, by: together) {
                // An observer after one that failed on another worker cannot change the error
                // the run reports (the earliest): the worker stops.
                guard k < earliestFailure.index else { break }
                let v: Viewshed
                do {
                    switch window {
                    case .float32(let grid) where turnable:
                        v = try Self.wrappedViewshed(
                            observer: observers[k], values: grid.values, width: grid.width, geoTransform: gt, settings: each, demName: label
                        ) { Float32ElevationGrid(width: grid.width, height: grid.height, values: $0) }
                    case .float64(let grid) where turnable:
                        v = try Self.wrappedViewshed(
                            observer: observers[k], values: grid.values, width: grid.width, geoTransform: gt, settings: each, demName: label
                        ) { ElevationGrid(width: grid.width, height: grid.height, values: $0) }
                    case .float32(let grid):
                        v = try Viewshed.compute(
                            observer: observers[k], terrain: grid, georeference: georeferences.all[w], settings: each, demName: label,
                            prepared: prepared, geometry: k == 0 ? early : nil)
                    case .float64(let grid):
                        v = try Viewshed.compute(
                            observer: observers[k], terrain: grid, georeference: georeferences.all[w], settings: each, demName: label,
                            prepared: prepared, geometry: k == 0 ? early : nil)
                    }
                } catch {
                    // This worker's first failure is its earliest; the run reports the earliest of all.
                    tally.failure = (k, error)
                    earliestFailure.record(k)
                    break
                }
                tally.count(v, bit: UInt64(1) << UInt64(min(firstIndex + k, 63)))
                if keepEach || k == 0 { tally.kept.append((k, v)) }
            }
            return tally
        }
        if let failure = tallies.compactMap(\.failure).min(by: { $0.index < $1.index }) { throw failure.error }
        var run = ViewshedRun(
            viewsheds: tallies.flatMap(\.kept).sorted { $0.index < $1.index }.map(\.viewshed),
            visibleCounts: tallies[0].counts, visibleMasks: tallies[0].masks,
            combinedClasses: tallies[0].classes.isEmpty ? [UInt8](repeating: ViewshedClass.outOfRange.rawValue, count: n) : tallies[0].classes,
            width: width, height: height)
        for tally in tallies.dropFirst() {
            // A worker that counted no viewshed has no classes (out of range everywhere).
            if !tally.classes.isEmpty { ViewshedRun.combine(&run.combinedClasses, with: tally.classes) }
            if cumulative {
                for i in 0..<n { run.visibleCounts[i] += tally.counts[i] }
            }
            if masked {
                for i in 0..<n { run.visibleMasks[i] |= tally.masks[i] }
            }
        }
        return run
    }

    /// Refuses a viewshed over a DEM that wraps in longitude whose range reaches a pole, past
    /// which a sight ray's pixels jump half a turn (and one without a range at all).
    static func checkPole(observer: ViewshedObserver, settings: ViewshedSettings, demName: String) throws(ViewshedError) {
        let pole = Geodesic.wgs84.inverse(
            latitude1: observer.latitude, longitude1: observer.longitude, latitude2: observer.latitude >= 0 ? 90 : -90,
            longitude2: observer.longitude
        ).distanceMetres
        guard let limit = settings.maximumDistanceMetres, limit < pole else {
            throw ViewshedError.reachesPole(observer: observer.name, metres: pole, dem: demName)
        }
    }

    /// The viewshed of `observer` over a DEM that wraps in longitude (`values`, `width` columns
    /// a row, north-up WGS84 degrees with `geoTransform`): the rows turned so that the
    /// observer's column lies in the middle and the seam half a turn away, swept as any DEM
    /// (`grid` makes the terrain of the turned values), and turned back. The caller has checked
    /// that the observer's range stops short of a pole (``checkPole(observer:settings:demName:)``).
    static func wrappedViewshed<Cell: Sendable, Terrain: ViewshedTerrain>(
        observer: ViewshedObserver, values: [Cell], width: Int, geoTransform gt: [Double], settings: ViewshedSettings, demName: String,
        grid: ([Cell]) -> Terrain
    ) throws -> Viewshed {
        // North-up and invertible, as the caller checked (else: refused as any seam is).
        guard let whole = GeographicGeoreference(geoTransform: gt, wrapsAfter: width) else { throw ViewshedError.wrapsAround(dem: demName) }
        let at = whole.pixelCoordinates(longitudes: [observer.longitude], latitudes: [observer.latitude]).columns[0]
        guard at.isFinite else { throw ViewshedError.observerOutside(observer: observer.name, dem: demName) }
        // Turned column c holds column (c + shift) mod width.
        let shift = Int(at.rounded(.down)) - width / 2
        let height = width > 0 ? values.count / width : 0
        func source(_ c: Int) -> Int { ((c + shift) % width + width) % width }
        var turned: [Cell] = []
        turned.reserveCapacity(values.count)
        for r in 0..<height {
            for c in 0..<width { turned.append(values[r * width + source(c)]) }
        }
        var turnedTransform = gt
        turnedTransform[0] += Double(shift) * gt[1]
        guard let georeference = GeographicGeoreference(geoTransform: turnedTransform, wrapsAfter: width) else {
            throw ViewshedError.wrapsAround(dem: demName)
        }
        var v = try Viewshed.compute(
            observer: observer, terrain: grid(turned), georeference: georeference, settings: settings, demName: demName)
        func back<T>(_ a: [T]) -> [T] {
            guard !a.isEmpty else { return a }
            var out = a
            for r in 0..<height {
                for c in 0..<width { out[r * width + source(c)] = a[r * width + c] }
            }
            return out
        }
        v.classes = back(v.classes)
        v.minimumVisibleHeightMetres = back(v.minimumVisibleHeightMetres)
        v.angleAboveHorizonDegrees = back(v.angleAboveHorizonDegrees)
        v.observerColumn = Double(source(Int(v.observerColumn.rounded(.down)))) + (v.observerColumn - v.observerColumn.rounded(.down))
        return v
    }
}

/// One georeference a worker, for observers swept at once.
///
/// `@unchecked Sendable` is safe because worker j alone uses `all[j]`.
private struct ViewshedGeoreferences: @unchecked Sendable {
    let all: [DEMGeoreference]
}

/// The index of the earliest observer whose viewshed failed so far, shared by the workers of
/// ``ElevationModel/viewsheds(of:settings:keepEach:cumulative:firstIndex:maskBits:)``.
private final class EarliestFailure: Sendable {
    private let earliest = Atomic<Int>(.max)

    /// The earliest failed observer's index (`Int.max`: none yet).
    var index: Int { earliest.load(ordering: .relaxed) }

    /// Records a failure of observer `k`.
    func record(_ k: Int) {
        var seen = earliest.load(ordering: .relaxed)
        while k < seen {
            let (exchanged, now) = earliest.compareExchange(expected: seen, desired: k, ordering: .relaxed)
            if exchanged { return }
            seen = now
        }
    }
}

/// What one worker has counted of the observers it swept.
private struct ViewshedTally: Sendable {
    /// Observers that see each cell (empty unless cumulative).
    var counts: [UInt32]
    /// Which observers see each cell (empty unless masked).
    var masks: [UInt64]
    /// The highest-ranked class any observer gave each cell (empty before any: out of range).
    var classes: [UInt8]
    /// The viewsheds kept, by observer index.
    var kept: [(index: Int, viewshed: Viewshed)] = []
    /// The first observer that failed, and why.
    var failure: (index: Int, error: any Error)?

    /// Whether a viewshed was counted yet.
    private var started = false

    init(cells n: Int, cumulative: Bool, masked: Bool) {
        counts = cumulative ? [UInt32](repeating: 0, count: n) : []
        masks = masked ? [UInt64](repeating: 0, count: n) : []
        classes = []
    }

    /// Counts viewshed `v`, whose observer has mask bit `bit`.
    mutating func count(_ v: Viewshed, bit: UInt64) {
        let visible = ViewshedClass.visible.rawValue
        let cumulative = !counts.isEmpty
        let masked = !masks.isEmpty
        if !started {
            // Every class outranks out of range or equals it: the first viewshed's classes are
            // the combination so far.
            started = true
            classes = v.classes
        } else {
            ViewshedRun.combine(&classes, with: v.classes)
        }
        guard cumulative || masked else { return }
        for i in 0..<v.classes.count where v.classes[i] == visible {
            if cumulative { counts[i] += 1 }
            if masked { masks[i] |= bit }
        }
    }
}
