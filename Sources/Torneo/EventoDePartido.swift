/// One entry of a match script: a goal, a player sent off, a substitution. The engine walks them
/// in playing order whatever their kind; only goals change the score, only goals and cards
/// notify.
public enum EventoDePartido: Sendable, Hashable, Codable {
    case gol(Gol)
    case roja(TarjetaRoja)
    case cambio(Sustitucion)

    public var minuto: MinutoDeJuego {
        switch self {
        case .gol(let gol): gol.minuto
        case .roja(let tarjeta): tarjeta.minuto
        case .cambio(let cambio): cambio.minuto
        }
    }
}
