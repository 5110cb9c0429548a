/// What GDAL may read on the user's behalf beyond local files.
public struct DataAccess: Sendable, Equatable {
    /// Network and cloud file systems (`/vsicurl/`, `/vsis3/`, …), URLs and web-service
    /// drivers (WMS, WCS, …): only with `--allow-network`.
    public var allowNetwork: Bool

    public init(allowNetwork: Bool = false) { self.allowNetwork = allowNetwork }

    /// Local files only: the default.
    public static let local = DataAccess()
}
