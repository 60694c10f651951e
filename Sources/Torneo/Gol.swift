/// A scripted goal: who scored, when, and which side it counts for.
///
/// The credited side is stored explicitly because of own goals: the player belongs to the other
/// team, so the scorer's team cannot tell which side of the score moves.
public struct Gol: Sendable, Hashable, Codable {
    public var minuto: MinutoDeJuego
    public var jugador: Jugador
    /// The side whose score goes up.
    public var lado: Lado
    public var penalti: Bool
    public var enPropiaPuerta: Bool
    /// An image or video to attach to the goal's notice (`http(s)://` or `file://`).
    public var adjunto: String?
    /// Who made the pass, when a live feed says (`goals[].assist`).
    public var asistencia: String?

    public init(
        minuto: MinutoDeJuego,
        jugador: Jugador,
        lado: Lado,
        penalti: Bool = false,
        enPropiaPuerta: Bool = false,
        adjunto: String? = nil,
        asistencia: String? = nil
    ) {
        self.minuto = minuto
        self.jugador = jugador
        self.lado = lado
        self.penalti = penalti
        self.enPropiaPuerta = enPropiaPuerta
        self.adjunto = adjunto
        self.asistencia = asistencia
    }
}
