import Sistema
import Torneo

/// A run played by another process, which this one asked to stop (and must wake).
public struct EjecucionAjena: Sendable, Hashable {
    public let id: Int
    public let propietario: Propietario

    public init(id: Int, propietario: Propietario) {
        self.id = id
        self.propietario = propietario
    }
}

/// Why another process asked a run to stop.
public enum MotivoDeCancelacion: String, Sendable, Hashable {
    /// A new `jugar` of the same match started (`.task(id:)` across processes).
    case reemplazo
    /// `ajustes duracion` changed the duration the run follows: it starts again with it.
    case duracion
}
