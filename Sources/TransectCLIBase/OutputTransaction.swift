#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import TransectSupport

/// The files of one result (a PNG, its world file and `.aux.xml`; a CSV; a sequence of frames),
/// written all or nothing.
///
/// Each file is written to a temporary beside its final path (same directory, so the rename is
/// atomic); ``commit()`` flushes every temporary to disk (`fsync`) and only then renames them
/// into place, one after the other, keeping each file it replaces as a hard link until the
/// last rename has succeeded. Any failure, or ``rollback()``, removes every temporary and puts
/// back what was there before (the replaced file, or nothing), and removes the directories it
/// made. SIGINT, SIGTERM and SIGHUP do the same (see ``SignalCleanup``). SIGKILL cannot be
/// caught: what it leaves, the next transaction that stages the same output on this host
/// removes (see ``StaleCompanions``).
package final class OutputTransaction {
    private struct Staged {
        var final: String
        var temporary: String
        /// The replaced file's hard link while the transaction is open.
        var backup: String?
        var renamed = false
    }

    private var staged: [Staged] = []
    /// Directories ``makeDirectory(_:)`` made for this result, in the order made.
    private var madeDirectories: [String] = []
    private var finished = false
    /// True once every file is in place.
    package private(set) var isCommitted = false
    /// Numbers temporaries apart within the process (tests run commands on several threads).
    private static let counter = Atomic<Int>(0)

    package init() {}

    deinit { rollback() }

    /// A name beside `path` for this process's `kind` of companion file (``CompanionName``).
    private static func companion(of path: String, _ kind: CompanionName.Kind) -> String {
        let serial = counter.add(1, ordering: .relaxed).newValue
        let (directory, name) = CompanionName.split(path)
        return directory + CompanionName(name: name, kind: kind, host: CompanionName.host, pid: getpid(), serial: serial).fileName
    }

    /// A temporary path to write `path`'s contents to; registered for removal on failure and
    /// on signals. The temporary is created empty (exclusively), with the mode of the file it
    /// will replace, if any. Stale temporaries of `path` that killed runs left are removed
    /// first (``StaleCompanions``); a name still taken (debris that could not be removed) is
    /// passed over for the next serial number.
    ///
    /// `-` is standard output: its bytes are staged in a temporary file in the temporary
    /// directory (`TMPDIR`, else `/tmp`) and written to stdout whole once every file of the
    /// result is in place (``commit()``), so a result that fails prints nothing.
    package func stage(_ path: String) throws(CLIError) -> String {
        precondition(!finished, "a finished transaction takes no more files")
        if path == "-" { return try stageStandardOutput() }
        // Where a temporary could be made but never renamed or removed (an append-only
        // directory), nothing is made: a failure would leave it behind.
        let (directory, _) = CompanionName.split(path)
        if let why = DirectoryFlags.refusal(directory.isEmpty ? "." : directory) {
            throw .cannotWrite(path: path, reason: "its directory \(why)")
        }
        StaleCompanions.sweep(beside: path)
        var attempts = 0
        while true {
            let temporary = Self.companion(of: path, .temporary)
            SignalCleanup.register(temporary, .remove)
            let fd: Int32
            do throws(SystemError) {
                fd = try SystemError.call { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
            } catch {
                SignalCleanup.unregister(temporary)
                attempts += 1
                if error.code == EEXIST && attempts < 8 { continue }
                throw .cannotWrite(path: path, reason: error.text)
            }
            var existing = stat()
            if stat(path, &existing) == 0 { fchmod(fd, existing.st_mode & 0o7777) }
            close(fd)
            staged.append(Staged(final: path, temporary: temporary))
            return temporary
        }
    }

    /// The temporary of standard output's bytes (``stage(_:)`` for `-`).
    private func stageStandardOutput() throws(CLIError) -> String {
        let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var attempts = 0
        while true {
            let temporary = Self.companion(of: directory + "/transect-stdout", .temporary)
            SignalCleanup.register(temporary, .remove)
            do throws(SystemError) {
                close(try SystemError.call { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) })
            } catch {
                SignalCleanup.unregister(temporary)
                attempts += 1
                if error.code == EEXIST && attempts < 8 { continue }
                throw .cannotWrite(path: "-", reason: "cannot stage standard output's bytes in '\(directory)': \(error.text)")
            }
            staged.append(Staged(final: "-", temporary: temporary))
            return temporary
        }
    }

    /// Copies the staged bytes of standard output to descriptor 1 and removes their temporary.
    private func writeStandardOutput(_ temporary: String) throws(CLIError) {
        let opened = open(temporary, O_RDONLY | O_CLOEXEC)
        let openError = errno
        // Gone from the directory before a byte is written: a reader that stops early (SIGPIPE)
        // leaves nothing behind; the open descriptor still reads the bytes.
        unlink(temporary)
        SignalCleanup.unregister(temporary)
        // What the console has buffered for stdout goes first.
        fflush(stdout)
        do throws(SystemError) {
            guard opened >= 0 else { throw SystemError(code: openError) }
            let fd = opened
            defer { close(fd) }
            let size = 1 << 16
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
            defer { buffer.deallocate() }
            while true {
                let n = try SystemError.call(retryingInterrupts: true) { Glibc.read(fd, buffer, size) }
                if n == 0 { break }
                var done = 0
                while done < n {
                    done += try SystemError.call(retryingInterrupts: true) { Glibc.write(1, buffer + done, n - done) }
                }
            }
        } catch {
            throw .cannotWrite(path: "-", reason: error.text)
        }
    }

    /// Makes the directory `path` to hold files of this result, unless it exists. A rollback,
    /// or a signal, removes it again (once the files staged in it are gone, if it is empty).
    package func makeDirectory(_ path: String) throws(CLIError) {
        precondition(!finished, "a finished transaction takes no more directories")
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else { throw .cannotWrite(path: path, reason: "exists and is not a directory") }
            return
        }
        do throws(SystemError) {
            try SystemError.call { mkdir(path, 0o755) }
        } catch {
            throw .cannotWrite(path: path, reason: error.text)
        }
        SignalCleanup.register(path, .removeDirectory)
        madeDirectories.append(path)
    }

    /// True when something other than a directory is at `path` (a file where a directory of
    /// outputs should go).
    package static func existsAndIsNotDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFDIR
    }

    /// Writes `text` as the whole of `path` (staged).
    package func write(_ text: String, to path: String) throws(CLIError) {
        let temporary = try stage(path)
        do throws(SystemError) {
            let file = try SystemError.call { fopen(temporary, "w") }
            // The first failure is the reason: the write's, else the close's.
            let written = Result { () throws(SystemError) in try SystemError.call { fputs(text, file) } }
            let closed = Result { () throws(SystemError) in try SystemError.call { fclose(file) } }
            _ = try written.get()
            _ = try closed.get()
        } catch {
            throw .cannotWrite(path: path, reason: error.text)
        }
    }

    /// Writes `bytes` as the whole of `path` (staged).
    package func write(bytes: [UInt8], to path: String) throws(CLIError) {
        let temporary = try stage(path)
        do throws(SystemError) {
            let file = try SystemError.call { fopen(temporary, "w") }
            // The first failure is the reason: the write's, else the close's.
            let written = Result { () throws(SystemError) in
                try SystemError.check { bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) == $0.count } }
            }
            let closed = Result { () throws(SystemError) in try SystemError.call { fclose(file) } }
            _ = try written.get()
            _ = try closed.get()
        } catch {
            throw .cannotWrite(path: path, reason: error.text)
        }
    }

    /// Flushes every temporary to disk and renames them into place; on failure undoes it all.
    package func commit() throws(CLIError) {
        guard !finished else { return }
        for k in staged.indices {
            do throws(SystemError) {
                let fd = try SystemError.call { open(staged[k].temporary, O_RDONLY | O_CLOEXEC) }
                defer { close(fd) }
                try SystemError.call { fsync(fd) }
            } catch {
                let final = staged[k].final
                rollback()
                throw .cannotWrite(path: final, reason: error.text)
            }
        }
        for k in staged.indices where staged[k].final != "-" {
            do {
                try SignalCleanup.locked { (undo: inout [String: SignalCleanup.Undo]) throws(CLIError) in
                    // Keep what the rename replaces, to put it back if a later step fails.
                    var info = stat()
                    if lstat(staged[k].final, &info) == 0 {
                        let backup = Self.companion(of: staged[k].final, .backup)
                        if link(staged[k].final, backup) == 0 {
                            staged[k].backup = backup
                            undo[backup] = .remove
                        }
                    }
                    undo[staged[k].final] = staged[k].backup.map { .restore(backup: $0) } ?? .remove
                    do throws(SystemError) {
                        try SystemError.call { rename(staged[k].temporary, staged[k].final) }
                    } catch {
                        undo[staged[k].final] = nil
                        if let backup = staged[k].backup {
                            unlink(backup)
                            undo[backup] = nil
                            staged[k].backup = nil
                        }
                        throw .cannotWrite(path: staged[k].final, reason: error.text)
                    }
                    staged[k].renamed = true
                    undo[staged[k].temporary] = nil
                }
            } catch {
                rollback()
                throw error
            }
        }
        // The renames themselves reach the disk with their directories.
        var directories: [String] = []
        for s in staged where s.final != "-" {
            let d = s.final.lastIndex(of: "/").map { s.final[..<$0].isEmpty ? "/" : String(s.final[..<$0]) } ?? "."
            if !directories.contains(d) { directories.append(d) }
        }
        for d in directories {
            let fd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if fd >= 0 {
                fsync(fd)
                close(fd)
            }
        }
        try? SignalCleanup.locked { (undo: inout [String: SignalCleanup.Undo]) throws(CLIError) in
            for s in staged {
                if let backup = s.backup {
                    unlink(backup)
                    undo[backup] = nil
                }
                undo[s.final] = nil
            }
            for d in madeDirectories { undo[d] = nil }
        }
        finished = true
        isCommitted = true
        // Standard output last, once the files are in place.
        for s in staged where s.final == "-" { try writeStandardOutput(s.temporary) }
    }

    /// Removes every temporary, and puts back what each file already renamed replaced.
    package func rollback() {
        guard !finished else { return }
        finished = true
        try? SignalCleanup.locked { (undo: inout [String: SignalCleanup.Undo]) throws(CLIError) in
            for s in staged.reversed() {
                if s.renamed {
                    if let backup = s.backup {
                        rename(backup, s.final)
                        undo[backup] = nil
                    } else {
                        unlink(s.final)
                    }
                    undo[s.final] = nil
                } else {
                    unlink(s.temporary)
                    undo[s.temporary] = nil
                }
            }
            for d in madeDirectories.reversed() {
                rmdir(d)
                undo[d] = nil
            }
        }
        staged = []
        madeDirectories = []
    }
}
