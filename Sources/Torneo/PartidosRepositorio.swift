/// Where matches and settings come from. The domain talks to this protocol; only the storage
/// modules know there is SQL behind it.
public protocol PartidosRepositorio: Sendable {
    /// Every match, by id, optionally only those of one competition.
    func partidos(competicion: String?) throws -> [Partido]
    /// One match, or `nil` when there is no such id.
    func partido(id: Int) throws -> Partido?
    func ajustes() throws -> Ajustes
    func guardar(_ ajustes: Ajustes) throws

    /// Every match with the standing of its latest run, for `marcador partidos`.
    func resumenes(competicion: String?) throws -> [ResumenDePartido]
    /// Match cards, optionally of one competition; the scripts only with `conEventos`.
    func fichas(competicion: String?, conEventos: Bool) throws -> [FichaDePartido]
    /// One match card, with its script.
    func ficha(id: Int) throws -> FichaDePartido?
    /// Every competition with its counts.
    func competiciones() throws -> [ResumenDeCompeticion]
    /// Every team name.
    func equipos() throws -> [String]
}

extension PartidosRepositorio {
    public func partidos() throws -> [Partido] { try partidos(competicion: nil) }
}
