import Importador
import Sistema
import Torneo

/// An openfootball file served from a URL and updated as matches are played (directo.md):
/// both layouts, read by the importer's own rules. A file says no more than its goals and its
/// results: a match with `score.ft` is over; one with goals but no result is being played; one
/// with neither has not started (or its list is not written yet). Read with the feed's rigor:
/// names made safe, an unreadable match left out (issue 41).
public enum LectorDeOpenFootballEnDirecto {
    public static func leer(_ bytes: [UInt8], nombre: String) throws -> LecturaDeFeed {
        let competicion: Competicion
        do {
            competicion = try LectorOpenFootball.leer(
                bytes, nombrePorDefecto: nombre, rigor: .directo)
        } catch let fallo as FalloDeImportacion {
            throw FalloDeFeed(fallo.mensaje)
        }
        let partidos = competicion.partidos.map { partido in
            let goles = partido.goles
            let contados = goles.map { $0.reduce(Marcador.cero) { $0.sumando($1.lado) } }
            let terminado = partido.finalDelPartido != nil
            let estado: EstadoEnDirecto =
                terminado ? .terminado : (goles?.isEmpty == false ? .enJuego : .programado)
            return PartidoDelFeed(
                claveExterna: partido.clave(competicion: competicion.nombre),
                competicion: competicion.nombre, fecha: partido.fecha, hora: partido.hora,
                ronda: partido.ronda, grupo: partido.grupo, local: partido.local,
                visitante: partido.visitante, estado: estado,
                marcador: partido.resultadoEsperado ?? contados,
                finalDelPartido: partido.finalDelPartido, trasLaProrroga: partido.trasLaProrroga,
                penaltis: partido.penaltis, goles: goles)
        }
        return LecturaDeFeed(partidos: partidos, descartados: competicion.descartados)
    }
}
