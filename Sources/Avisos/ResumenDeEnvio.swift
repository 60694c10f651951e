import Torneo

/// What one drain of the outbox did, by outcome.
public struct ResumenDeEnvio: Sendable, Hashable {
    public var entregadas = 0
    public var reintentos = 0
    public var fallidas = 0
    public var descartadas = 0
    public var caducadas = 0

    public init() {}

    public var total: Int { entregadas + reintentos + fallidas + descartadas + caducadas }

    mutating func contar(_ desenlace: ResultadoDeEntrega.Desenlace) {
        switch desenlace {
        case .entregada: entregadas += 1
        case .reintentar: reintentos += 1
        case .fallida: fallidas += 1
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
    }
}
