import Torneo

/// Where matches and settings come from. The domain talks to this protocol; only the storage
/// modules know there is SQL behind it.
public protocol PartidosRepositorio: Sendable {
    /// Every match, by id, optionally only those of one competition.
    func partidos(competicion: String?) throws -> [Partido]
    /// One match, or `nil` when there is no such id.
    func partido(id: Int) throws -> Partido?
    func ajustes() throws -> Ajustes
    /// Whether goal notices may be published: what each dispatcher batch asks, so one row.
    func avisosPermitidos() throws -> Bool
    func guardar(_ ajustes: Ajustes) throws
    /// Reads the settings, applies `cambio` and stores them, in one write transaction: two
    /// processes changing different settings at once lose neither change.
    @discardableResult
    func actualizarAjustes(_ cambio: (inout Ajustes) -> Void) throws -> Ajustes

    /// Every match with the standing of its latest run, for `marcador partidos`, handed to
    /// `visitar` one at a time (a list of 100,000 matches is never held whole): undated ones
    /// first by id, then by kick-off (`Saque.segundos`) and id.
    /// - Parameter inicio: only dated matches whose `Saque.segundos` fall in it.
    func recorrerResumenes(
        competicion: String?, inicio: ClosedRange<Int>?,
        _ visitar: (ResumenDePartido) throws -> Void) throws
    /// Match cards, optionally of one competition; the scripts only with `conEventos`.
    func fichas(competicion: String?, conEventos: Bool) throws -> [FichaDePartido]
    /// One match card, with its script.
    func ficha(id: Int) throws -> FichaDePartido?
    /// The goals each stored player scored in competition `competicion` (own goals not
    /// counted), summed by the store: one row per player as stored, for `Goleadores.fundir`;
    /// and how many matches it has and how many of them without a goal list.
    func goles(competicion: String) throws -> (
        porJugador: [Goleadores.Fila], partidos: Int, sinLista: Int
    )
    /// Every competition with its counts.
    func competiciones() throws -> [ResumenDeCompeticion]
    /// Every competition's name, without the counts: what a lookup by name needs (the counts
    /// read every match of every competition).
    func nombresDeCompeticiones() throws -> [String]
    /// Every team name.
    func equipos() throws -> [String]
}

extension PartidosRepositorio {
    public func partidos() throws -> [Partido] { try partidos(competicion: nil) }

    /// Every match with the standing of its latest run, collected.
    public func resumenes(competicion: String? = nil) throws -> [ResumenDePartido] {
        var resumenes: [ResumenDePartido] = []
        try recorrerResumenes(competicion: competicion, inicio: nil) { resumenes.append($0) }
        return resumenes
    }
}
