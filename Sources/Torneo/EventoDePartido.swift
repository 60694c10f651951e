/// One entry of a match script: a goal, or a player sent off. The engine walks them in playing
/// order whatever their kind; only goals change the score.
public enum EventoDePartido: Sendable, Hashable, Codable {
    case gol(Gol)
    case roja(TarjetaRoja)

    public var minuto: MinutoDeJuego {
        switch self {
        case .gol(let gol): gol.minuto
        case .roja(let tarjeta): tarjeta.minuto
        }
    }
}
