import CCairo

extension Canvas {
    /// DejaVu Sans, loaded by file path through FreeType, so every machine draws the same glyphs
    /// (fontconfig would pick whatever font the machine prefers).
    ///
    /// `@unchecked Sendable` is safe because nothing about it changes after `init`: its stored
    /// properties are `let`s or `private` and written only there, and the one instance lives in a
    /// `static let` (initialised once, thread-safely) until the process ends. cairo font faces are
    /// reference-counted with atomics and may be used from several threads; the FreeType faces are
    /// touched only by cairo, which locks each one while it uses it.
    final class Fonts: @unchecked Sendable {
        /// Loaded once per process and never released: cairo caches font faces and may keep using
        /// the FreeType faces behind them for as long as the process runs.
        private static let loaded: Result<Fonts, RenderError> = Result { () throws(RenderError) -> Fonts in try Fonts() }

        /// The process's fonts, or the error that loading them gave.
        static func shared() throws(RenderError) -> Fonts { try loaded.get() }

        static let regularPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        static let boldPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

        private var library: FT_Library?
        private var faces: [FT_Face?] = []
        /// cairo font faces for regular and bold; they keep pointers into the FreeType faces, which
        /// live as long as this object.
        let regular: OpaquePointer
        let bold: OpaquePointer

        private init() throws(RenderError) {
            var lib: FT_Library?
            guard FT_Init_FreeType(&lib) == 0, let lib else { throw .font(path: Self.regularPath, reason: "FreeType did not start") }
            library = lib
            var made: [OpaquePointer] = []
            for path in [Self.regularPath, Self.boldPath] {
                var face: FT_Face?
                let err = FT_New_Face(lib, path, 0, &face)
                guard err == 0, let face else {
                    for f in faces { FT_Done_Face(f) }
                    FT_Done_FreeType(lib)
                    throw .font(path: path, reason: "FreeType cannot load it (error \(err)); install fonts-dejavu-core")
                }
                faces.append(face)
                made.append(cairo_ft_font_face_create_for_ft_face(face, 0))
            }
            regular = made[0]
            bold = made[1]
        }

        deinit {
            cairo_font_face_destroy(regular)
            cairo_font_face_destroy(bold)
            for face in faces { FT_Done_Face(face) }
            if let library { FT_Done_FreeType(library) }
        }
    }
}
