/// One line of `marcador competiciones`.
public struct ResumenDeCompeticion: Sendable, Hashable, Codable {
    /// `nil` for the matches that belong to none (the seed's).
    public var nombre: String?
    public var partidos: Int
    /// Matches whose goal list is known.
    public var conGoles: Int
    /// Matches played: with an official result, or a run played to the end.
    public var jugados: Int
    /// Goals in the scripts.
    public var goles: Int

    public init(nombre: String?, partidos: Int, conGoles: Int, jugados: Int, goles: Int) {
        self.nombre = nombre
        self.partidos = partidos
        self.conGoles = conGoles
        self.jugados = jugados
        self.goles = goles
    }
}
