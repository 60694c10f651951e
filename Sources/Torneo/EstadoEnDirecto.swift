/// Where a match followed live stands, as its feed says (directo.md).
public enum EstadoEnDirecto: String, Sendable, Hashable, Codable, CaseIterable {
    case programado
    case enJuego = "en_juego"
    /// Half-time (or a break in extra time).
    case descanso
    /// Extra time, minutes 91 to 120 (contract.md: «Prórroga», the minute read `105 de 120`).
    case prorroga
    /// The penalty shoot-out, its tally shown live.
    case penaltis
    case terminado
    /// Suspended, postponed or cancelled.
    case suspendido

    public var texto: String {
        switch self {
        case .programado: "Sin empezar"
        case .enJuego: "En juego"
        case .descanso: "Descanso"
        case .prorroga: "Prórroga"
        case .penaltis: "Penaltis"
        case .terminado: "Terminado"
        case .suspendido: "Suspendido"
        }
    }

    /// Whether the match has kicked off.
    public var empezado: Bool {
        switch self {
        case .enJuego, .descanso, .prorroga, .penaltis, .terminado: true
        case .programado, .suspendido: false
        }
    }

    /// Being played (a break included): not before, not after.
    public var enCurso: Bool { empezado && self != .terminado }

    /// Past the 90 minutes: a match in extra time or its shoot-out is played to 120.
    public var trasLosNoventa: Bool { self == .prorroga || self == .penaltis }
}
