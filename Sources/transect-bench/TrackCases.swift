// Track readers: one 2,000,000-fix track as GeoJSON and as GPX, read and summarised by
// `transect track`, against Python's json.load of the GeoJSON plus building its point list.
#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The same wandering track (one fix a second near Yosemite Valley, as `make memcheck` makes
/// its GPX) written as GeoJSON (one LineString feature with `coordTimes`) and as GPX.
func writeBenchTrack(count: Int, geojson: String, gpx: String) -> Bool {
    var json = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"bench","coordTimes":["#
    var coordinates = ""
    var gpxText =
        #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        + #"<gpx version="1.1" creator="bench" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>bench</name><trkseg>"# + "\n"
    json.reserveCapacity(count * 64)
    coordinates.reserveCapacity(count * 40)
    gpxText.reserveCapacity(count * 110)
    var lat = 37.72
    var lon = -119.6
    for t in 0..<count {
        lat += 0.00002 * sin(Double(t) / 97)
        lon += 0.00002 * cos(Double(t) / 131)
        let ele = String(format: "%.1f", 1500 + 100 * sin(Double(t) / 500))
        let time = String(format: "2020-01-%02dT%02d:%02d:%02dZ", 1 + t / 86400, (t / 3600) % 24, (t / 60) % 60, t % 60)
        let la = String(format: "%.7f", lat)
        let lo = String(format: "%.7f", lon)
        json += (t > 0 ? "," : "") + "\"" + time + "\""
        coordinates += (t > 0 ? "," : "") + "[" + lo + "," + la + "," + ele + "]"
        gpxText += "<trkpt lat=\"" + la + "\" lon=\"" + lo + "\"><ele>" + ele + "</ele><time>" + time + "</time></trkpt>\n"
    }
    json += #"]},"geometry":{"type":"LineString","coordinates":["# + coordinates + "]}}]}\n"
    gpxText += "</trkseg></trk></gpx>\n"
    return FileManager.default.createFile(atPath: geojson, contents: Data(json.utf8))
        && FileManager.default.createFile(atPath: gpx, contents: Data(gpxText.utf8))
}

func trackReaderCases(directory tmp: String) {
    let count = 2_000_000
    let geojson = tmp + "/track.geojson"
    let gpx = tmp + "/track.gpx"
    guard writeBenchTrack(count: count, geojson: geojson, gpx: gpx) else {
        print("track-geojson-2m: could not write the tracks; no figures")
        return
    }
    // The peer: the standard library's json module and a list of (lon, lat, ele, time) tuples.
    let script = tmp + "/peer.py"
    let peerCode = """
        import json, sys
        with open(sys.argv[1]) as f:
            d = json.load(f)
        points = []
        for feature in d["features"]:
            coordinates = feature["geometry"]["coordinates"]
            times = feature["properties"]["coordTimes"]
            for c, t in zip(coordinates, times):
                points.append((c[0], c[1], c[2] if len(c) > 2 else None, t))
        assert len(points) == \(count)
        """
    _ = FileManager.default.createFile(atPath: script, contents: Data(peerCode.utf8))
    var ok = true
    func track(_ path: String) -> Bool { runTool(transectExecutable, ["track", "--in", path, "--format", "json"]) }
    let oursJSON = time(2) { ok = ok && track(geojson) }
    let oursGPX = time(2) { ok = ok && track(gpx) }
    let python = "/usr/bin/python3"
    let peer = time(2) { ok = ok && runTool(python, [script, geojson]) }
    guard ok else {
        print("track-geojson-2m: a command failed (is .build/release/transect built? python3?); no figures")
        return
    }
    let sizes = "; \(fmt(Double(fileSize(geojson)) / 1e6)) MB GeoJSON, \(fmt(Double(fileSize(gpx)) / 1e6)) MB GPX"
    report(
        "track-geojson-2m", "track --in, 2,000,000-fix GeoJSON (read and summarised)", ours: oursJSON, peer: peer,
        peerName: "Python json.load + point list", count: count, note: sizes)
    report(
        "track-geojson-vs-gpx-2m", "track --in, 2,000,000 fixes: GeoJSON against the same track as GPX", ours: oursJSON, peer: oursGPX,
        peerName: "transect track on the GPX", count: count,
        note: "; the issue asks the GeoJSON within 1.5× the GPX's time per point (ratio ≥ 0.67)")
}
