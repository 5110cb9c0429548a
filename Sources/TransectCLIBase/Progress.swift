#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A progress line on stderr for long work, drawn only when stderr is a terminal and the
/// console is the process's own (never in pipes, files, CI logs or tests).
package final class Progress {
    private let console: Console
    private let label: String
    private let total: Int?
    private let enabled: Bool
    private var lastDrawn = -1.0
    private var drawnAnything = false

    package init(_ label: String, total: Int?, console: Console) {
        self.console = console
        self.label = label
        self.total = total
        enabled = console.isStandard && isatty(2) == 1
    }

    /// Reports `done` units of work; redraws at most every 1 % (or 1,000 units without a total).
    package func update(_ done: Int) {
        guard enabled else { return }
        let line: String
        if let total, total > 0 {
            let fraction = min(1, Double(done) / Double(total))
            guard fraction - lastDrawn >= 0.01 || done == total else { return }
            lastDrawn = fraction
            let width = 30
            let filled = Int((fraction * Double(width)).rounded(.down))
            line =
                "\(label) [" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
                + "] \(Int((fraction * 100).rounded(.down)))% (\(done)/\(total))"
        } else {
            guard Double(done) - lastDrawn >= 1000 else { return }
            lastDrawn = Double(done)
            line = "\(label): \(done)"
        }
        console.err("\r\u{1B}[K" + line)
        drawnAnything = true
    }

    /// Clears the line.
    package func finish() {
        guard enabled, drawnAnything else { return }
        console.err("\r\u{1B}[K")
    }
}
