/// A player and the team they play for (which, for an own goal, is not the team credited).
public struct Jugador: Sendable, Hashable, Codable {
    public var nombre: String
    public var equipo: Equipo

    public init(_ nombre: String, de equipo: Equipo) {
        self.nombre = nombre
        self.equipo = equipo
    }
}
