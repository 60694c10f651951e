import Almacen
import Torneo

/// The foreground banner of `jugar`: a framed «¡Gol!» with the body, and the terminal bell as
/// its sound. Only the process watching the run has it; quiet mode leaves it out altogether.
public struct CanalTerminal: Notificador {
    public let canal = BuzonSQLite.canalTerminal
    /// Writes the banner where the match is drawn (above the status line).
    let escribir: @Sendable (String) -> Void
    /// Ring the bell (only on a real terminal: in a pipe it would be a stray byte).
    let conCampana: Bool

    public init(conCampana: Bool, escribir: @escaping @Sendable (String) -> Void) {
        self.conCampana = conCampana
        self.escribir = escribir
    }

    public func notificarGol(_ aviso: AvisoDeGol) async throws {
        escribir(Self.banner(aviso) + (conCampana ? "\u{07}" : ""))
    }

    /// The banner text: a frame around the title and the body, sized to the longer line.
    public static func banner(_ aviso: AvisoDeGol) -> String {
        var lineas = [aviso.titulo, aviso.cuerpo]
        if let adjunto = aviso.adjunto {
            let nombre = adjunto.split(separator: "/").last.map(String.init) ?? adjunto
            let tipo = aviso.tipoDeAdjunto.map { " (\($0.uppercased()))" } ?? ""
            lineas.append("adjunto: \(nombre)\(tipo)")
        }
        let ancho = lineas.map(\.count).max() ?? 0
        let borde = String(repeating: "─", count: ancho + 2)
        var texto = "┌\(borde)┐\n"
        for linea in lineas {
            texto += "│ \(linea)\(String(repeating: " ", count: ancho - linea.count)) │\n"
        }
        texto += "└\(borde)┘"
        return texto
    }
}
