import TransectSupport

/// The options of `transect merge`, each declared once.
enum MergeOptions {
    static let out = CommonOptions.out.help("Write the merged output to FILE (atomically) instead of stdout.")

    static let all: [OptionSpec] = [out.spec, CommonOptions.help.spec]
}
