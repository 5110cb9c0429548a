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
        func integer(_ name: String) throws(CLIError) -> Int? {
            guard let value = environment[name] else { return nil }
            guard let n = Int(value.trimmingAsciiSpaces) else { throw usage("\(name)='\(value.printable)' is not a whole number") }
            return n
        }
        func make(_ k: Int, _ n: Int, _ from: String) throws(CLIError) -> Shard {
            guard n >= 1, (1...n).contains(k) else { throw usage("\(from) gives shard \(k)/\(n), not K/N with 1 ≤ K ≤ N") }
            return Shard(index: k, count: n)
        }
        guard text == "auto" else {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
                throw usage("'\(text.printable)' is not K/N (like 2/4) or auto")
            }
            return try make(k, n, "'\(text)'")
        }
        if let id = try integer("SLURM_ARRAY_TASK_ID") {
            guard let count = try integer("SLURM_ARRAY_TASK_COUNT") else {
                throw usage("auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not")
            }
            let minimum = try integer("SLURM_ARRAY_TASK_MIN") ?? 1
            return try make(id - minimum + 1, count, "Slurm's SLURM_ARRAY_TASK_ID=\(id) (from \(minimum), of \(count))")
        }
        for name in ["JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"] {
            guard let index = try integer(name) else { continue }
            guard let count = try integer("TRANSECT_SHARDS") else { throw usage("auto: \(name) is set; give the number of shards in TRANSECT_SHARDS") }
            return try make(index + 1, count, "\(name)=\(index) (from 0, of TRANSECT_SHARDS=\(count))")
        }
        throw usage(
            "auto needs a job array: SLURM_ARRAY_TASK_ID (Slurm), JOB_COMPLETION_INDEX (Kubernetes) or AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch) with TRANSECT_SHARDS; none is set"
        )
    }
}
