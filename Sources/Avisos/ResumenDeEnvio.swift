import Persistencia
import Torneo

/// What one drain of the outbox did, by outcome.
public struct ResumenDeEnvio: Sendable, Hashable {
    public var entregadas = 0
    public var reintentos = 0
    public var fallidas = 0
    public var descartadas = 0
    public var caducadas = 0
    /// Times the store failed (a claim, an outcome that could not be recorded even after
    /// retrying): work that may be left undone, with the last reason.
    public var fallosDeTienda = 0
    public var ultimoFalloDeTienda: String?

    public init() {}

    public var total: Int { entregadas + reintentos + fallidas + descartadas + caducadas }

    mutating func contar(_ desenlace: ResultadoDeEntrega.Desenlace) {
        switch desenlace {
        case .entregada: entregadas += 1
        case .reintentar: reintentos += 1
        case .fallida, .retirada: fallidas += 1
        case .descartada: descartadas += 1
        case .caducada: caducadas += 1
        }
    }

    public static func + (a: ResumenDeEnvio, b: ResumenDeEnvio) -> ResumenDeEnvio {
        var suma = a
        suma += b
        return suma
    }

    public static func += (a: inout ResumenDeEnvio, b: ResumenDeEnvio) {
        a.entregadas += b.entregadas
        a.reintentos += b.reintentos
        a.fallidas += b.fallidas
        a.descartadas += b.descartadas
        a.caducadas += b.caducadas
        a.fallosDeTienda += b.fallosDeTienda
        a.ultimoFalloDeTienda = b.ultimoFalloDeTienda ?? a.ultimoFalloDeTienda
    }

    mutating func anotarFalloDeTienda(_ error: any Error) {
        fallosDeTienda += 1
        ultimoFalloDeTienda = explicacion(de: error)
    }
}
