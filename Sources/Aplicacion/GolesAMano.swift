import Motor
import Persistencia
import Torneo

/// A manual goal added or undone: the match, the side, and the score it leaves.
public struct GolAMano: Sendable, Hashable {
    public let partido: Partido
    public let lado: Lado
    public let quitado: Bool
    public let marcador: Marcador
}

extension Nucleo {
    /// The lessons' buttons (runs.md.7, §10): adds a manual goal to the latest run of the
    /// match (a new, unstarted run if it has none), or with `quitar` undoes the last one of
    /// that side. It counts and is logged; it never notifies.
    /// - Returns: what was done (`Frases.golAMano` says it).
    /// - Throws: `Fallo.noEncontrado` for no such match, `Fallo.conflicto` when there is no
    ///   manual goal to remove.
    @discardableResult
    public func golAMano(partido id: Int, lado: Lado, quitar: Bool) throws -> GolAMano {
        let partido = try partidoExistente(id)
        let duracion = partido.duracionPorDefecto(
            ajuste: try tienda.partidos.ajustes().duracion)
        let equipo = TextoSeguro.limpio(partido.equipo(lado).nombre)
        guard
            let ejecucion = try tienda.ejecuciones.golAMano(
                partido: id, lado: lado, quitar: quitar, duracion: duracion,
                codigo: PartidoEnVivo.codigoAleatorio())
        else {
            throw Fallo.conflicto("\(equipo) no tiene goles a mano que quitar en el partido \(id).")
        }
        let marcador = ejecucion.goles + ejecucion.golesAMano
        let (local, visitante) = (partido.local.nombre, partido.visitante.nombre)
        registro(eco: false).anotar(
            (quitar ? "gol a mano quitado a " : "gol a mano de ")
                + "\(partido.equipo(lado).nombre): \(local) \(marcador) \(visitante) "
                + "(\(ejecucion.codigo))",
            partido: id)
        return GolAMano(partido: partido, lado: lado, quitado: quitar, marcador: marcador)
    }
}
