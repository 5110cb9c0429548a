#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectSupport

/// `--shard K/N|auto`: which shard of a batch this run is.
package enum ShardArgument {
    /// The variables `auto` reads, from this process's environment.
    package static var processEnvironment: [String: String] {
        var found: [String: String] = [:]
        for name in [
            "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT", "JOB_COMPLETION_INDEX",
            "AWS_BATCH_JOB_ARRAY_INDEX", "TRANSECT_SHARDS",
        ] {
            if let value = getenv(name) { found[name] = String(cString: value) }
        }
        return found
    }

    /// `K/N` as given, or (`auto`) from the job array variables of the engine running it:
    /// Slurm (`SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_MIN`, `SLURM_ARRAY_TASK_COUNT`),
    /// Kubernetes Indexed Jobs (`JOB_COMPLETION_INDEX`, from 0) or AWS Batch array jobs
    /// (`AWS_BATCH_JOB_ARRAY_INDEX`, from 0), the last two with `TRANSECT_SHARDS` for N.
    package static func parse(_ text: String, environment: [String: String], command: String) throws(CLIError) -> Shard {
        func usage(_ reason: String) -> CLIError { .usage("option '--shard': \(reason)", command: command) }
        let most = NumberFormatting.grouped(Double(Shard.maximumCount), decimals: 0)
        // Job array variables: task IDs and indexes from 0 (Slurm's are below its
        // MaxArraySize, at most 4,000,001), counts from 1; each bounded so that no sum below
        // overflows.
        func integer(_ name: String, in range: ClosedRange<Int>) throws(CLIError) -> Int? {
            guard let value = environment[name] else { return nil }
            guard let n = NumberText.integer(value.trimmingAsciiSpaces), range.contains(n) else {
                throw usage(
                    "\(name)='\(value.printable)' is not a whole number from \(range.lowerBound) to \(NumberFormatting.grouped(Double(range.upperBound), decimals: 0))"
                )
            }
            return n
        }
        let indexes = 0...(4 * Shard.maximumCount)
        let counts = 1...Shard.maximumCount
        func make(_ k: Int, _ n: Int, _ from: String) throws(CLIError) -> Shard {
            guard n >= 1, (1...n).contains(k) else { throw usage("\(from) gives shard \(k)/\(n), not K/N with 1 ≤ K ≤ N") }
            guard n <= Shard.maximumCount else { throw usage("\(from) gives \(n) shards; at most \(most) are allowed") }
            return Shard(index: k, count: n)
        }
        guard text == "auto" else {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let k = NumberText.integer(parts[0]), let n = NumberText.integer(parts[1]) else {
                throw usage("'\(text.printable)' is not K/N (like 2/4) or auto")
            }
            return try make(k, n, "'\(text.printable)'")
        }
        if let id = try integer("SLURM_ARRAY_TASK_ID", in: indexes) {
            guard let count = try integer("SLURM_ARRAY_TASK_COUNT", in: counts) else {
                throw usage("auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not")
            }
            let minimum = try integer("SLURM_ARRAY_TASK_MIN", in: indexes) ?? 1
            return try make(id - minimum + 1, count, "Slurm's SLURM_ARRAY_TASK_ID=\(id) (from \(minimum), of \(count))")
        }
        for name in ["JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"] {
            guard let index = try integer(name, in: indexes) else { continue }
            guard let count = try integer("TRANSECT_SHARDS", in: counts) else {
                throw usage("auto: \(name) is set; give the number of shards in TRANSECT_SHARDS")
            }
            return try make(index + 1, count, "\(name)=\(index) (from 0, of TRANSECT_SHARDS=\(count))")
        }
        throw usage(
            "auto needs a job array: SLURM_ARRAY_TASK_ID (Slurm), JOB_COMPLETION_INDEX (Kubernetes) or AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch) with TRANSECT_SHARDS; none is set"
        )
    }
}
