/// Where a match followed live stands, as its feed says (directo.md).
public enum EstadoEnDirecto: String, Sendable, Hashable, Codable, CaseIterable {
    case programado
    case enJuego = "en_juego"
    /// Half-time (or a break in extra time).
    case descanso
    case terminado
    /// Suspended, postponed or cancelled.
    case suspendido

    public var texto: String {
        switch self {
        case .programado: "Sin empezar"
        case .enJuego: "En juego"
        case .descanso: "Descanso"
        case .terminado: "Terminado"
        case .suspendido: "Suspendido"
        }
    }

    /// Whether the match has kicked off.
    public var empezado: Bool { self == .enJuego || self == .descanso || self == .terminado }
}
