// The bench's clock, timings, report lines and the JSON list.
#if canImport(Glibc)
import Glibc
#endif
import TransectSupport

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// The process's CPU time, all threads: what a kernel costs, whatever else the machine runs
/// meanwhile (the bench shares its cores with other work).
func processCPUTime() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Best of `runs` timings of `body`, in seconds of wall time (whole commands, and work that
/// may use several threads).
func time(_ runs: Int = 3, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
        let t0 = now()
        body()
        best = min(best, now() - t0)
    }
    return best
}

/// Best of `runs` timings of `body`, in seconds of CPU time (every thread's): for kernels, where
/// wall time on a busy machine measures the neighbours. A kernel that spreads over threads is
/// charged for all of them.
func cpuTime(_ runs: Int = 3, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
        let t0 = processCPUTime()
        body()
        best = min(best, processCPUTime() - t0)
    }
    return best
}

func fmt(_ v: Double) -> String { NumberFormatting.grouped(v, decimals: 2) }

/// One named case measured against its peer in the same run: nanoseconds per operation (a
/// point, a pair, a pixel, or the whole command, as the case's line says).
struct BenchResult {
    let name: String
    let transectNs: Double
    let peer: String
    let peerNs: Double
    /// Transect's time over the peer's: below 1 when Transect is faster.
    var ratio: Double { transectNs / peerNs }
}

/// The results of the run, in order, for `--json`.
nonisolated(unsafe) var results: [BenchResult] = []

/// Values the timed loops fold in, so the optimiser cannot drop them.
nonisolated(unsafe) var sink = 0.0

/// Prints a case's line (ns per operation, or seconds for a whole run when `count` is 1, and
/// the speed-up over the peer) and records it.
func report(_ name: String, _ label: String, ours: Double, peer: Double, peerName: String, count: Int, note: String = "") {
    let oursNs = ours * 1e9 / Double(count)
    let peerNs = peer * 1e9 / Double(count)
    let speedup = peer / ours
    let (o, p) = count == 1 ? ("\(fmt(ours)) s", "\(fmt(peer)) s") : ("\(fmt(oursNs)) ns/op", "\(fmt(peerNs)) ns/op")
    print(
        "\(label): Transect \(o), \(peerName) \(p), "
            + "ratio \(fmt(speedup))× (\(speedup >= 1 ? "Transect faster" : "peer faster"))\(note)")
    results.append(BenchResult(name: name, transectNs: oursNs, peer: peerName, peerNs: peerNs))
}

/// A JSON string literal.
func jsonString(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        default:
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}

/// A number for JSON: finite, three decimals.
func jsonNumber(_ v: Double) -> String {
    v.isFinite ? NumberFormatting.fixed(v, decimals: 3) : "null"
}

/// The list of results as JSON, one object per line.
func resultsJSON() -> String {
    let rows = results.map { r in
        "  {\"name\": \(jsonString(r.name)), \"transect_ns\": \(jsonNumber(r.transectNs)), \"peer\": \(jsonString(r.peer)), "
            + "\"peer_ns\": \(jsonNumber(r.peerNs)), \"ratio\": \(jsonNumber(r.ratio))}"
    }
    return "[\n" + rows.joined(separator: ",\n") + "\n]"
}
