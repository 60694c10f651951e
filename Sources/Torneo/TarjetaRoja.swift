/// A sending-off (contract.md: «Tarjeta roja»): a straight red card, or a second yellow.
public struct TarjetaRoja: Sendable, Hashable, Codable {
    public var minuto: MinutoDeJuego
    public var jugador: String
    /// The player's team, and its side in the match.
    public var equipo: String
    public var lado: Lado
    /// A second yellow card rather than a straight red.
    public var dobleAmarilla: Bool

    public init(
        minuto: MinutoDeJuego, jugador: String, equipo: String, lado: Lado,
        dobleAmarilla: Bool = false
    ) {
        self.minuto = minuto
        self.jugador = jugador
        self.equipo = equipo
        self.lado = lado
        self.dobleAmarilla = dobleAmarilla
    }

    /// `roja-70-Antonio Rüdiger`: a player is sent off once a match, so the minute and the
    /// name are its identity (a feed that moves the minute sends a second alert, as a goal's
    /// would before corrections; cards are rarely corrected).
    public var identificador: String { "roja-\(minuto)-\(jugador)" }

    /// What follows the name in brackets, wherever a card is said: `Real Madrid CF`, or
    /// `Real Madrid CF, doble amarilla`.
    public var marcas: String {
        ([equipo] + (dobleAmarilla ? ["doble amarilla"] : [])).joined(separator: ", ")
    }
}
