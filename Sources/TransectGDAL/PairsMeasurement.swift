import TransectAnalysis
import TransectGeodesy

/// A stream of point pairs measured over terrain in batches, its results handed back one row at
/// a time in input order, so memory stays flat however long the input (`measure --pairs`).
///
/// Rows come from `next` as plain values (the reader of the file is the caller's); each is
/// turned into WGS84 (through `inputCRS`), checked by `checkWGS84`, and measured with the rows
/// around it: ``batchRows`` rows per ``TerrainMeasurer/measure(_:)`` call. A row whose
/// coordinates or heights are bad, or that cannot be measured, comes back with its problem and
/// the stream goes on; with `strict` the first such row throws
/// ``PairsMeasurementError/badRow(id:message:)`` instead, after the rows before it.
///
/// ```swift
/// let stream = PairsMeasurement(measurer: measurer, inputCRS: nil, strict: false) { try reader.nextInput() }
/// while let row = try stream.next() { write(row) }
/// ```
public final class PairsMeasurement {
    /// Rows measured together: one batched DEM read per this many rows keeps memory flat.
    public static let batchRows = 4096

    /// A row as read: its number among the rows (from 1), its id, its coordinates as written
    /// (`from`, `to` longitudes or X in `xs`, latitudes or Y in `ys`, in the input CRS) and its
    /// heights (nil where not given), each or the reader's problem with them.
    public struct Input: Sendable {
        public var number: Int
        public var id: String
        public var coordinates: Result<(xs: [Double], ys: [Double]), Problem>
        public var heights: Result<(from: Double?, to: Double?), Problem>

        public init(
            number: Int, id: String, coordinates: Result<(xs: [Double], ys: [Double]), Problem>,
            heights: Result<(from: Double?, to: Double?), Problem>
        ) {
            self.number = number
            self.id = id
            self.coordinates = coordinates
            self.heights = heights
        }
    }

    /// Why a row could not be measured: a one-line message that does not name the input.
    public struct Problem: Error, Sendable, Equatable {
        public var message: String
        public init(_ message: String) { self.message = message }
    }

    /// A row's result: its id, its pair in WGS84 when it could be read, and the measurement
    /// or why there is none.
    public struct Row: Sendable {
        public var id: String
        public var pair: MeasurementPair?
        public var result: Result<Measurement, Problem>
    }

    private let measurer: TerrainMeasurer
    private let inputCRS: CoordinateTransformer?
    private let strict: Bool
    private let checkWGS84: (Double, Double) -> Problem?
    private let nextInput: () throws -> Input?
    private var pending: [Row] = []
    private var pendingIndex = 0
    private var exhausted = false
    /// The number of the last row read (rows are read a batch ahead of those handed back).
    public private(set) var rowsRead = 0
    /// Rows handed back with a problem so far.
    public private(set) var badRows = 0

    /// - Parameters:
    ///   - measurer: measures each batch (DEM, geoid, height above ground, interpolation).
    ///   - inputCRS: takes the rows' coordinates to WGS84; nil when they are longitude/latitude.
    ///   - strict: the first bad row throws rather than coming back with its problem.
    ///   - checkWGS84: why a longitude/latitude is out of range, or nil; run on both ends.
    ///   - next: the next row, or nil at the end; what it throws, ``next()`` throws.
    public init(
        measurer: TerrainMeasurer, inputCRS: CoordinateTransformer?, strict: Bool,
        checkWGS84: @escaping (Double, Double) -> Problem? = { _, _ in nil }, next: @escaping () throws -> Input?
    ) {
        self.measurer = measurer
        self.inputCRS = inputCRS
        self.strict = strict
        self.checkWGS84 = checkWGS84
        self.nextInput = next
    }

    /// The next row's result, in input order, or nil at the end.
    /// - Throws: what the row source throws, the ``TerrainError`` of a failed read, or with
    ///   `strict` ``PairsMeasurementError/badRow(id:message:)``.
    public func next() throws -> Row? {
        if pendingIndex == pending.count {
            guard !exhausted else { return nil }
            try measureBatch()
            guard pendingIndex < pending.count else { return nil }
        }
        let row = pending[pendingIndex]
        pendingIndex += 1
        if case .failure(let problem) = row.result {
            badRows += 1
            if strict { throw PairsMeasurementError.badRow(id: row.id, message: problem.message) }
        }
        return row
    }

    /// Reads up to ``batchRows`` rows and measures those that read well, with one call.
    private func measureBatch() throws {
        var rows: [Row] = []
        rows.reserveCapacity(Self.batchRows)
        while rows.count < Self.batchRows {
            guard let input = try nextInput() else {
                exhausted = true
                break
            }
            rowsRead = input.number
            switch try pair(input) {
            case .success(let pair): rows.append(Row(id: input.id, pair: pair, result: .failure(Problem("not measured"))))
            case .failure(let problem): rows.append(Row(id: input.id, pair: nil, result: .failure(problem)))
            }
        }
        let results = try measurer.measure(rows.compactMap(\.pair))
        var next = 0
        for k in rows.indices where rows[k].pair != nil {
            rows[k].result = results[next].map(\.measurement).mapError { Problem($0.message) }
            next += 1
        }
        pending = rows
        pendingIndex = 0
    }

    /// A row's pair in WGS84, or its first problem: the coordinates, their transform, their
    /// range, then the heights. Throws when PROJ could not fetch a grid over the network: no
    /// row's problem, the run's.
    private func pair(_ input: Input) throws(TerrainError) -> Result<MeasurementPair, Problem> {
        var xs: [Double]
        var ys: [Double]
        switch input.coordinates {
        case .success(let read): (xs, ys) = read
        case .failure(let problem): return .failure(problem)
        }
        try inputCRS?.transform(x: &xs, y: &ys)
        return Self.pair(from: (xs[0], ys[0]), to: (xs[1], ys[1]), heights: input.heights, checkWGS84: checkWGS84)
    }

    /// A row's pair from its ends in WGS84 (`nan` where they could not be transformed), or
    /// its first problem: the transform, the range of each end, then the heights.
    static func pair(
        from: (x: Double, y: Double), to: (x: Double, y: Double), heights: Result<(from: Double?, to: Double?), Problem>,
        checkWGS84: (Double, Double) -> Problem?
    ) -> Result<MeasurementPair, Problem> {
        Result { () throws(Problem) -> MeasurementPair in
            guard from.x.isFinite, to.x.isFinite else { throw Problem("cannot transform the coordinates to WGS84") }
            if let problem = checkWGS84(from.x, from.y) ?? checkWGS84(to.x, to.y) { throw problem }
            let z = try heights.get()
            return MeasurementPair(
                from: GeoPoint(longitude: from.x, latitude: from.y), to: GeoPoint(longitude: to.x, latitude: to.y),
                fromZ: z.from, toZ: z.to)
        }
    }
}

/// Why a strict ``PairsMeasurement`` stopped.
public enum PairsMeasurementError: Error, Sendable, Equatable {
    /// Row `id` could not be read or measured, for `message`.
    case badRow(id: String, message: String)
}
