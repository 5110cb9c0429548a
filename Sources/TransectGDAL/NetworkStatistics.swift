import CGDAL

/// GDAL's count of what its network file systems (`/vsicurl/`, `/vsis3/`, …) asked servers
/// for, enabled by `CPL_VSIL_NETWORK_STATS_ENABLED=YES` (``GDALEnvironment/networkConfiguration``).
/// Process-wide: the counts include every thread's requests.
public enum NetworkStatistics {
    /// Starts counting from zero. The corresponding GDAL function is `VSINetworkStatsReset`.
    public static func reset() {
        GDALEnvironment.ensure()
        VSINetworkStatsReset()
    }

    /// The counts since the last ``reset()``, as GDAL serialises them: a JSON object with
    /// `methods` (`GET`, `HEAD`, … each with `count` and `downloaded_bytes`) and `handlers`
    /// (the same per file system and file). Empty when GDAL gives nothing. The corresponding
    /// GDAL function is `VSINetworkStatsGetAsSerializedJSON`.
    public static func serializedJSON() -> String {
        GDALEnvironment.ensure()
        guard let text = VSINetworkStatsGetAsSerializedJSON(nil) else { return "" }
        defer { VSIFree(text) }
        return String(cString: text)
    }
}
