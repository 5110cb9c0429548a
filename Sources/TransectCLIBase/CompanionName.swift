#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The name of a file an ``OutputTransaction`` keeps beside an output while it writes it:
/// `.NAME.tmp-HOST-PID-N` for the temporary the output is written to, `.NAME.old-HOST-PID-N`
/// for the hard link to the file a commit replaces, where NAME is the output's file name, HOST
/// this machine's name (``host``), PID the writing process's and N a serial number within it.
///
/// The name says who made the file, so a later run can tell debris from work in progress: a
/// process ended by SIGKILL (a batch scheduler's time limit, the OOM killer) leaves its
/// temporaries behind, and on a shared file system several machines write into one folder,
/// where a PID alone names no process. ``StaleCompanions`` removes those whose process is
/// gone.
///
/// Example: `out.csv`'s first temporary in process 4242 on `node-07` is
/// `.out.csv.tmp-node-07-4242-1`.
package struct CompanionName: Equatable, Sendable {
    /// What the companion holds.
    package enum Kind: String, Sendable, CaseIterable {
        /// The output being written.
        case temporary = "tmp"
        /// The file the output replaces, while a commit is under way.
        case backup = "old"
    }

    /// The output's file name (no directory).
    package var name: String
    package var kind: Kind
    /// The writing machine's ``host`` token.
    package var host: String
    /// The writing process, at least 1.
    package var pid: Int32
    /// The companion's number within its process, at least 1.
    package var serial: Int

    /// `path` as its directory (with its final `/`; empty for a bare name, the working
    /// directory) and the name in it, where companions of it live and what they are named after.
    package static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[...slash]), String(path[path.index(after: slash)...]))
    }

    package init(name: String, kind: Kind, host: String, pid: Int32, serial: Int) {
        self.name = name
        self.kind = kind
        self.host = host
        self.pid = pid
        self.serial = serial
    }

    /// `.NAME.KIND-HOST-PID-N`.
    package var fileName: String { "." + name + "." + kind.rawValue + "-" + host + "-\(pid)-\(serial)" }

    /// Reads `fileName` as a companion of the output named `name`, or nil unless it is exactly
    /// one, byte for byte: `.`, `name`, `.`, a kind, `-`, a host token (``isHostToken(_:)``),
    /// `-`, a PID, `-` and a serial, both numbers decimal without sign or leading zero, the PID
    /// within `pid_t`. Hosts may hold `-`: the two numbers are read from the end.
    package init?(parsing fileName: String, of name: String) {
        guard !name.isEmpty, !name.utf8.contains(UInt8(ascii: "/")) else { return nil }
        let prefix = Array(("." + name + ".").utf8)
        var rest = ArraySlice(fileName.utf8)
        guard rest.starts(with: prefix) else { return nil }
        rest = rest.dropFirst(prefix.count)
        guard let kind = Kind.allCases.first(where: { rest.starts(with: ($0.rawValue + "-").utf8) }) else { return nil }
        rest = rest.dropFirst(kind.rawValue.utf8.count + 1)
        guard let serial = Self.lastNumber(&rest, digits: 18), let pid = Self.lastNumber(&rest, digits: 10),
            let pid32 = Int32(exactly: pid), Self.isHostToken(rest)
        else { return nil }
        self.init(name: name, kind: kind, host: String(decoding: rest, as: UTF8.self), pid: pid32, serial: serial)
    }

    /// Takes `-DIGITS` off the end of `bytes` and returns the number, or nil (leaving `bytes`
    /// as it may be) unless the digits are 1 to `digits` long, start with 1–9 and follow a `-`.
    private static func lastNumber(_ bytes: inout ArraySlice<UInt8>, digits: Int) -> Int? {
        guard let dash = bytes.lastIndex(of: UInt8(ascii: "-")) else { return nil }
        let number = bytes[(dash + 1)...]
        guard (1...digits).contains(number.count), let first = number.first, first != UInt8(ascii: "0"),
            number.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        bytes = bytes[..<dash]
        return number.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// The longest host token: a longer host name is shortened to its first
    /// ``hostPrefixLength`` characters, `_` and eight hex digits of a hash of the whole name.
    package static let hostTokenLength = 24
    private static let hostPrefixLength = hostTokenLength - 9

    /// True for what ``hostToken(_:)`` can give: 1 to ``hostTokenLength`` characters of
    /// `A`–`Z`, `a`–`z`, `0`–`9`, `.`, `-` and `_`.
    package static func isHostToken(_ bytes: some Collection<UInt8>) -> Bool {
        (1...hostTokenLength).contains(bytes.count) && bytes.allSatisfy(isSafe)
    }

    private static func isSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// A host name as it goes into a file name: each byte outside `A-Za-z0-9.-_` becomes `_`
    /// (names that follow RFC 1123 keep every character), and a name longer than
    /// ``hostTokenLength`` keeps its first 15 characters, then `_` and the 32-bit FNV-1a hash
    /// of the whole name in hex, so that long names sharing a start (Kubernetes pods of one
    /// job, `transect-shard-7-x2k9q`) stay apart. Nil for an empty name.
    package static func hostToken(_ hostName: String) -> String? {
        guard !hostName.isEmpty else { return nil }
        let safe = hostName.utf8.map { isSafe($0) ? $0 : UInt8(ascii: "_") }
        guard safe.count > hostTokenLength else { return String(decoding: safe, as: UTF8.self) }
        var hash: UInt32 = 0x811c_9dc5
        for byte in hostName.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        let hex = String(hash, radix: 16)
        return String(decoding: safe.prefix(hostPrefixLength), as: UTF8.self) + "_"
            + String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// This machine's token (`gethostname`, through ``hostToken(_:)``), read once; empty when
    /// the name cannot be had: such a process's companions never parse (a host token has at
    /// least one character), so no sweep removes them, and it sweeps nothing itself.
    package static let host: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return hostToken(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) ?? ""
    }()
}
