import TransectAnalysis
import TransectCLIMeasure
import TransectGDAL
import TransectGeodesy
import TransectRender
import TransectSupport

/// `render --layers FILE.gpkg`: what the map shows, as GeoPackage layers in the map's CRS,
/// so a GIS project can restyle exactly what the figure draws.
///
/// - `frame`: the frame's extent as a polygon, with its size in pixels;
/// - `measurements`: each `--measure` line along the geodesic (every 1 km at most, the
///   `measure` layers' default), 2D in the map's CRS, with its label;
/// - `places`: each place as a point with its name;
/// - `trails`: each track as a multi-line string of its segments, with its end labels;
/// - `fixes`: each fix as a point, numbered along its trail;
/// - `labels`: each element the figure placed (labels, markers, title, legend, …) as a point
///   at its anchor, with its kind, its text and its box in image pixels.
enum RenderLayers {
    /// The longest step of a measurement's line, metres: `measure --max-segment`'s default.
    static let maxSegmentMetres = 1000.0

    /// Writes `map`'s layers and `layout`'s label positions to `output`.
    static func write(_ map: AnnotatedMap, layout: Layout, to output: LayerOutput) throws {
        let frame = map.frame
        let crs = frame.crs
        func project(_ points: [GeoPoint]) throws -> (x: [Double], y: [Double], z: [Double]) {
            let pixels = try frame.pixels(of: points)
            var x: [Double] = []
            var y: [Double] = []
            for (px, py) in pixels {
                let m = frame.map(px: px, py: py)
                x.append(MeasurementsLayer.rounded(m.x, 6))
                y.append(MeasurementsLayer.rounded(m.y, 6))
            }
            return (x, y, [Double](repeating: 0, count: x.count))
        }

        let frameLayer = try output.createLayer(
            "frame", geometry: .polygon, fields: [.init("width_px", .integer), .init("height_px", .integer)], crs: crs)
        try output.write(
            frameLayer, fid: 1, values: [.integer(frame.width), .integer(frame.height)],
            geometry: .polygon(x: [frame.minX, frame.maxX, frame.maxX, frame.minX], y: [frame.minY, frame.minY, frame.maxY, frame.maxY]))

        let measurements = try output.createLayer("measurements", geometry: .lineString2D, fields: [.init("label", .string)], crs: crs)
        for (k, m) in map.spec.measurements.enumerated() {
            let measurement = Measurement(
                start: GeoPoint(longitude: m.start.longitude, latitude: m.start.latitude, heightMetres: 0),
                end: GeoPoint(longitude: m.end.longitude, latitude: m.end.latitude, heightMetres: 0))
            let vertices = measurement.geodesicVertices(maxSegmentMetres: maxSegmentMetres)
            let line = try project(zip(vertices.x, vertices.y).map { GeoPoint(longitude: $0, latitude: $1) })
            try output.write(measurements, fid: k + 1, values: [.string(m.label)], geometry: .lineString(x: line.x, y: line.y, z: line.z))
        }

        let places = try output.createLayer("places", geometry: .point2D, fields: [.init("name", .string)], crs: crs)
        for (k, place) in map.spec.places.enumerated() {
            let p = try project([GeoPoint(longitude: place.longitude, latitude: place.latitude)])
            try output.write(places, fid: k + 1, values: [.string(place.name)], geometry: .point(x: p.x[0], y: p.y[0], z: 0))
        }

        let trails = try output.createLayer(
            "trails", geometry: .multiLineString2D, fields: [.init("start_label", .string), .init("end_label", .string)], crs: crs)
        let fixes = try output.createLayer("fixes", geometry: .point2D, fields: [.init("trail", .integer), .init("fix", .integer)], crs: crs)
        var fixID = 0
        for (k, trail) in map.spec.trails.enumerated() {
            let parts = try trail.segments.filter { $0.count > 1 }.map { try project($0) }
            try output.write(
                trails, fid: k + 1, values: [.string(trail.startLabel), .string(trail.endLabel)],
                geometry: parts.isEmpty ? nil : .multiLineString(parts))
            let points = try project(trail.fixes)
            for i in points.x.indices {
                fixID += 1
                try output.write(fixes, fid: fixID, values: [.integer(k + 1), .integer(i + 1)], geometry: .point(x: points.x[i], y: points.y[i], z: 0))
            }
        }

        let labels = try output.createLayer(
            "labels", geometry: .point2D,
            fields: [
                .init("kind", .string), .init("text", .string), .init("box_x0_px", .real), .init("box_y0_px", .real), .init("box_x1_px", .real),
                .init("box_y1_px", .real),
            ], crs: crs)
        for (k, e) in layout.elements.enumerated() {
            let anchor = frame.map(px: e.anchor.x, py: e.anchor.y)
            try output.write(
                labels, fid: k + 1,
                values: [
                    .string(e.kind.rawValue), e.text.map { .string($0) } ?? .null, .real(MeasurementsLayer.rounded(e.box.x0, 2)),
                    .real(MeasurementsLayer.rounded(e.box.y0, 2)), .real(MeasurementsLayer.rounded(e.box.x1, 2)),
                    .real(MeasurementsLayer.rounded(e.box.y1, 2)),
                ],
                geometry: .point(x: MeasurementsLayer.rounded(anchor.x, 6), y: MeasurementsLayer.rounded(anchor.y, 6), z: 0))
        }
    }
}
