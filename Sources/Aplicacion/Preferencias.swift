import Motor
import Persistencia
import Torneo

/// The stored settings (runs.md, §4, §9): read and changed here by every front end, each
/// change with the sentence the user reads.
extension Nucleo {
    public func ajustes() throws -> Ajustes { try tienda.partidos.ajustes() }

    /// Stores the duration setting and, in the same transaction, stops every live run that
    /// follows it and would now last differently; their owners start them again from zero
    /// (this process's own runs too, in place).
    /// - Returns: what the change says, line by line.
    public func cambiarDuracion(_ minutos: Int) throws -> [String] {
        try Self.comprobarDuracion(minutos)
        let despertador = self.despertador
        let afectadas = try ControlDeEjecuciones.cambiarDuracion(
            minutos, en: tienda.ejecuciones, propietario: propietario,
            despertar: { despertador.despertar($0) })
        var lineas = ["Duración: \(minutos) minutos."]
        if afectadas == 1 {
            lineas.append("Un partido en juego vuelve a empezar con la nueva duración.")
        } else if afectadas > 1 {
            lineas.append("\(afectadas) partidos en juego vuelven a empezar con la nueva duración.")
        }
        return lineas
    }

    public func cambiarMsPorMinuto(_ ms: Int) throws -> String {
        try Self.comprobarMsPorMinuto(ms)
        try cambiar { $0.msPorMinuto = ms }
        return "Milisegundos por minuto: \(ms)."
    }

    /// Quiet mode: no banner and no bell where the match is watched (delivery.md).
    public func cambiarSilencio(_ silencio: Bool) throws -> String {
        try cambiar { $0.sinAvisosEnPrimerPlano = silencio }
        return Self.textoDeSilencio(silencio)
    }

    /// The goal notices permission, like the system dialog's answer.
    public func permitirAvisos(_ permitidos: Bool) throws -> String {
        try cambiar { $0.avisosPermitidos = permitidos }
        return Self.textoDePermiso(permitidos)
    }

    public func cambiarPlazoDeAdjuntos(_ segundos: Double) throws -> String {
        try Self.comprobarPlazoDeAdjuntos(segundos)
        try cambiar { $0.plazoDeAdjuntos = segundos }
        return "Plazo de los adjuntos: \(Textos.segundos(segundos)) s."
    }

    public func cambiarDiasDeRegistro(_ dias: Int) throws -> String {
        try Self.comprobarDiasDeRegistro(dias)
        try cambiar { $0.diasDeRegistro = dias }
        try podar()
        return "El registro guarda \(Textos.cuenta(dias, "día", "días"))."
    }

    public func cambiarLineasDeRegistro(_ lineas: Int) throws -> String {
        try Self.comprobarLineasDeRegistro(lineas)
        try cambiar { $0.lineasDeRegistro = lineas }
        try podar()
        return "El registro guarda \(Textos.cuenta(lineas, "línea", "líneas")) como mucho."
    }

    // MARK: - The accepted values, one home each (front ends check them before anything opens)

    public static func comprobarDuracion(_ minutos: Int) throws(Fallo) {
        guard Duracion.ajustables.contains(minutos) else {
            throw .uso(Duracion.ajusteNoValido(String(minutos)))
        }
    }

    public static let msPorMinutoPermitidos = 0...600_000

    public static func comprobarMsPorMinuto(_ ms: Int) throws(Fallo) {
        guard msPorMinutoPermitidos.contains(ms) else {
            throw .uso("ms-por-minuto va de 0 a 600000, no «\(ms)».")
        }
    }

    public static func comprobarPlazoDeAdjuntos(_ segundos: Double) throws(Fallo) {
        guard (0.1...300).contains(segundos) else {
            throw .uso(
                "plazo-adjuntos va de 0.1 a 300 segundos, no «\(Textos.segundos(segundos))».")
        }
    }

    public static func comprobarDiasDeRegistro(_ dias: Int) throws(Fallo) {
        guard (1...3650).contains(dias) else {
            throw .uso("registro-dias va de 1 a 3650, no «\(dias)».")
        }
    }

    public static func comprobarLineasDeRegistro(_ lineas: Int) throws(Fallo) {
        guard (100...100_000_000).contains(lineas) else {
            throw .uso("registro-lineas va de 100 a 100000000, no «\(lineas)».")
        }
    }

    public static func textoDePermiso(_ permitidos: Bool) -> String {
        permitidos ? "Avisos de gol: activados" : "Avisos de gol: desactivados"
    }

    public static func textoDeSilencio(_ silencio: Bool) -> String {
        silencio ? "Silencio: sí (sin banner ni campana en la terminal)." : "Silencio: no."
    }

    private func cambiar(_ cambio: (inout Ajustes) -> Void) throws {
        try tienda.partidos.actualizarAjustes(cambio)
    }
}
