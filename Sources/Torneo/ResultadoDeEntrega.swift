/// What happened to one delivery attempt.
public struct ResultadoDeEntrega: Sendable, Hashable {
    public enum Desenlace: Sendable, Hashable {
        case entregada
        /// Failed, to be tried again at `cuando` (unix seconds).
        case reintentar(cuando: Double, error: String)
        /// Failed for good (dead letter): visible in `avisos`, re-queueable.
        case fallida(error: String)
        /// Failed for good because the device is gone (APNs 410 Unregistered, a Web Push
        /// 404/410): stored as failed, and the device is removed with it (contract.md §19).
        case retirada(error: String)
        /// Not published: no permission, or its channel was removed.
        case descartada(motivo: String)
        /// Older than the time-to-live: a late goal alert is worse than none.
        case caducada(motivo: String)

        /// The state the delivery is left in.
        public var estado: EstadoDeEntrega {
            switch self {
            case .entregada: .entregada
            case .reintentar: .pendiente
            case .fallida, .retirada: .fallida
            case .descartada: .descartada
            case .caducada: .caducada
            }
        }

        /// The error or reason stored with it (`nil` once delivered).
        public var motivo: String? {
            switch self {
            case .entregada: nil
            case .reintentar(_, let error), .fallida(let error), .retirada(let error): error
            case .descartada(let motivo), .caducada(let motivo): motivo
            }
        }
    }

    /// A line for the store's own log, written in the transaction that stores this outcome and
    /// only if it is stored: the `registro` channel's delivery *is* its line, so the line exists
    /// exactly when the delivery counts (issue 41: a restart or a refused outcome write logged
    /// goals twice).
    public struct Anotacion: Sendable, Hashable {
        public let texto: String
        public let partido: Int?

        public init(_ texto: String, partido: Int?) {
            self.texto = texto
            self.partido = partido
        }
    }

    public let avisoId: Int
    public let canal: String
    public let desenlace: Desenlace
    /// Only with `.entregada`.
    public let anotacion: Anotacion?

    public init(avisoId: Int, canal: String, desenlace: Desenlace, anotacion: Anotacion? = nil) {
        self.avisoId = avisoId
        self.canal = canal
        self.desenlace = desenlace
        self.anotacion = desenlace == .entregada ? anotacion : nil
    }
}
