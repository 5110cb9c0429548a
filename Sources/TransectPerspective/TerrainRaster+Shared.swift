/// The rasteriser's buffers, lent to the workers.
///
/// `@unchecked Sendable` is safe because the screen, colour and triangle buffers are only read;
/// `depth`, `colour` and `rgb` are written only at the pixels of the tile a worker draws (each
/// tile is one work item); and every buffer outlives the workers (the parallel loop returns
/// inside the `withUnsafe…BufferPointer` calls that lend them).
struct SharedRaster: @unchecked Sendable {
    let screen: UnsafeBufferPointer<SIMD4<Float>>
    let colours: UnsafeBufferPointer<SIMD4<Float>>
    let triangles: UnsafeBufferPointer<Int32>
    let depth: UnsafeMutableBufferPointer<Float>
    let colour: UnsafeMutableBufferPointer<UInt32>
    let rgb: UnsafeMutableBufferPointer<UInt8>
}

/// The projection pass's buffers.
///
/// `@unchecked Sendable` is safe because `input` is only read and each worker writes only the
/// indices of its own chunk of `output`, both outliving the workers as ``SharedRaster``'s do.
struct SharedProjection: @unchecked Sendable {
    let input: UnsafeBufferPointer<SIMD4<Float>>
    let output: UnsafeMutableBufferPointer<SIMD4<Float>>
}

/// Each binning chunk's triangle lists per tile.
///
/// `@unchecked Sendable` is safe because chunk k's worker alone writes slot k, before any tile
/// is drawn (the binning loop returns first), and the tiles only read.
final class Bins: @unchecked Sendable {
    let chunks: Int
    let tiles: Int
    private let slots: UnsafeMutablePointer<[[Int32]]>

    init(chunks: Int, tiles: Int) {
        self.chunks = chunks
        self.tiles = tiles
        slots = .allocate(capacity: max(chunks, 1))
        slots.initialize(repeating: [], count: max(chunks, 1))
    }

    deinit {
        slots.deinitialize(count: max(chunks, 1))
        slots.deallocate()
    }

    func set(_ chunk: Int, _ lists: [[Int32]]) { slots[chunk] = lists }

    func list(_ chunk: Int, _ tile: Int) -> [Int32] {
        let lists = slots[chunk]
        return lists.isEmpty ? [] : lists[tile]
    }
}
