/// A team, known by its name (names are unique within a database).
public struct Equipo: Sendable, Hashable, Codable {
    public var nombre: String

    public init(_ nombre: String) {
        self.nombre = nombre
    }
}
