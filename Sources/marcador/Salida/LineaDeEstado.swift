import Aplicacion

/// The status line of `jugar`, fitted to the terminal's width: it must never wrap, or every
/// redraw would leave a stale line behind.
struct LineaDeEstado: Sendable, Hashable {
    var estado: String
    var minuto: Int
    var local: String
    var visitante: String
    var marcador: String
    var ultimoAviso: String
    /// The latest goal (`Iván 10'`): the lessons' «último aviso» is the 15-minute message, so
    /// right after two goals it still read «ninguno» with nothing else to say they happened
    /// (issue 42).
    var ultimoGol: String? = nil

    /// The line in at most `ancho - 1` columns (the last column of a terminal wraps on some
    /// emulators): first the last goal goes, then the last notice, then team names are
    /// shortened with «…».
    func texto(ancho: Int) -> (estado: String, resto: String) {
        if let ultimoGol {
            let conGol =
                "\(cabezaDeLinea)\(local) \(marcador) \(visitante)  · gol: \(ultimoGol)"
                + "  · último aviso: \(ultimoAviso)"
            if estado.count + conGol.count <= max(ancho - 1, 10) { return (estado, conGol) }
            // Too narrow for both: «ninguno» says less than the goal.
            let soloGol = "\(cabezaDeLinea)\(local) \(marcador) \(visitante)  · gol: \(ultimoGol)"
            if ultimoAviso == "ninguno" && estado.count + soloGol.count <= max(ancho - 1, 10) {
                return (estado, soloGol)
            }
        }
        let limite = max(ancho - 1, 10)
        let cabeza = cabezaDeLinea
        var local = self.local
        var visitante = self.visitante
        func resto(conAviso: Bool) -> String {
            "\(cabeza)\(local) \(marcador) \(visitante)"
                + (conAviso ? "  · último aviso: \(ultimoAviso)" : "")
        }
        if estado.count + resto(conAviso: true).count <= limite {
            return (estado, resto(conAviso: true))
        }
        var sobra = estado.count + resto(conAviso: false).count - limite
        if sobra > 0 {
            // Take from the longer name first, keeping at least one letter and the «…».
            while sobra > 0 && (local.count > 2 || visitante.count > 2) {
                if local.count >= visitante.count {
                    local = Self.acortar(local)
                } else {
                    visitante = Self.acortar(visitante)
                }
                sobra -= 1
            }
        }
        var linea = estado + resto(conAviso: false)
        if linea.count > limite { linea = String(linea.prefix(limite - 1)) + "…" }
        let parteDeEstado = String(linea.prefix(estado.count))
        return (parteDeEstado, String(linea.dropFirst(parteDeEstado.count)))
    }

    private var cabezaDeLinea: String { "  minuto \(minuto)  " }

    /// One character fewer, ending in «…».
    static func acortar(_ nombre: String) -> String {
        let base = nombre.hasSuffix("…") ? nombre.dropLast() : Substring(nombre)
        return String(base.dropLast(nombre.hasSuffix("…") ? 1 : 2)) + "…"
    }
}
