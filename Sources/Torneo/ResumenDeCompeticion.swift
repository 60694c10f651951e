/// One line of `marcador competiciones`.
public struct ResumenDeCompeticion: Sendable, Hashable, Codable {
    /// `nil` for the matches that belong to none (the seed's).
    public var nombre: String?
    public var partidos: Int
    /// Matches whose goal list is known: played (or being played) with their goals listed,
    /// or scripted. A played match of a file that gives only its result does not count, nor
    /// does one not played yet (issue 42: Serie A read «CON GOLES 28» of 0 goals).
    public var conGoles: Int
    /// Matches played: with an official result, or a run played to the end.
    public var jugados: Int
    /// Goals scored: by the results where there are results (after extra time, not the
    /// shoot-out), by the script for a match without one. Serie A's 370 results count though
    /// its file lists no goal.
    public var goles: Int

    public init(nombre: String?, partidos: Int, conGoles: Int, jugados: Int, goles: Int) {
        self.nombre = nombre
        self.partidos = partidos
        self.conGoles = conGoles
        self.jugados = jugados
        self.goles = goles
    }
}
