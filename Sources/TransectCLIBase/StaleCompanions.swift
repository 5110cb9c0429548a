#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import TransectSupport

/// Debris of runs that were killed: the temporaries (and commit backups) a process ended by
/// SIGKILL left beside an output, which no signal handler could remove.
///
/// Before an ``OutputTransaction`` stages `DIR/NAME`, it removes the companions of `NAME` in
/// `DIR` (``CompanionName``) that are stale: made on this host (the host token in the name is
/// this machine's) by a process that no longer exists (`kill(pid, 0)` fails with `ESRCH`), or
/// carrying this process's own PID without this process holding them (an earlier process had
/// the PID: a container restarted in its pod numbers its processes as before). Nothing else is
/// touched: not another host's companions (its processes cannot be asked), not a live
/// process's (`kill` succeeds, or fails with `EPERM`: another user's), not another output's,
/// not a name that does not parse exactly. A removal that fails is ignored, and nothing is
/// printed: someone else's debris never fails a run.
///
/// A PID the system has since given to an unrelated live process keeps its debris (the safe
/// side) until that process ends. Processes that share a host name but not a PID namespace
/// (containers on the host's network) must not write the same output at the same time: one
/// could take the other's live temporary for debris, and the other's commit would then fail.
///
/// Each directory is read once per process (``candidates(in:)``), when the first output is
/// staged in it: a `render --scenes` shard stages thousands of outputs in one folder, which on
/// a shared file system costs a round trip per block of entries. Debris that appears later is
/// left for the next run.
package enum StaleCompanions {
    /// Per directory, the names in it that end like this host's companions, as first read.
    private static let scanned = Mutex<[String: [String]]>([:])

    /// Removes the stale companions of the output `path` (see the type's description).
    package static func sweep(beside path: String) {
        let host = CompanionName.host
        guard !host.isEmpty else { return }
        let (directory, name) = CompanionName.split(path)
        let files = candidates(in: directory).compactMap { file in
            CompanionName(parsing: file, of: name).flatMap { $0.host == host ? (file, $0) : nil }
        }
        guard !files.isEmpty else { return }
        var removed: [String] = []
        // Under the registry's lock, so a companion this process is making or renaming is
        // either registered or gone.
        try? SignalCleanup.locked { (undo: inout [String: SignalCleanup.Undo]) throws(CLIError) in
            let own = Set(undo.keys.map { CompanionName.split($0).name })
            for (file, companion) in files where isStale(companion, holding: own.contains(file)) {
                if unlink(directory + file) == 0 { removed.append(file) }
            }
        }
        if !removed.isEmpty {
            scanned.withLock { $0[directory]?.removeAll { removed.contains($0) } }
        }
    }

    /// Removes the companions of each output in `paths` (temporaries and commit backups, of the
    /// output and of its manifest) that no live process of this host holds: this host's stale
    /// ones, as ``sweep(beside:)`` would, and every other host's, whose processes cannot be
    /// asked. Only for outputs whose work is over: `merge` calls it once every shard of a batch
    /// is there and checked, when a temporary beside a part can only be left by a shard that was
    /// killed (on a node since gone: a Slurm requeue, a replaced pod) or by a duplicate of a
    /// finished one. Returns what it removed, in the order found; nothing when this host has no
    /// name, as its own companions could not then be told apart.
    package static func sweepFinished(_ paths: [String], keeping kept: [String] = []) -> [(path: String, companion: CompanionName)] {
        guard !CompanionName.host.isEmpty else { return [] }
        // Files that are the run's own results, whatever their names look like (a merge's -o
        // named as a part's temporary would be): by device and inode, through links.
        var keptFiles: Set<[UInt64]> = []
        for path in kept {
            var info = stat()
            if stat(path, &info) == 0 { keptFiles.insert([UInt64(info.st_dev), UInt64(info.st_ino)]) }
        }
        // Each directory is listed once, however many of the outputs it holds: a batch of a
        // thousand shards keeps its parts in one folder, on a shared file system.
        var outputs: [String: Set<String>] = [:]
        for path in paths {
            let (directory, name) = CompanionName.split(path)
            outputs[directory, default: []].insert(name)
        }
        var removed: [(path: String, companion: CompanionName)] = []
        for (directory, names) in outputs.sorted(by: { $0.key < $1.key }) {
            for file in DirectoryEntries.names(in: directory) {
                guard let companion = companion(file, ofOneOf: names) else { continue }
                if companion.host == CompanionName.host && !isStale(companion, holding: false) { continue }
                var info = stat()
                if lstat(directory + file, &info) == 0 && keptFiles.contains([UInt64(info.st_dev), UInt64(info.st_ino)]) { continue }
                if unlink(directory + file) == 0 { removed.append((directory + file, companion)) }
            }
        }
        return removed
    }

    /// `file` read as a companion (``CompanionName``) of one of the outputs named `names`, or
    /// nil: the name is what lies between the leading `.` and a `.KIND-` marker.
    static func companion(_ file: String, ofOneOf names: Set<String>) -> CompanionName? {
        let bytes = Array(file.utf8)
        guard bytes.first == UInt8(ascii: ".") else { return nil }
        for kind in CompanionName.Kind.allCases {
            let marker = Array(("." + kind.rawValue + "-").utf8)
            for start in stride(from: 2, through: bytes.count - marker.count, by: 1)
            where bytes[start..<(start + marker.count)].elementsEqual(marker) {
                let name = String(decoding: bytes[1..<start], as: UTF8.self)
                if names.contains(name), let companion = CompanionName(parsing: file, of: name) { return companion }
            }
        }
        return nil
    }

    /// True when `companion`, made on this host, is debris: its process is gone, or it carries
    /// this process's PID and this process does not hold it (`held`: it is among the paths
    /// ``SignalCleanup`` would undo). Serial numbers never repeat within a process, so a file
    /// name alone says whether this process holds it.
    package static func isStale(_ companion: CompanionName, holding held: Bool) -> Bool {
        guard companion.pid > 0 else { return false }
        if companion.pid == getpid() { return !held }
        do throws(SystemError) {
            try SystemError.call { kill(companion.pid, 0) }
            return false
        } catch {
            return error.code == ESRCH
        }
    }

    /// The names in `directory` (`""`: the working directory) that hold this host's marker
    /// (`.tmp-HOST-` or `.old-HOST-`), read the first time it is asked for and kept for the
    /// rest of the process. A directory that cannot be read has none.
    package static func candidates(in directory: String) -> [String] {
        if let known = scanned.withLock({ $0[directory] }) { return known }
        let markers = CompanionName.Kind.allCases.map { Array(("." + $0.rawValue + "-" + CompanionName.host + "-").utf8) }
        var found: [String] = []
        for file in DirectoryEntries.names(in: directory) {
            let bytes = Array(file.utf8)
            if bytes.first == UInt8(ascii: "."), markers.contains(where: { contains(bytes, $0) }) { found.append(file) }
        }
        return scanned.withLock { entries in
            if let known = entries[directory] { return known }
            entries[directory] = found
            return found
        }
    }

    private static func contains(_ bytes: [UInt8], _ marker: [UInt8]) -> Bool {
        guard bytes.count >= marker.count else { return false }
        for start in 0...(bytes.count - marker.count) where bytes[start] == marker[0] {
            if bytes[start..<(start + marker.count)].elementsEqual(marker) { return true }
        }
        return false
    }
}
