// Shards on this machine's cores: `measure --pairs` split in two shards run at once, against the
// same two one after the other and against the batch as one shard.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TransectSupport

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

/// Wall times of `runs` rounds, each round running every one of `commands` in turn (so a machine
/// whose speed drifts, with other tenants on its host, weighs on all alike): `times[c][r]` is
/// command `c`'s time in round `r`; nil when a command fails.
func rounds(_ runs: Int, _ commands: [() -> Bool]) -> [[Double]]? {
    var times = [[Double]](repeating: [], count: commands.count)
    for _ in 0..<runs {
        for (c, command) in commands.enumerated() {
            let t0 = now()
            guard command() else { return nil }
            times[c].append(now() - t0)
        }
    }
    return times
}

/// The median over rounds of `f` applied to each round's times.
func medianOfRounds(_ times: [[Double]], _ f: ([Double]) -> Double) -> Double {
    median((0..<times[0].count).map { r in f(times.map { $0[r] }) })
}

/// `shards-2-1m` and `shards-2-4m`, on 1,000,000 and 4,000,000 seeded pairs, every process
/// `measure --pairs --threads 1 -o` (so each counts and hashes the whole input and writes its
/// manifest). Each round times three ways of doing the batch:
/// - *whole*: `--shard 1/1`, the batch in one process;
/// - *one after the other*: `--shard 1/2`, then `--shard 2/2`: the two shards' work on one core;
/// - *at once*: `--shard 1/2` and `--shard 2/2` together: the same work on two cores.
///
/// Two figures come out. The shards' throughput on two cores against one (*one after the other*
/// over *at once*) is the same work either way: what is lost is only what the shards cost each
/// other. The batch's speed-up (*whole* over *at once*) also pays each process's start-up
/// (loading GDAL and PROJ, the transformation, decoding the DEM, hashing the input) a second
/// time; that start-up is *one after the other* minus *whole*, printed beside it. Beside them,
/// the machine's own scaling: two CPU-bound shell loops at once against the same two one after
/// the other, which no program can beat on a host shared with other work.
func shardCases(directory tmp: String) {
    guard access(sharedDEM, R_OK) == 0 else {
        print("shards-2: skipped (needs ../shared/data)")
        return
    }
    let loop = ["-c", "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done"]
    guard
        let machine = rounds(
            7, [{ runTool("/bin/sh", loop) && runTool("/bin/sh", loop) }, { runTogether([("/bin/sh", loop), ("/bin/sh", loop)]) }])
    else {
        print("shards-2: skipped (/bin/sh failed)")
        return
    }
    print(
        "shards-2: this machine runs two CPU-bound shell loops at once \(fmt(medianOfRounds(machine) { $0[0] / $0[1] }))× as fast as one after the other (median of 7 rounds)"
    )
    for (name, count, roundCount) in [("shards-2-1m", 1_000_000, 7), ("shards-2-4m", 4_000_000, 3)] where runs(name) {
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
        guard
            let times = rounds(
                roundCount,
                [
                    { runTogether([shard(1, of: 1)]) },
                    { runTogether([shard(1, of: 2)]) && runTogether([shard(2, of: 2)]) },
                    { runTogether([shard(1, of: 2), shard(2, of: 2)]) },
                ])
        else {
            print("\(name): a command failed (is .build/release/transect built?); no figures")
            continue
        }
        let whole = median(times[0])
        let serial = median(times[1])
        let together = median(times[2])
        print(
            "\(name): measure --pairs, \(NumberFormatting.count(count, "pair")), --threads 1 (medians of \(roundCount) rounds): "
                + "2 shards at once \(fmt(together)) s, one after the other \(fmt(serial)) s: "
                + "\(fmt(medianOfRounds(times) { $0[1] / $0[2] }))× the throughput on two cores; "
                + "the batch as 1 shard \(fmt(whole)) s, so 2 shards finish it \(fmt(medianOfRounds(times) { $0[0] / $0[2] }))× as fast, "
                + "each paying a start-up of \(fmt(serial - whole)) s")
        results.append(BenchResult(name: name, transectNs: together * 1e9, peer: "the 2 shards one after the other", peerNs: serial * 1e9))
        results.append(BenchResult(name: name + "-batch", transectNs: together * 1e9, peer: "the batch as 1 shard", peerNs: whole * 1e9))
    }
}
