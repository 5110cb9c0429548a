#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The files of one result (a PNG, its world file and `.aux.xml`; a CSV; a sequence of frames),
/// written all or nothing.
///
/// Each file is written to a temporary beside its final path (same directory, so the rename is
/// atomic); ``commit()`` flushes every temporary to disk (`fsync`) and only then renames them
/// into place, one after the other. Any failure, or ``rollback()``, removes every temporary and
/// every file this transaction already renamed. SIGINT, SIGTERM and SIGHUP do the same (see
/// ``SignalCleanup``) and exit 130, 143 or 129.
final class OutputTransaction {
    private struct Staged {
        var final: String
        var temporary: String
        var renamed = false
    }

    private var staged: [Staged] = []
    private var finished = false
    /// True once every file is in place.
    private(set) var isCommitted = false
    /// Numbers temporaries apart within the process (tests run commands on several threads).
    private static let counter = Atomic<Int>(0)

    init() { SignalCleanup.install() }

    deinit { rollback() }

    /// A temporary path to write `path`'s contents to; registered for removal on failure and
    /// on signals. The temporary is created empty (exclusively) so no other process holds it.
    func stage(_ path: String) throws(CLIError) -> String {
        precondition(!finished, "a finished transaction takes no more files")
        let serial = Self.counter.add(1, ordering: .relaxed).newValue
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = directory + "." + name + ".tmp-\(getpid())-\(serial)"
        SignalCleanup.register(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let reason = Self.lastError()
            SignalCleanup.unregister(temporary)
            throw .cannotWrite(path: path, reason: reason)
        }
        close(fd)
        staged.append(Staged(final: path, temporary: temporary))
        return temporary
    }

    /// Writes `text` as the whole of `path` (staged).
    func write(_ text: String, to path: String) throws(CLIError) {
        let temporary = try stage(path)
        guard let file = fopen(temporary, "w") else { throw .cannotWrite(path: path, reason: Self.lastError()) }
        let ok = fputs(text, file) >= 0
        guard fclose(file) == 0, ok else { throw .cannotWrite(path: path, reason: Self.lastError()) }
    }

    /// Flushes every temporary to disk and renames them into place; on failure undoes it all.
    func commit() throws(CLIError) {
        guard !finished else { return }
        for k in staged.indices {
            let fd = open(staged[k].temporary, O_RDONLY | O_CLOEXEC)
            guard fd >= 0, fsync(fd) == 0 else {
                let reason = Self.lastError()
                if fd >= 0 { close(fd) }
                let final = staged[k].final
                rollback()
                throw .cannotWrite(path: final, reason: reason)
            }
            close(fd)
        }
        for k in staged.indices {
            // The final path is registered before the rename: a signal between the two removes
            // whichever of them exists.
            SignalCleanup.register(staged[k].final)
            guard rename(staged[k].temporary, staged[k].final) == 0 else {
                let reason = Self.lastError()
                SignalCleanup.unregister(staged[k].final)
                let final = staged[k].final
                rollback()
                throw .cannotWrite(path: final, reason: reason)
            }
            staged[k].renamed = true
            SignalCleanup.unregister(staged[k].temporary)
        }
        // The renames themselves reach the disk with their directories.
        var directories: [String] = []
        for s in staged {
            let d = s.final.lastIndex(of: "/").map { s.final[..<$0].isEmpty ? "/" : String(s.final[..<$0]) } ?? "."
            if !directories.contains(d) { directories.append(d) }
        }
        for d in directories {
            let fd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if fd >= 0 { fsync(fd); close(fd) }
        }
        for s in staged { SignalCleanup.unregister(s.final) }
        finished = true
        isCommitted = true
    }

    /// Removes every temporary and every file already renamed into place.
    func rollback() {
        guard !finished else { return }
        finished = true
        for s in staged.reversed() {
            if s.renamed {
                unlink(s.final)
                SignalCleanup.unregister(s.final)
            } else {
                unlink(s.temporary)
                SignalCleanup.unregister(s.temporary)
            }
        }
        staged = []
    }

    static func lastError() -> String { String(cString: strerror(errno)).lowercased() }
}

/// Paths to remove if the process is interrupted: SIGINT, SIGTERM and SIGHUP unlink them and
/// exit with 128 + the signal number (130, 143, 129), as a shell reports a process those signals
/// ended.
///
/// The handler may run between any two instructions, so the registry is plain C memory changed
/// only with those signals blocked, and the handler calls only async-signal-safe functions
/// (`unlink`, `_exit`).
enum SignalCleanup {
    nonisolated(unsafe) private static var paths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
    nonisolated(unsafe) private static var count = 0
    nonisolated(unsafe) private static var capacity = 0
    nonisolated(unsafe) private static var installed = false
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    /// Serialises changes between threads (signals are blocked as well, for the handler).
    private static let lock = Mutex(())

    /// Installs the handlers (once).
    static func install() {
        let first = lock.withLock { _ -> Bool in
            defer { installed = true }
            return !installed
        }
        guard first else { return }
        for s in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                if let paths = SignalCleanup.paths {
                    for k in 0..<SignalCleanup.count { if let p = paths[k] { unlink(p) } }
                }
                _exit(128 + signal)
            }
            sigemptyset(&action.sa_mask)
            for other in signals { sigaddset(&action.sa_mask, other) }
            action.sa_flags = 0
            sigaction(s, &action, nil)
        }
        // A process may start with these signals blocked (inherited from a parent thread that
        // blocked them): they must reach the handler, not wait forever.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for s in signals { sigaddset(&unblock, s) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    static func register(_ path: String) {
        withSignalsBlocked {
            if count == capacity {
                let grown = max(16, capacity * 2)
                let bigger = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: grown)
                bigger.initialize(repeating: nil, count: grown)
                if let paths {
                    bigger.update(from: paths, count: count)
                    paths.deallocate()
                }
                paths = bigger
                capacity = grown
            }
            paths![count] = strdup(path)
            count += 1
        }
    }

    static func unregister(_ path: String) {
        withSignalsBlocked {
            guard let paths else { return }
            for k in stride(from: count - 1, through: 0, by: -1) {
                if let p = paths[k], String(cString: p) == path {
                    free(p)
                    paths[k] = paths[count - 1]
                    paths[count - 1] = nil
                    count -= 1
                    return
                }
            }
        }
    }

    private static func withSignalsBlocked(_ body: () -> Void) {
        var block = sigset_t(), old = sigset_t()
        sigemptyset(&block)
        for s in signals { sigaddset(&block, s) }
        pthread_sigmask(SIG_BLOCK, &block, &old)
        lock.withLock { _ in body() }
        pthread_sigmask(SIG_SETMASK, &old, nil)
    }
}
