import Persistencia
import Torneo

/// Where the notices stand (`marcador avisos`): permission, quiet mode, channels, deliveries by
/// state and the latest notices.
public struct EstadoDeAvisos: Sendable {
    public var ajustes: Ajustes
    public var canales: [EstadoDeCanal]
    /// Deliveries by state, every state present.
    public var recuento: [EstadoDeEntrega: Int]
    public var ultimos: [AvisoEnBuzon]
}

extension Nucleo {
    public func estadoDeAvisos(ultimos: Int) throws -> EstadoDeAvisos {
        EstadoDeAvisos(
            ajustes: try ajustes(), canales: try canales(),
            recuento: try tienda.buzon.recuento(),
            ultimos: try tienda.buzon.ultimos(limite: ultimos))
    }

    /// Puts the dead letters back in the queue, due now (by the store's clock).
    /// - Returns: how many went back.
    @discardableResult
    public func reintentarFallidas() throws -> Int {
        try tienda.buzon.reintentarFallidas(ahora: ahora())
    }
}
