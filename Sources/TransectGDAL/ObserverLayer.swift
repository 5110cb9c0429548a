#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import TransectSupport

/// Observers from a GIS layer (`viewshed --observers FILE.gpkg`): the first layer's points,
/// moved from the layer's CRS into WGS84, with the same fields as an observers CSV: `name`,
/// `z` (the eye above the datum), `height` (the eye above the ground) and `target_height`.
public enum ObserverLayer {
    /// One observer as the layer gives it.
    public struct Observer: Sendable, Hashable {
        /// The `name` field, or `FILE feature FID`.
        public var name: String
        public var longitude: Double
        public var latitude: Double
        public var absoluteMetres: Double?
        public var aboveGroundMetres: Double?
        public var targetHeightMetres: Double?
    }

    /// The most observers a layer may hold, as a CSV's.
    public static let maximumObservers = 100_000

    /// Reads the points of the first layer of the GeoPackage (or any file OGR reads) at `path`,
    /// which must be a regular file.
    public static func read(path: String) throws(TerrainError) -> [Observer] {
        // Only a regular file: a FIFO or a device is refused before OGR opens it.
        do { close(try RegularFile.openForReading(path)) } catch { throw .unusableLayer(path: path, reason: "cannot open: " + error.text) }
        let reader: LayerReader
        do { reader = try LayerReader(path: path) } catch {
            if case .cannotOpen(_, let reason) = error { throw .unusableLayer(path: path, reason: "cannot open: " + GDALReason.tidy(reason, path: path)) }
            throw error
        }
        let transformer =
            try reader.crs.map { (crs: SpatialReference) throws(TerrainError) -> CoordinateTransformer? in
                let wgs84 = try SpatialReference.wgs84()
                return crs.isSame(as: wgs84) ? nil : try CoordinateTransformer(from: crs, to: wgs84)
            } ?? nil
        func index(_ names: [String]) -> Int? { reader.fields.firstIndex { names.contains($0.name.lowercased()) } }
        let name = index(["name", "label", "title"])
        let z = index(["z", "elevation", "ele"])
        let height = index(["height", "observer_height"])
        let target = index(["target_height"])
        var observers: [Observer] = []
        var xs: [Double] = []
        var ys: [Double] = []
        while let feature = reader.next() {
            guard case .point(let x, let y, _) = feature.geometry else { continue }
            func number(_ k: Int?, _ what: String) throws(TerrainError) -> Double? {
                guard let k else { return nil }
                let v: Double?
                switch feature.values[k] {
                case .real(let r): v = r
                case .integer(let i): v = Double(i)
                case .null: return nil
                case .string(let text): v = NumberText.double(text)
                }
                guard let v, v.isFinite, abs(v) <= 100_000_000 else {
                    throw .unusableLayer(path: path, reason: "feature \(feature.fid): \(what) is not a height in metres")
                }
                return v
            }
            var label = "\(path) feature \(feature.fid)"
            if let name, case .string(let text) = feature.values[name], !text.isEmpty { label = text }
            let observer = Observer(
                name: label, longitude: x, latitude: y, absoluteMetres: try number(z, "z"), aboveGroundMetres: try number(height, "height"),
                targetHeightMetres: try number(target, "target_height"))
            if observer.absoluteMetres != nil && observer.aboveGroundMetres != nil {
                throw .unusableLayer(path: path, reason: "feature \(feature.fid) gives both z (above the datum) and height (above the ground)")
            }
            observers.append(observer)
            xs.append(x)
            ys.append(y)
            guard observers.count <= maximumObservers else {
                throw .unusableLayer(path: path, reason: "holds more than \(NumberFormatting.grouped(Double(maximumObservers), decimals: 0)) observers")
            }
        }
        guard !observers.isEmpty else { throw .unusableLayer(path: path, reason: "holds no point") }
        try transformer?.transform(x: &xs, y: &ys)
        for k in 0..<observers.count {
            guard xs[k].isFinite, ys[k].isFinite, abs(ys[k]) <= 90 else {
                throw .unusableLayer(path: path, reason: "\(observers[k].name) has no place on the earth in WGS84")
            }
            observers[k].longitude = xs[k]
            observers[k].latitude = ys[k]
        }
        return observers
    }
}
