/// Where matches and settings come from. The domain talks to this protocol; only the storage
/// module knows there is SQL behind it.
public protocol PartidosRepositorio: Sendable {
    /// Every match, by id, optionally only those of one competition.
    func partidos(competicion: String?) throws -> [Partido]
    /// One match, or `nil` when there is no such id.
    func partido(id: Int) throws -> Partido?
    func ajustes() throws -> Ajustes
    func guardar(_ ajustes: Ajustes) throws
}

extension PartidosRepositorio {
    public func partidos() throws -> [Partido] { try partidos(competicion: nil) }
}
