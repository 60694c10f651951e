import Persistencia
import Torneo

/// The log channel: the lesson's «notificación «¡Gol!» enviada: Luis, minuto 35» line, written
/// to stderr and kept in the `registro` table.
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
        case .gol:
            "notificación «\(aviso.titulo)» enviada: \(aviso.jugador), minuto \(aviso.minuto)"
        case .prueba: "notificación «\(aviso.titulo)» enviada"
        }
    }

    public func notificarGol(_ aviso: AvisoDeGol) async throws {
        registro.anotar(Self.linea(aviso), partido: aviso.tipo == .gol ? aviso.partidoId : nil)
    }

    /// A batch's lines in one write: one commit instead of one per notice.
    public func notificarGoles(_ avisos: [AvisoDeGol]) async throws -> [FalloDeEntrega?] {
        registro.anotar(
            lineas: avisos.map { (Self.linea($0), $0.tipo == .gol ? $0.partidoId : nil) })
        return Array(repeating: nil, count: avisos.count)
    }
}
