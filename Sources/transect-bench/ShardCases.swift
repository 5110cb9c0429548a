// Shards against one process: `measure --pairs` split in two shards run at once, against the
// same batch as one shard, on this machine's cores.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TransectCore

/// Starts every command line of `commands` at once and waits for all; true when all exit 0.
func runTogether(_ commands: [(path: String, arguments: [String])]) -> Bool {
    var started: [Process] = []
    for command in commands {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: command.path)
        p.arguments = command.arguments
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return false }
        started.append(p)
    }
    for p in started { p.waitUntilExit() }
    return started.allSatisfy { $0.terminationStatus == 0 }
}

/// The middle value of `values` (the mean of the middle two for an even count).
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Wall times of `runs` alternating rounds of `one` and `two`: alternating, so that a machine
/// whose speed drifts (other tenants of the host) weighs on both alike; each round's ratio is
/// taken within the round.
func alternating(_ runs: Int, one: () -> Bool, two: () -> Bool) -> (one: Double, two: Double, ratio: Double)? {
    var ones: [Double] = []
    var twos: [Double] = []
    var ratios: [Double] = []
    for _ in 0..<runs {
        var t0 = now()
        guard one() else { return nil }
        ones.append(now() - t0)
        t0 = now()
        guard two() else { return nil }
        twos.append(now() - t0)
        ratios.append(twos.last! / ones.last!)
    }
    return (median(ones), median(twos), median(ratios))
}

/// `shards-2-1m` and `shards-2-4m`: `--shard 1/2` and `--shard 2/2` at once against
/// `--shard 1/1`, every process with `--threads 1` and `-o` (so each counts and hashes the
/// whole input and writes its manifest), on 1,000,000 and 4,000,000 seeded pairs. Beside them,
/// the machine's own scaling: two CPU-bound shell loops at once against one, which no program
/// can beat on a host shared with other work.
func shardCases(directory tmp: String) {
    guard access(sharedDEM, R_OK) == 0 else {
        print("shards-2: skipped (needs ../shared/data)")
        return
    }
    let loop = ["-c", "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done"]
    guard let machine = alternating(7, one: { runTool("/bin/sh", loop) }, two: { runTogether([("/bin/sh", loop), ("/bin/sh", loop)]) }) else {
        print("shards-2: skipped (/bin/sh failed)")
        return
    }
    print("shards-2: this machine runs two CPU-bound shell loops at once \(fmt(2 / machine.ratio))× as fast as one (median of 7 rounds)")
    for (name, count, rounds) in [("shards-2-1m", 1_000_000, 7), ("shards-2-4m", 4_000_000, 3)] where runs(name) {
        let input = tmp + "/shard-pairs.csv"
        do { try writeSeededPairs(count, to: input) } catch {
            print("\(name): skipped (\(error))")
            continue
        }
        func shard(_ k: Int, of n: Int) -> (path: String, arguments: [String]) {
            (
                transectExecutable,
                ["measure", "--dem", sharedDEM, "--pairs", input, "--shard", "\(k)/\(n)", "--threads", "1", "-o", tmp + "/shard-\(k)-of-\(n).csv"]
            )
        }
        guard let timing = alternating(rounds, one: { runTogether([shard(1, of: 1)]) }, two: { runTogether([shard(1, of: 2), shard(2, of: 2)]) }) else {
            print("\(name): a command failed (is .build/release/transect built?); no figures")
            continue
        }
        print(
            "\(name): measure --pairs, \(NumberFormatting.count(count, "pair")), 2 shards at once \(fmt(timing.two)) s, 1 shard \(fmt(timing.one)) s (--threads 1 each, medians of \(rounds) rounds): "
                + "2 shards give \(fmt(1 / timing.ratio))× the throughput of one")
        results.append(BenchResult(name: name, transectNs: timing.two * 1e9, peer: "one shard (--shard 1/1 --threads 1)", peerNs: timing.one * 1e9))
    }
}
