// Hillshade against GDALDEMProcessing in process, and PNG encoding against GDAL's PNG driver.
import CGDAL
import TransectGDAL
import TransectRaster
import TransectRender
import TransectTestSupport

/// A MEM dataset holding `bands` planes of `type` from `pixels` (band-interleaved by pixel when
/// `bands` > 1), 10 m cells; nil when GDAL refuses.
func memDataset(_ pixels: UnsafeRawBufferPointer, width: Int, height: Int, bands: Int, type: GDALDataType, noData: Double?) -> GDALDatasetH? {
    prepareGDAL()
    guard let driver = GDALGetDriverByName("MEM"),
        let ds = GDALCreate(driver, "", Int32(width), Int32(height), Int32(bands), type, nil)
    else { return nil }
    var gt = [0.0, 10, 0, 0, 0, -10]
    GDALSetGeoTransform(ds, &gt)
    let size = Int(GDALGetDataTypeSizeBytes(type))
    var bandList = (1...Int32(bands)).map { $0 }
    let err = GDALDatasetRasterIO(
        ds, GF_Write, 0, 0, Int32(width), Int32(height), UnsafeMutableRawPointer(mutating: pixels.baseAddress), Int32(width),
        Int32(height), type, Int32(bands), &bandList, Int32(bands * size), Int32(width * bands * size), Int32(size))
    if let noData { GDALSetRasterNoDataValue(GDALGetRasterBand(ds, 1), noData) }
    guard err == CE_None else {
        GDALClose(ds)
        return nil
    }
    return ds
}

/// GDAL's command-line style options for a utility, as a NULL-terminated list.
func withArguments<R>(_ args: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    var list: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
    defer { for p in list { free(p) } }
    return list.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
}

/// Returns the grey levels of the 8192² surface's hillshade (for the PNG case).
func hillshadeCase(surface: [Float], size: Int) -> [UInt8] {
    var grey: [UInt8] = []
    let ours = cpuTime(2) {
        grey = Hillshade.shade(elevations: surface, width: size, height: size, cellWidth: 10, cellHeight: 10, computeEdges: true)
    }
    let ds = surface.withUnsafeBytes { memDataset($0, width: size, height: size, bands: 1, type: GDT_Float32, noData: .nan) }
    guard let ds else {
        print("hillshade 8192²: skipped (GDAL's MEM driver refused the grid)")
        return grey
    }
    defer { GDALClose(ds) }
    var ok = true
    let peer = cpuTime(2) {
        let out: GDALDatasetH? = withArguments(["-of", "MEM", "-compute_edges"]) { args in
            guard let options = GDALDEMProcessingOptionsNew(args, nil) else { return nil }
            defer { GDALDEMProcessingOptionsFree(options) }
            var usageError: Int32 = 0
            return GDALDEMProcessing("", ds, "hillshade", nil, options, &usageError)
        }
        if let out { GDALClose(out) } else { ok = false }
    }
    guard ok else {
        print("hillshade 8192²: skipped (GDALDEMProcessing failed)")
        return grey
    }
    report(
        "hillshade-8192", "hillshade, 8192² Float32 grid (one thread)", ours: ours, peer: peer, peerName: "GDALDEMProcessing hillshade",
        count: size * size, note: " (per pixel)")
    return grey
}

/// An 8000² RGB image from the hillshade, encoded by Transect's PNG writer and by GDAL's PNG
/// driver (CreateCopy from a MEM dataset, default options).
func pngCase(grey: [UInt8], greySize: Int, directory: String) {
    let size = 8000
    guard grey.count == greySize * greySize, greySize >= size else { return }
    var rgb = [UInt8](repeating: 0, count: size * size * 3)
    for r in 0..<size {
        for c in 0..<size {
            let g = grey[r * greySize + c]
            let k = (r * size + c) * 3
            rgb[k] = g
            rgb[k + 1] = g &- g / 8
            rgb[k + 2] = g / 2 &+ 100
        }
    }
    let oursPath = directory + "/ours-8000.png"
    let peerPath = directory + "/gdal-8000.png"
    var failed: String?
    let ours = time(2) {
        do { try PNGFile.encode(path: oursPath, rgb: rgb, width: size, height: size, texts: []) } catch { failed = "\(error)" }
    }
    let ds = rgb.withUnsafeBytes { memDataset($0, width: size, height: size, bands: 3, type: GDT_Byte, noData: nil) }
    guard failed == nil, let ds, let png = GDALGetDriverByName("PNG") else {
        print("PNG encode 8000²: skipped (\(failed ?? "GDAL has no MEM or PNG driver"))")
        return
    }
    defer { GDALClose(ds) }
    let peer = time(2) {
        if let out = GDALCreateCopy(png, peerPath, ds, 0, nil, nil, nil) { GDALClose(out) } else { failed = "GDAL's CreateCopy failed" }
    }
    if let failed {
        print("PNG encode 8000²: skipped (\(failed))")
        return
    }
    let sizes = " (per pixel; files \(fmt(Double(fileSize(oursPath)) / 1e6)) MB and \(fmt(Double(fileSize(peerPath)) / 1e6)) MB)"
    report("png-encode-8000", "PNG encode, 8000² RGB", ours: ours, peer: peer, peerName: "GDAL PNG driver CreateCopy", count: size * size, note: sizes)
}
