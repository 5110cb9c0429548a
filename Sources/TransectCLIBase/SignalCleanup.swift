#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// What an interrupted run must undo: the files it is writing, the files it has already put in
/// place (restoring what they replaced), the directories it made. Every catchable signal whose
/// default is to end the process and that a user, a scheduler or a limit sends (SIGINT, SIGTERM,
/// SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ) undoes all of it and exits with 128 + the
/// signal number (130, 143, 129, 131, 138, 140, 152, 153), as a shell reports a process those
/// signals ended. SIGXFSZ a write raises in its own thread stays pending there, blocked: the
/// write fails with EFBIG instead, and the failure's own rollback removes the temporaries.
/// SIGPIPE keeps its default (a closed stdout ends `transect … | head` at once) and SIGALRM is
/// left to the libraries that may time with it.
///
/// The signals are not handled by a signal handler but by a thread that waits for them
/// (`sigwait`) with every other thread blocking them, so the cleanup is ordinary code: it takes
/// the registry's lock, and whoever changes the registry (or renames a file whose undo the
/// registry holds) does so under the same lock, so the cleanup never sees half a step.
package enum SignalCleanup {
    /// How to undo one path.
    package enum Undo: Equatable {
        /// A file this run created: remove it.
        case remove
        /// A file this run put in place over an older one, kept as a hard link at `backup`:
        /// move the backup back.
        case restore(backup: String)
        /// A directory this run made: remove it if it is empty.
        case removeDirectory
    }

    package static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ]
    private static let registry = Mutex<[String: Undo]>([:])
    private static let installed = Atomic<Bool>(false)

    /// Blocks the signals in the calling thread (and so in every thread it starts
    /// afterwards: call it first thing in `main`, before GDAL starts its threads) and starts the
    /// thread that waits for them. Once per process.
    package static func install() {
        guard !installed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        var thread = pthread_t()
        pthread_create(
            &thread, nil,
            { _ in
                var set = SignalCleanup.signalSet()
                var received: Int32 = 0
                while sigwait(&set, &received) != 0 {}
                SignalCleanup.undoEverything(exitingWith: 128 + received)
            }, nil)
        pthread_detach(thread)
    }

    /// Runs `body` with the registry locked: a step that changes files and their undo entries
    /// together (a rename and its registration) is never split by the cleanup.
    package static func locked<R>(_ body: (inout [String: Undo]) throws(CLIError) -> R) throws(CLIError) -> R {
        try registry.withLock { (entries: inout [String: Undo]) throws(CLIError) -> R in try body(&entries) }
    }

    package static func register(_ path: String, _ undo: Undo) {
        registry.withLock { $0[path] = undo }
    }

    package static func unregister(_ path: String) {
        _ = registry.withLock { $0.removeValue(forKey: path) }
    }

    /// Undoes every registered path (files first, then directories) and ends the process.
    private static func undoEverything(exitingWith code: Int32) -> Never {
        registry.withLock { entries in
            for (path, undo) in entries {
                switch undo {
                case .remove: unlink(path)
                case .restore(let backup): rename(backup, path)
                case .removeDirectory: break
                }
            }
            for (path, undo) in entries where undo == .removeDirectory { rmdir(path) }
            _exit(code)
        }
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        return set
    }
}
