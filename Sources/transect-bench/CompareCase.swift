// `transect compare` on two 1600 × 1000 PNGs against ImageMagick's `compare -metric RMSE`, the
// tool a CI script would call instead: whole processes, start-up included, in alternating rounds.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TransectRender

/// Runs a program with stdout and stderr discarded (`posix_spawn` and `waitpid`: Foundation's
/// `Process` adds tens of milliseconds of its own to each run, which would hide both times); true
/// when it exits 0 or 1 (both compare tools exit 1 for images that differ).
func runCompared(_ path: String, _ arguments: [String]) -> Bool {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return false }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        guard errno == EINTR else { return false }
    }
    // WIFEXITED and WEXITSTATUS, which Swift does not import.
    guard status & 0x7f == 0 else { return false }
    let code = (status >> 8) & 0xff
    return code == 0 || code == 1
}

/// A 1600 × 1000 RGB render-like image: shaded relief (smooth grey slopes) under a few dark
/// anti-aliased lines; `shift` moves the lines right by that many pixels.
func renderLikeImage(width: Int, height: Int, shift: Double) -> [UInt8] {
    var rgba = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let fx = Double(x) / Double(width)
            let fy = Double(y) / Double(height)
            var v = 170 + 60 * sin(9 * fx + 4 * sin(5 * fy)) * cos(7 * fy)
            for k in 0..<4 {
                // Distance to the line y = a x + b, in pixels, made into coverage over 1.5 px.
                let a = 0.2 + 0.15 * Double(k)
                let b = Double(100 + 220 * k)
                let d = abs(Double(y) - (a * (Double(x) - shift) + b)) / (1 + a * a).squareRoot()
                let coverage = max(0, min(1, 1.5 - d))
                v = v * (1 - coverage) + 20 * coverage
            }
            let i = 4 * (y * width + x)
            rgba[i] = UInt8(max(0, min(255, v.rounded())))
            rgba[i + 1] = UInt8(max(0, min(255, (v * 0.95).rounded())))
            rgba[i + 2] = UInt8(max(0, min(255, (v * 0.85).rounded())))
        }
    }
    return rgba
}

/// compare-1600x1000: median wall time of a whole `transect compare a.png b.png` against
/// `compare -metric RMSE a.png b.png null:` over 7 alternating rounds.
func compareCase(directory tmp: String) {
    let magick = "/usr/bin/compare"
    guard access(magick, X_OK) == 0 else {
        print("compare-1600x1000: skipped (needs ImageMagick's compare: apt-get install imagemagick)")
        return
    }
    let (width, height) = (1600, 1000)
    let a = tmp + "/compare-a.png"
    let b = tmp + "/compare-b.png"
    do {
        // Written as RGB PNGs, as renders are (the alpha of the buffer is 255 throughout).
        for (path, shift) in [(a, 0.0), (b, 1.0)] {
            let rgba = renderLikeImage(width: width, height: height, shift: shift)
            var rgb = [UInt8](repeating: 0, count: width * height * 3)
            for k in 0..<(width * height) { for c in 0..<3 { rgb[3 * k + c] = rgba[4 * k + c] } }
            try PNGFile.encode(path: path, rgb: rgb, width: width, height: height, texts: [])
        }
    } catch {
        print("compare-1600x1000: cannot write the images (\(error)); no figures")
        return
    }
    guard
        let times = rounds(
            7,
            [
                { runCompared(transectExecutable, ["compare", a, b]) },
                { runCompared(magick, ["-metric", "RMSE", a, b, "null:"]) },
            ])
    else {
        print("compare-1600x1000: a command failed (is .build/release/transect built?); no figures")
        return
    }
    report(
        "compare-1600x1000", "compare two 1600 × 1000 PNGs, whole process", ours: median(times[0]), peer: median(times[1]),
        peerName: "ImageMagick compare -metric RMSE", count: 1, note: " (median of 7 alternating rounds)")
}
