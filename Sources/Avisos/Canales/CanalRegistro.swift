import Persistencia
import Torneo

/// The log channel: the lesson's «notificación «¡Gol!» enviada: Luis, minuto 35» line with the
/// goal's team and marks after it (`… minuto 35 (Rayo FC, de penalti)`: contract.md), written
/// to stderr and kept in the `registro` table. A dispatcher stores the line with the delivery's
/// outcome (`lineaEnLaTienda`); `notificarGoles` writes it alone, for a caller without an outbox.
public struct CanalRegistro: Notificador {
    public let canal: String
    public let esInmediato = true
    let registro: any Registro

    public init(canal: String = TipoDeCanal.registro.rawValue, registro: any Registro) {
        self.canal = canal
        self.registro = registro
    }

    static func linea(_ aviso: AvisoDeGol) -> String {
        switch aviso.tipo {
        case .gol, .anulado, .corregido, .roja:
            "notificación «\(aviso.titulo)» enviada: "
                + "\(aviso.jugador.isEmpty ? aviso.equipo : aviso.jugador), minuto \(aviso.minuto)"
                + (aviso.marcas.map { " (\($0))" } ?? "")
        case .inicio, .descanso, .prorroga, .penaltis, .final, .recordatorio, .alineacion:
            "notificación «\(aviso.titulo)» enviada: \(aviso.cuerpo)"
        case .prueba: "notificación «\(aviso.titulo)» enviada"
        }
    }

    public func lineaEnLaTienda(_ aviso: AvisoDeGol) -> String? { Self.linea(aviso) }

    public func notificarGol(_ aviso: AvisoDeGol) async throws {
        if let fallo = try await notificarGoles([aviso]).first, let fallo { throw fallo }
    }

    /// A batch's lines in one write: one commit instead of one per notice. Delivered only once
    /// the lines are stored: if the store refuses them, every notice of the batch is to be
    /// tried again (round 2 counted them delivered with no line kept).
    public func notificarGoles(_ avisos: [AvisoDeGol]) async throws -> [FalloDeEntrega?] {
        do {
            try registro.guardar(
                lineas: avisos.map { (Self.linea($0), $0.tipo.esDePartido ? $0.partidoId : nil) })
            return Array(repeating: nil, count: avisos.count)
        } catch {
            let fallo = FalloDeEntrega(
                "el registro no guardó la línea: \(explicacion(de: error))", reintentable: true)
            return Array(repeating: fallo, count: avisos.count)
        }
    }
}
