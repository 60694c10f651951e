import Almacen
import Aplicacion
import Persistencia
import Sistema
import Synchronization
import Torneo

/// Draws a match being played: a status line redrawn in place on a terminal, plain lines when
/// the output is a pipe or a file.
final class Pantalla: Sendable {
    let terminal: Terminal
    /// The status line currently on screen (terminal only), to clear and redraw it around log
    /// lines written to stderr.
    private let lineaDeEstado = Mutex<String?>(nil)
    /// What the status line shows, to draw it again at a new width.
    private let ultimoEstado = Mutex<LineaDeEstado?>(nil)

    init(terminal: Terminal) { self.terminal = terminal }

    /// Shows the current state: redrawn in place on a terminal, fitted to its width; on a pipe
    /// only the notices every 15 minutes get a line.
    func estado(_ estado: LineaDeEstado, avisoNuevo: String?) {
        if terminal.esInteractiva {
            ultimoEstado.withLock { $0 = estado }
            let (parteDeEstado, resto) = estado.texto(ancho: terminal.ancho)
            let texto = terminal.resaltar(parteDeEstado, .verde) + resto
            lineaDeEstado.withLock { $0 = texto }
            terminal.escribir("\r\u{1B}[2K" + texto)
        } else if let avisoNuevo {
            terminal.linea(avisoNuevo)
        }
    }

    /// The terminal changed size (SIGWINCH): the status line is drawn again to fit.
    func redibujar() {
        guard let estado = ultimoEstado.withLock({ $0 }),
            lineaDeEstado.withLock({ $0 }) != nil
        else { return }
        self.estado(estado, avisoNuevo: nil)
    }

    /// A line that stays (a goal, the summary), written above the status line.
    func linea(_ texto: String) {
        lineaDeEstado.withLock { estado in
            if terminal.esInteractiva, estado != nil {
                terminal.escribir("\r\u{1B}[2K" + texto + "\n" + (estado ?? ""))
            } else {
                terminal.linea(texto)
            }
        }
    }

    /// Leaves the status line (by now showing how the match ended) and moves below it, before
    /// the final summary.
    func cerrarEstado() {
        lineaDeEstado.withLock { estado in
            if estado != nil { terminal.escribir("\n") }
            estado = nil
        }
        ultimoEstado.withLock { $0 = nil }
    }

    /// Runs `escribir` (which writes to stderr) with the status line out of the way.
    func fuera(_ escribir: () -> Void) {
        lineaDeEstado.withLock { estado in
            guard terminal.esInteractiva, let estado else {
                escribir()
                return
            }
            terminal.escribir("\r\u{1B}[2K")
            escribir()
            terminal.escribir(estado)
        }
    }
}

/// The log as `jugar` uses it: same lines, same table, but the status line steps aside.
struct RegistroEnPantalla: Registro {
    let base: any Registro
    let pantalla: Pantalla
    /// Whether the log channel's lines (stored already) are shown here too.
    var mostrarAvisos = true

    func anotar(_ linea: String, partido: Int?) {
        pantalla.fuera { base.anotar(linea, partido: partido) }
    }

    func anotar(lineas: [(String, Int?)]) {
        pantalla.fuera { base.anotar(lineas: lineas) }
    }

    func mostrar(lineas: [(String, Int?)]) {
        guard mostrarAvisos else { return }
        pantalla.fuera { base.mostrar(lineas: lineas) }
    }

    func guardar(lineas: [(String, Int?)]) throws {
        var fallo: (any Error)?
        pantalla.fuera {
            do {
                try base.guardar(lineas: lineas)
            } catch {
                fallo = error
            }
        }
        if let fallo { throw fallo }
    }
}
