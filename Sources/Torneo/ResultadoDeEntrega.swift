/// What happened to one delivery attempt.
public struct ResultadoDeEntrega: Sendable, Hashable {
    public enum Desenlace: Sendable, Hashable {
        case entregada
        /// Failed, to be tried again at `cuando` (unix seconds).
        case reintentar(cuando: Double, error: String)
        /// Failed for good (dead letter): visible in `avisos`, re-queueable.
        case fallida(error: String)
        /// Not published: no permission, or its channel was removed.
        case descartada(motivo: String)
        /// Older than the time-to-live: a late goal alert is worse than none.
        case caducada(motivo: String)

        /// The state the delivery is left in.
        public var estado: EstadoDeEntrega {
            switch self {
            case .entregada: .entregada
            case .reintentar: .pendiente
            case .fallida: .fallida
            case .descartada: .descartada
            case .caducada: .caducada
            }
        }

        /// The error or reason stored with it (`nil` once delivered).
        public var motivo: String? {
            switch self {
            case .entregada: nil
            case .reintentar(_, let error), .fallida(let error): error
            case .descartada(let motivo), .caducada(let motivo): motivo
            }
        }
    }

    public let avisoId: Int
    public let canal: String
    public let desenlace: Desenlace

    public init(avisoId: Int, canal: String, desenlace: Desenlace) {
        self.avisoId = avisoId
        self.canal = canal
        self.desenlace = desenlace
    }
}
