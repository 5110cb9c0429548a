/// What GDAL may read on the user's behalf: the network or not, and where on disk.
public struct DataAccess: Sendable, Equatable {
    /// Network and cloud file systems (`/vsicurl/`, `/vsis3/`, …), URLs and web-service
    /// drivers (WMS, WCS, …): only with `--allow-network`.
    public var allowNetwork: Bool
    /// `--confine DIR`, repeatable: the directories under which every file GDAL reads for a DEM
    /// (the DEM named, its VRT sources, its side files) must lie; nil without it, when a VRT's
    /// sources outside the DEM's directories are read if they are raster files
    /// (``SourceConfinement``).
    public var confinement: [String]?
    /// `--timeout S`: a network request to a server that does not answer fails within S
    /// seconds, retries included (``GDALEnvironment/httpBudget(seconds:)``); nil for the default
    /// (``defaultTimeoutSeconds``), under GDAL's options where the environment sets them.
    public var timeoutSeconds: Int?

    /// The network time-out without `--timeout`.
    public static let defaultTimeoutSeconds = 30

    public init(allowNetwork: Bool = false, confinement: [String]? = nil, timeoutSeconds: Int? = nil) {
        self.allowNetwork = allowNetwork
        self.confinement = confinement
        self.timeoutSeconds = timeoutSeconds
    }

    /// Local files only: the default.
    public static let local = DataAccess()
}
