#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectCLICompare
import TransectSupport

/// `compare --update`: each candidate that fails is copied over its baseline (a candidate only
/// in CANDIDATE lands at its path under BASELINE), staged in the run's transaction, so every
/// baseline is replaced at once or none is. A baseline only in BASELINE is left as it is (it
/// still fails): removing a file is not an update.
enum CompareUpdate {
    /// Stages the copies; returns the results whose baselines it replaces, in the run's order.
    static func stage(_ results: [CompareResult], baselineRoot: String, in transaction: OutputTransaction) throws(CLIError) -> [CompareResult] {
        var updated: [CompareResult] = []
        for result in results where !result.passes {
            guard let candidate = result.pair.candidate else { continue }
            let target: String
            if let baseline = result.pair.baseline {
                target = baseline
            } else {
                target = ComparePairs.join(baselineRoot, result.pair.name)
                try CompareCommand.makeDirectories(for: target, below: baselineRoot, in: transaction)
            }
            let bytes = try CompareInput.bytes(of: candidate)
            let temporary = try transaction.stage(target)
            do throws(SystemError) {
                let fd = try SystemError.call { open(temporary, O_WRONLY | O_TRUNC | O_CLOEXEC) }
                defer { close(fd) }
                var offset = 0
                while offset < bytes.count {
                    let n = try SystemError.call(retryingInterrupts: true) {
                        bytes.withUnsafeBytes { p in write(fd, p.baseAddress! + offset, p.count - offset) }
                    }
                    offset += n
                }
            } catch {
                throw CLIError.ioFailure(path: target, reading: false, error)
            }
            updated.append(result)
        }
        return updated
    }
}
