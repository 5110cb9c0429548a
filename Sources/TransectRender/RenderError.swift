import TransectSupport

/// What can go wrong drawing or writing an image; each names the input and the problem.
public enum RenderError: UserFacingError, Equatable {
    /// The frame's extent does not overlap the DEM.
    case noCoverage(dem: String)
    /// A font file that FreeType cannot load.
    case font(path: String, reason: String)
    /// cairo failed (out of memory, usually).
    case drawing(String)
    /// Writing the PNG or its side files failed.
    case cannotWrite(path: String, reason: String)

    public var message: String {
        switch self {
        case .noCoverage(let dem): "the map frame does not overlap the DEM '\(dem)'"
        case .font(let path, let reason): "font '\(path)': \(reason)"
        case .drawing(let text): "drawing failed: \(text)"
        case .cannotWrite(let path, let reason): "cannot write '\(path)': \(reason)"
        }
    }

    /// Drawing and writing fail on the image or the disk, never on how Transect was called.
    public var isUsageError: Bool { false }
}
