/// Where a match stands, as `partidos` and the status line say it (runs.md, point 5).
public enum EstadoDelPartido: Sendable, Hashable {
    case sinEmpezar
    case enJuego
    case terminado
    case cancelado(enElMinuto: Int)
    /// Its process died without saying so (SIGKILL, power cut): resumable with `--reanudar`.
    case interrumpido(enElMinuto: Int)

    public var texto: String {
        switch self {
        case .sinEmpezar: "Sin empezar"
        case .enJuego: "En juego"
        case .terminado: "Partido terminado"
        case .cancelado(let minuto): "Cancelado en el minuto \(minuto)"
        case .interrumpido(let minuto): "Interrumpido en el minuto \(minuto)"
        }
    }

    /// A stable word for scripts (`--json`).
    public var clave: String {
        switch self {
        case .sinEmpezar: "sin_empezar"
        case .enJuego: "en_juego"
        case .terminado: "terminado"
        case .cancelado: "cancelado"
        case .interrumpido: "interrumpido"
        }
    }
}
