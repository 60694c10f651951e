/// One entry of a match script. Only goals exist today; the enum leaves room for cards or
/// substitutions without changing how the engine walks the script.
public enum EventoDePartido: Sendable, Hashable, Codable {
    case gol(Gol)

    public var minuto: MinutoDeJuego {
        switch self {
        case .gol(let gol): gol.minuto
        }
    }
}
