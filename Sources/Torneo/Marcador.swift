/// A score, printed `2-1` (home first).
public struct Marcador: Sendable, Hashable, Codable, CustomStringConvertible {
    public var local: Int
    public var visitante: Int

    public init(local: Int, visitante: Int) {
        self.local = local
        self.visitante = visitante
    }

    public static let cero = Marcador(local: 0, visitante: 0)

    /// The score after `evento`; only goals change it.
    public func despuesDe(_ evento: EventoDePartido, en partido: Partido) -> Marcador {
        switch evento {
        case .gol(let gol): sumando(gol.lado)
        case .roja, .cambio: self
        }
    }

    /// The score with one more goal for `lado`.
    public func sumando(_ lado: Lado) -> Marcador {
        var nuevo = self
        switch lado {
        case .local: nuevo.local += 1
        case .visitante: nuevo.visitante += 1
        }
        return nuevo
    }

    public static func + (a: Marcador, b: Marcador) -> Marcador {
        Marcador(local: a.local + b.local, visitante: a.visitante + b.visitante)
    }

    public var description: String { "\(local)-\(visitante)" }
}
