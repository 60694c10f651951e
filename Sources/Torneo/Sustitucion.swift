/// A substitution a live feed gave (football-data's `substitutions[]`): shown on the match's
/// timeline, never an alert of its own.
public struct Sustitucion: Sendable, Hashable, Codable {
    public var minuto: MinutoDeJuego
    /// The player coming on, and the one going off.
    public var entra: String
    public var sale: String
    public var equipo: String
    public var lado: Lado

    public init(minuto: MinutoDeJuego, entra: String, sale: String, equipo: String, lado: Lado) {
        self.minuto = minuto
        self.entra = entra
        self.sale = sale
        self.equipo = equipo
        self.lado = lado
    }
}
