import Sistema

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the process writes to and how: escape codes only on a terminal, colour only without
/// `NO_COLOR` (https://no-color.org).
struct Terminal: Sendable {
    /// stdout is a terminal: status lines may be redrawn in place.
    var esInteractiva: Bool
    /// stdin is a terminal: the program may ask a question and wait for the answer.
    var puedePreguntar: Bool
    var conColor: Bool
    /// `COLUMNS`, for when the terminal does not say its width.
    var columnasDelEntorno: Int?

    static func actual(entorno: [String: String]) -> Terminal {
        let interactiva = isatty(1) == 1 && entorno["TERM"] != "dumb"
        let sinColor = !(entorno["NO_COLOR"] ?? "").isEmpty
        return Terminal(
            esInteractiva: interactiva, puedePreguntar: isatty(0) == 1,
            conColor: interactiva && !sinColor,
            columnasDelEntorno: entorno["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil })
    }

    /// The terminal's width now (it may change: SIGWINCH), from the terminal itself
    /// (TIOCGWINSZ), else `COLUMNS`, else 80.
    var ancho: Int {
        var tamano = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &tamano) == 0, tamano.ws_col > 0 { return Int(tamano.ws_col) }
        return columnasDelEntorno ?? 80
    }

    /// Writes straight to file descriptor 1: no buffer to flush before exiting or before a log
    /// line on stderr, so the two streams interleave in the order things happened.
    func escribir(_ texto: String) {
        escribirEnDescriptor(1, texto)
    }

    func linea(_ texto: String = "") {
        escribir(texto + "\n")
    }

    /// `texto` in bold/colour when colour is on; unchanged otherwise.
    func resaltar(_ texto: String, _ estilo: Estilo) -> String {
        conColor ? "\u{1B}[\(estilo.rawValue)m\(texto)\u{1B}[0m" : texto
    }

    enum Estilo: String {
        case negrita = "1"
        case verde = "32"
        case amarillo = "33"
        case rojo = "31"
        case gris = "2"
        case cian = "36"
    }
}
