#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectGDAL

/// The files a run reads and writes, checked before anything is written: no output may be an
/// input (compared by device and inode, symlinks followed), no two outputs may be the same
/// file, and an output that exists must be a regular file (a device, FIFO or directory is
/// refused). `-` is stdin or stdout and takes part in none of this.
package struct RunFiles {
    /// Inputs as (what named them, path): `("--dem", "valley.tif")`, but those ``settle()``
    /// has taken into ``settled``.
    package var inputs: [(option: String, path: String)] = []
    /// Inputs whose identity ``settle()`` found, each file once, with the first name it had.
    package private(set) var settled: [FileID: (option: String, path: String)] = [:]
    /// Outputs as (what named them, path), side files included: `("-o", "map.pgw")`.
    package var outputs: [(option: String, path: String)] = []

    package init() {}

    package mutating func input(_ option: String, _ path: String?) {
        if let path, path != "-" { inputs.append((option, path)) }
    }

    /// Finds the identity of every input given so far, once: a batch that checks many runs'
    /// files against the same inputs (100,000 scenes, each against every scene's DEM) stats each
    /// input once, not once a run. Inputs that do not exist yet stay to be looked for again.
    package mutating func settle() {
        var pending: [(option: String, path: String)] = []
        for (option, path) in inputs {
            if let id = FileID(ofInput: path) {
                if settled[id] == nil { settled[id] = (option, path) }
            } else {
                pending.append((option, path))
            }
        }
        inputs = pending
    }

    package mutating func output(_ option: String, _ path: String?) {
        if let path, path != "-" { outputs.append((option, path)) }
    }

    /// Every file the DEM reads (tiles, VRT sources at any depth, their side files), the geoid
    /// grid, and a `--crs` given as a file.
    package mutating func inputs(dem model: ElevationModel?, terrain: TerrainOptions) {
        for path in model?.inputFiles ?? [] { input("--dem", path) }
        input("--geoid", terrain.geoidPath)
        if let crs = terrain.crs, FileID(ofInput: crs) != nil { input("--crs", crs) }
    }

    /// Refuses (exit 2) an output that is an input, two outputs that are one file, and outputs
    /// that are not regular files.
    package func check(command: String) throws(CLIError) {
        var inputIDs = settled
        for (option, path) in inputs {
            if let id = FileID(ofInput: path), inputIDs[id] == nil { inputIDs[id] = (option, path) }
        }
        // Keyed by where each output lands: a map with thousands of frames checks in linear time.
        var seen: [FileKey: (option: String, path: String)] = [:]
        for (option, path) in outputs {
            // A name that leads into /dev or /proc (/dev/stderr, /proc/self/fd/3, a link to
            // either) is a descriptor or a device, not a place for a file renamed into it,
            // whatever the descriptor is open on.
            if let real = FileKey.realDirectory(of: path), ["/dev", "/proc"].contains(where: { real == $0 || real.hasPrefix($0 + "/") }) {
                throw .usage(
                    "option '\(option)': '\(path.printable)' is in \(real.hasPrefix("/dev") ? "/dev" : "/proc"); outputs must be regular files (use - for stdout)",
                    command: command)
            }
            var info = stat()
            if stat(path, &info) == 0 {
                let kind = info.st_mode & S_IFMT
                guard kind == S_IFREG else {
                    throw .usage(
                        "option '\(option)': '\(path.printable)' is \(FileID.describe(kind)); outputs must be regular files (use - for stdout)",
                        command: command)
                }
                let id = FileID(dev: UInt64(info.st_dev), ino: UInt64(info.st_ino))
                if let input = inputIDs[id] {
                    throw .usage(
                        "option '\(option)': '\(path.printable)' is the input '\(input.path.printable)' (\(input.option)); refusing to write over it",
                        command: command)
                }
            }
            let key = FileKey(path)
            if let other = seen[key] {
                throw .usage(
                    "option '\(option)': '\(path.printable)' is also the output of \(other.option) ('\(other.path.printable)'); one run cannot write one file twice",
                    command: command)
            }
            seen[key] = (option, path)
        }
    }
}

/// A file's identity: device and inode.
package struct FileID: Hashable {
    package var dev: UInt64
    package var ino: UInt64

    package init(dev: UInt64, ino: UInt64) {
        self.dev = dev
        self.ino = ino
    }

    /// The identity of an input path, following symlinks; for a GDAL path inside an archive
    /// (`/vsizip/tiles.zip/a.tif`) the archive's. Nil when there is no such local file.
    package init?(ofInput path: String) {
        var info = stat()
        guard let local = GDALPath.localFile(of: path), stat(local, &info) == 0 else { return nil }
        self.init(dev: UInt64(info.st_dev), ino: UInt64(info.st_ino))
    }

    package static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }
}

/// Where an output lands, to compare outputs that may not exist yet: the file's identity when
/// it exists, else its absolute path with the longest existing prefix resolved (symlinks and
/// `..` followed) and the rest normalised by name (`new/./a/../f.png` is `new/f.png`).
package enum FileKey: Hashable {
    case file(FileID)
    case path(String)

    package init(_ path: String) {
        var info = stat()
        if stat(path, &info) == 0 {
            self = .file(FileID(dev: UInt64(info.st_dev), ino: UInt64(info.st_ino)))
        } else {
            self = .path(Self.canonical(path))
        }
    }

    package static func canonical(_ path: String) -> String {
        var absolute = path
        if !path.hasPrefix("/"), let cwd = getcwd(nil, 0) {
            absolute = String(cString: cwd) + "/" + path
            free(cwd)
        }
        let parts = absolute.split(separator: "/")
        var resolved = "/"
        var rest = parts[...]
        for (k, part) in parts.enumerated() {
            let candidate = (resolved == "/" ? "/" : resolved + "/") + part
            guard let real = realpath(candidate, nil) else {
                rest = parts[k...]
                break
            }
            resolved = String(cString: real)
            free(real)
            rest = parts[(k + 1)...]
        }
        var components = resolved.split(separator: "/").map(String.init)
        for part in rest {
            switch part {
            case ".": continue
            case "..": if !components.isEmpty { components.removeLast() }
            default: components.append(String(part))
            }
        }
        return "/" + components.joined(separator: "/")
    }

    /// The real directory (symbolic links resolved) of `path` as written: where its temporary
    /// is made and renamed (a rename replaces a link at `path`, not what it leads to). Nil
    /// when the directory does not resolve.
    package static func realDirectory(of path: String) -> String? {
        let slash = path.lastIndex(of: "/")
        let parent = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        guard let resolved = realpath(parent, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
