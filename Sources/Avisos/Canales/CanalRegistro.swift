import Torneo

/// The log channel: the lesson's «notificación «¡Gol!» enviada: Luis, minuto 35» line, written
/// to stderr and kept in the `registro` table.
public struct CanalRegistro: Notificador {
    public let canal = "registro"
    let registro: any Registro

    public init(registro: any Registro) { self.registro = registro }

    public func notificarGol(_ aviso: AvisoDeGol) async throws {
        registro.anotar(
            "notificación «\(aviso.titulo)» enviada: \(aviso.jugador), minuto \(aviso.minuto)",
            partido: aviso.partidoId)
    }
}
