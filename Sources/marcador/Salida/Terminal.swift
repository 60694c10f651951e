import Aplicacion
import Sistema
import Synchronization

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
    /// The first failed write to standard output, shared by every copy of this value.
    let fallos = FallosDeSalida()

    /// A terminal for rehearsals: it writes nothing.
    static var muda: Terminal {
        let terminal = Terminal(
            esInteractiva: false, puedePreguntar: false, conColor: false, columnasDelEntorno: nil)
        terminal.fallos.callar()
        return terminal
    }

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
    /// Once a write has failed nothing more is written (a closed pipe, a full disk): the
    /// failure is kept for the end of the command (architecture.md).
    func escribir(_ texto: String) {
        guard fallos.error == 0 else { return }
        fallos.anotar(escribirEnDescriptor(1, texto))
    }

    /// Bytes to standard output, with the same rules as `escribir`.
    func escribir(_ bytes: UnsafeRawBufferPointer) {
        guard fallos.error == 0 else { return }
        fallos.anotar(escribirEnDescriptor(1, bytes))
    }

    /// Throws once standard output failed, so a long listing stops instead of computing rows
    /// nobody will read.
    func comprobarSalida() throws(SalidaFallida) {
        let error = fallos.error
        if error != 0 && error != FallosDeSalida.callada { throw SalidaFallida(errno: error) }
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

/// The first `errno` a write to standard output got (0 while none failed).
final class FallosDeSalida: Sendable {
    private let primero = Atomic<Int32>(0)

    var error: Int32 { primero.load(ordering: .acquiring) }

    /// From now on nothing is written, and no failure is reported (a rehearsal).
    func callar() { anotar(Self.callada) }

    /// A value no `errno` takes.
    static let callada: Int32 = -1

    func anotar(_ error: Int32) {
        guard error != 0 else { return }
        _ = primero.compareExchange(expected: 0, desired: error, ordering: .acquiringAndReleasing)
    }
}

/// Standard output could not be written: `EPIPE` when the reader left (the command then ends
/// quietly), any other error (a full disk, `/dev/full`) is exit 74 with a message.
struct SalidaFallida: Error, Sendable {
    var errno: Int32
}
