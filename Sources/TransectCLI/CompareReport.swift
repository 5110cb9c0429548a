import Foundation
import TransectCLICompare
import TransectImageCompare
import TransectSupport

/// `compare --report FILE.html`: one page that needs nothing else (no network, no files beside
/// it: every image is a `data:` URI), a section per pair that is not identical, worst first,
/// with its baseline, candidate and diff side by side and its figures.
enum CompareReport {
    /// One pair's section.
    static func section(_ result: CompareResult, images: ComparedImages, tolerance: ComparisonTolerance) throws(CLIError) -> String {
        let output = CompareOutput(baseline: "", candidate: "", tolerance: tolerance, threshold: 0, results: [], updated: [])
        var figures: [(String, String)] = []
        if let b = images.baseline { figures.append(("baseline", try uri(b, file: result.pair.baseline))) }
        if let c = images.candidate { figures.append(("candidate", try uri(c, file: result.pair.candidate))) }
        if let diff = images.diff, let d = result.difference {
            figures.append(("diff", try dataURI(CompareInput.pngBytes(rgba: diff, width: d.width, height: d.height))))
        }
        let status = CompareOutput.status(result)
        var html = "<section class=\"pair \(status)\">\n<h2>\(XMLText.escaped(result.pair.name, apostrophes: true))</h2>\n"
        html += "<p class=\"figures\"><b>\(status)</b>: \(XMLText.escaped(output.figures(result), apostrophes: true))</p>\n<div class=\"images\">\n"
        for (caption, source) in figures {
            html += "<figure><img alt=\"\(caption)\" src=\"\(source)\"><figcaption>\(caption)</figcaption></figure>\n"
        }
        return html + "</div>\n</section>\n"
    }

    /// An input image as a `data:` URI: a PNG's own bytes, anything else encoded as a PNG.
    static func uri(_ image: RGBAImage, file: String?) throws(CLIError) -> String {
        if let file, try PNGInput.isPNG(file) { return dataURI(try CompareInput.bytes(of: file)) }
        return dataURI(try CompareInput.pngBytes(rgba: image.pixels, width: image.width, height: image.height))
    }

    static func dataURI(_ png: [UInt8]) -> String { "data:image/png;base64," + Data(png).base64EncodedString() }

    /// The whole page.
    static func page(_ summary: CompareOutput, sections: [String]) -> String {
        let title = "transect compare: \(XMLText.escaped(summary.baseline, apostrophes: true)) against \(XMLText.escaped(summary.candidate, apostrophes: true))"
        let summaryLine = summary.text.split(separator: "\n").last.map(String.init) ?? ""
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
            <title>\(title)</title>
            <style>
            body { font: 14px/1.4 sans-serif; margin: 16px; background: #fff; color: #222; }
            h1 { font-size: 18px; } h2 { font-size: 15px; margin: 0 0 4px; }
            section { margin: 0 0 24px; }
            section.beyond h2 { color: #b00; }
            .images { display: flex; gap: 12px; align-items: flex-start; }
            figure { margin: 0; flex: 1 1 0; min-width: 0; }
            img { display: block; width: 100%; height: auto; image-rendering: pixelated; }
            figcaption { font-size: 12px; color: #555; }
            </style>
            </head>
            <body>
            <h1>\(title)</h1>
            <p>\(XMLText.escaped(summaryLine, apostrophes: true))</p>
            \(sections.joined())</body>
            </html>

            """
    }
}
