#if canImport(Glibc)
import Glibc
#endif
import TransectGDAL
import TransectGeodesy

/// Lines of constant longitude and latitude, for maps without terrain, their lines and labels
/// `scale` times their 96-dpi size (dpi / 96).
enum Graticule {
    static func draw(on canvas: Canvas, frame: MapFrame, scale s: Double = 1) throws {
        let w = Double(frame.width)
        let h = Double(frame.height)
        // The frame's lon/lat bounds, from its edges sampled every 32 px.
        var edge: [(Double, Double)] = []
        for k in stride(from: 0.0, through: w, by: 32) { edge += [(k, 0), (k, h)] }
        for k in stride(from: 0.0, through: h, by: 32) { edge += [(0, k), (w, k)] }
        let geo = try frame.geographic(of: edge).filter { $0.latitude.isFinite }
        guard let minLon = geo.map(\.longitude).min(), let maxLon = geo.map(\.longitude).max(),
            let minLat = geo.map(\.latitude).min(), let maxLat = geo.map(\.latitude).max()
        else { return }
        let step = NiceNumbers.step(span: max(maxLon - minLon, maxLat - minLat), target: 6)
        let color = Color(hex: 0xB8B4AC)
        for lon in NiceNumbers.ticks(lo: minLon, hi: maxLon, step: step) {
            let pts = try frame.pixels(of: stride(from: minLat, through: maxLat, by: (maxLat - minLat) / 64).map { GeoPoint(longitude: lon, latitude: $0) })
            canvas.polyline(pts, color: color, width: 1 * s)
            if let bottom = pts.first, bottom.0 > 30 * s, bottom.0 < w - 60 * s {
                canvas.text(
                    degrees(lon, step: step, positive: "E", negative: "W"), x: bottom.0 + 3 * s, y: h - 64 * s, size: 10 * s, color: Color(hex: 0x8A857C))
            }
        }
        for lat in NiceNumbers.ticks(lo: minLat, hi: maxLat, step: step) {
            let pts = try frame.pixels(of: stride(from: minLon, through: maxLon, by: (maxLon - minLon) / 64).map { GeoPoint(longitude: $0, latitude: lat) })
            canvas.polyline(pts, color: color, width: 1 * s)
            if let left = pts.first, left.1 > 90 * s, left.1 < h - 70 * s {
                canvas.text(degrees(lat, step: step, positive: "N", negative: "S"), x: 6 * s, y: left.1 - 3 * s, size: 10 * s, color: Color(hex: 0x8A857C))
            }
        }
    }

    static func degrees(_ v: Double, step: Double, positive: String, negative: String) -> String {
        NiceNumbers.label(abs(v), step: step) + "°" + (v == 0 ? "" : (v > 0 ? positive : negative))
    }
}
