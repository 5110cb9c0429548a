#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import TransectGDAL
import TransectSupport

/// A GIS layer file as an output: written by OGR's driver (``LayerWriter``) to a temporary of
/// an ``OutputTransaction`` and renamed into place only when the whole result is ready, so a
/// failed or interrupted run leaves no partial file, as ``OutputTarget`` does for text.
package final class LayerOutput {
    package let path: String
    package let format: LayerFormat
    /// The file being written, until the transaction commits.
    package let temporary: String
    private let transaction: OutputTransaction
    private let ownsTransaction: Bool
    private var writer: LayerWriter?
    /// Where the driver writes: the temporary, or for FlatGeobuf the temporary with `.fgb`
    /// after it (the driver writes a directory of layers for any other name), renamed to the
    /// temporary once closed.
    private let writerPath: String

    /// A layer file at `path` in `format`; with `transaction` it joins it and the caller
    /// commits, without one the output commits its own.
    package init(path: String, format: LayerFormat, transaction: OutputTransaction? = nil) throws(CLIError) {
        self.path = path
        self.format = format
        self.transaction = transaction ?? OutputTransaction()
        ownsTransaction = transaction == nil
        temporary = try self.transaction.stage(path)
        writerPath = format == .flatgeobuf ? temporary + ".fgb" : temporary
        if writerPath != temporary { SignalCleanup.register(writerPath, .remove) }
        do throws(TerrainError) { writer = try LayerWriter(path: writerPath, format: format, label: path) } catch {
            dropWriterPath()
            self.transaction.rollback()
            throw Self.cliError(error, path: path)
        }
    }

    /// Adds a layer (see ``LayerWriter/createLayer(_:geometry:fields:crs:)``).
    package func createLayer(
        _ name: String, geometry: LayerWriter.GeometryType, fields: [LayerWriter.Field], crs: SpatialReference? = nil
    ) throws(CLIError) -> LayerWriter.Layer {
        guard let writer else { preconditionFailure("LayerOutput.createLayer after finish") }
        do throws(TerrainError) { return try writer.createLayer(name, geometry: geometry, fields: fields, crs: crs) } catch {
            abandon()
            throw Self.cliError(error, path: path)
        }
    }

    /// Writes one feature (see ``LayerWriter/write(_:fid:values:geometry:)``).
    package func write(_ layer: LayerWriter.Layer, fid: Int?, values: [LayerWriter.Value], geometry: LayerWriter.Geometry?) throws(CLIError) {
        guard let writer else { preconditionFailure("LayerOutput.write after finish") }
        do throws(TerrainError) { try writer.write(layer, fid: fid, values: values, geometry: geometry) } catch {
            abandon()
            throw Self.cliError(error, path: path)
        }
    }

    /// Closes the file (it is then whole, at ``temporary``) without committing it.
    package func finish() throws(CLIError) {
        guard let writer else { return }
        self.writer = nil
        do throws(TerrainError) { try writer.close() } catch {
            dropWriterPath()
            transaction.rollback()
            throw Self.cliError(error, path: path)
        }
        guard writerPath != temporary else { return }
        guard rename(writerPath, temporary) == 0 else {
            let reason = SystemError.text(errno)
            dropWriterPath()
            transaction.rollback()
            throw CLIError.cannotWrite(path: path, reason: reason)
        }
        SignalCleanup.unregister(writerPath)
    }

    private func dropWriterPath() {
        guard writerPath != temporary else { return }
        unlink(writerPath)
        SignalCleanup.unregister(writerPath)
    }

    /// Finishes the file and, when this output owns its transaction, moves it into place.
    package func commit() throws(CLIError) {
        try finish()
        if ownsTransaction { try transaction.commit() }
    }

    /// Drops the file (and, through a shared transaction, the rest of the result).
    package func abandon() {
        writer = nil
        dropWriterPath()
        transaction.rollback()
    }

    private static func cliError(_ error: TerrainError, path: String) -> CLIError {
        if case .cannotWriteLayer(_, let reason) = error { return .cannotWrite(path: path, reason: reason) }
        return .badInput(error.message)
    }
}
