import Motor
import Persistencia
import Torneo

/// The stored settings (runs.md): read and changed here by every front end; what a change says
/// is `Frases`'s.
extension Nucleo {
    public func ajustes() throws -> Ajustes { try tienda.partidos.ajustes() }

    /// Stores the duration setting and, in the same transaction, stops every live run that
    /// follows it and would now last differently; their owners start them again from zero
    /// (this process's own runs too, in place).
    /// - Returns: how many live runs start again with the new duration.
    @discardableResult
    public func cambiarDuracion(_ minutos: Int) throws -> Int {
        try Self.comprobarDuracion(minutos)
        let despertador = self.despertador
        let afectadas = try ControlDeEjecuciones.cambiarDuracion(
            minutos, en: tienda.ejecuciones, propietario: propietario,
            despertar: { despertador.despertar($0) })
        return afectadas
    }

    public func cambiarMsPorMinuto(_ ms: Int) throws {
        try Self.comprobarMsPorMinuto(ms)
        try cambiar { $0.msPorMinuto = ms }
    }

    /// Quiet mode: no banner and no bell where the match is watched (delivery.md).
    public func cambiarSilencio(_ silencio: Bool) throws {
        try cambiar { $0.sinAvisosEnPrimerPlano = silencio }
    }

    /// The goal notices permission, like the system dialog's answer.
    public func permitirAvisos(_ permitidos: Bool) throws {
        try cambiar { $0.avisosPermitidos = permitidos }
    }

    public func cambiarPlazoDeAdjuntos(_ segundos: Double) throws {
        try Self.comprobarPlazoDeAdjuntos(segundos)
        try cambiar { $0.plazoDeAdjuntos = segundos }
    }

    public func cambiarDiasDeRegistro(_ dias: Int) throws {
        try Self.comprobarDiasDeRegistro(dias)
        try cambiar { $0.diasDeRegistro = dias }
        try podar()
    }

    public func cambiarLineasDeRegistro(_ lineas: Int) throws {
        try Self.comprobarLineasDeRegistro(lineas)
        try cambiar { $0.lineasDeRegistro = lineas }
        try podar()
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

    private func cambiar(_ cambio: (inout Ajustes) -> Void) throws {
        try tienda.partidos.actualizarAjustes(cambio)
    }
}
