import TransectRaster

/// Decoded DEM windows kept between sampling calls, so that batch after batch over the same
/// terrain reads and converts each window once: the least recently used window leaves first
/// when the windows held would exceed ``budgetBytes``.
///
/// A window is a rectangle of the raster converted to metres (no data as `nan`), exactly as
/// ``ElevationModel/readDecodedWindow(column:row:width:height:)`` reads it: Float32 cells where
/// Float32 holds every value of the DEM exactly, Float64 otherwise. Sampling asks for one
/// ``ElevationModel/sampleChunk`` square plus an interpolation margin, or, for a DEM read over
/// the network, whole blocks (``SampleWindows``). The cache belongs to one model and so to one
/// dataset: its key is the rectangle.
///
/// Not thread-safe, like the model that owns it: an ``ElevationModel`` is not `Sendable` (its
/// GDAL dataset handle may be used by one thread at a time), so the compiler keeps it, and this
/// cache, on one thread; a thread that wants a DEM opens its own model.
final class ElevationWindowCache {
    /// A window: its first cell's column and row in the raster, and its size in cells.
    struct Key: Hashable {
        let column: Int
        let row: Int
        let width: Int
        let height: Int
    }

    /// 64 MiB holds about 120 windows of 261² doubles (a cubic margin), a square of ≈ 2,800²
    /// cells, or twice as many Float32 windows: the windows a batch of a few thousand points spread over a large DEM touches, at
    /// a fraction of the memory GDAL's own block cache may take.
    static let defaultBudgetBytes = 64 << 20

    /// The most bytes of decoded values held; a window larger than this is read and not kept.
    var budgetBytes: Int {
        didSet { evict(toFit: 0) }
    }
    /// Windows read from the dataset so far (each miss); for tests.
    private(set) var reads = 0
    /// Bytes of decoded values held now.
    private(set) var heldBytes = 0

    private var entries: [Key: (grid: DecodedWindow, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0

    init(budgetBytes: Int = defaultBudgetBytes) {
        self.budgetBytes = budgetBytes
    }

    /// The number of windows held now.
    var count: Int { entries.count }

    /// Windows asked for once by a few points and read no further (``glimpse(_:)``).
    private var glimpsed: Set<Key> = []

    /// True the first time a few points want the window at `key` while it is not held: they
    /// may then read only the cells they need. The second time (more points there, call after
    /// call) it is false, and the window is read whole and kept; so a run of small calls over
    /// one chunk reads it at most once more than a batch would.
    func glimpse(_ key: Key) -> Bool {
        entries[key] == nil && glimpsed.insert(key).inserted
    }

    /// The window at `key`, from the cache or else from `read`, which is then kept if it fits.
    func window(_ key: Key, read: () throws(TerrainError) -> DecodedWindow) throws(TerrainError) -> DecodedWindow {
        clock += 1
        if var entry = entries[key] {
            entry.lastUse = clock
            entries[key] = entry
            return entry.grid
        }
        let grid = try read()
        reads += 1
        let bytes = grid.byteCount
        guard bytes <= budgetBytes else { return grid }
        evict(toFit: bytes)
        entries[key] = (grid, clock)
        heldBytes += bytes
        return grid
    }

    /// Drops the least recently used windows until `bytes` more fit within the budget.
    /// A linear scan: the budget keeps the windows to a few hundred at most.
    private func evict(toFit bytes: Int) {
        while heldBytes + bytes > budgetBytes,
            let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })
        {
            heldBytes -= oldest.value.grid.byteCount
            entries[oldest.key] = nil
        }
    }
}

/// A decoded window: Float32 cells where Float32 holds the DEM's values exactly (half the
/// memory, half the bytes per tap), Float64 otherwise. Both sample to the same bits as a
/// Float64 window of the same values (``Float32ElevationGrid``).
enum DecodedWindow {
    case float32(Float32ElevationGrid)
    case float64(ElevationGrid)

    /// See ``ElevationGrid/sample(columns:rows:interpolation:)``.
    func sample(columns: [Double], rows: [Double], interpolation: Interpolation) -> [Double] {
        switch self {
        case .float32(let grid): grid.sample(columns: columns, rows: rows, interpolation: interpolation)
        case .float64(let grid): grid.sample(columns: columns, rows: rows, interpolation: interpolation)
        }
    }

    /// Bytes of decoded values.
    var byteCount: Int {
        switch self {
        case .float32(let grid): grid.values.count * MemoryLayout<Float>.stride
        case .float64(let grid): grid.values.count * MemoryLayout<Double>.stride
        }
    }
}
