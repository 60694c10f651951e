import Torneo

/// What changed in a followed match between its snapshot and the feed's new answer, as notices
/// (directo.md): kick-off, each goal (its scorer and minute when the feed lists goals; the team
/// and minute when only the score moved), half-time, full time, and every goal taken back — a
/// goal gone from the list, or a score that went down — as «Gol anulado» under that goal's
/// identifier. Pure: the caller stores the new snapshot with the notices, in one transaction.
public enum Comparador {
    /// - Parameters:
    ///   - anterior: the stored snapshot; `nil` for a match seen for the first time.
    ///   - silencioso: a source's very first answer is a starting point, not news: its
    ///     matches are recorded as they stand and notify nothing.
    ///   - minutoEstimado: the minute to give a goal the feed neither lists nor dates.
    public static func comparar(
        anterior: FotoDePartido?, con partido: PartidoDelFeed, partidoId: Int,
        silencioso: Bool = false, minutoEstimado: Int? = nil
    ) -> (foto: FotoDePartido, avisos: [AvisoDeGol]) {
        let base = anterior ?? .vacia
        var foto = base
        foto.estado = partido.estado
        foto.minuto = partido.minuto
        var avisos: [AvisoDeGol] = []
        let marcadorActual = partido.marcador ?? base.marcador
        func momento(_ tipo: TipoDeAviso, cuando: Bool) {
            guard cuando, !foto.momentos.contains(tipo) else { return }
            foto.momentos.append(tipo)
            avisos.append(
                AvisoDeGol.momento(
                    tipo, local: partido.local, visitante: partido.visitante,
                    partidoId: partidoId, minuto: MinutoDeJuego(partido.minuto ?? 0),
                    marcador: marcadorActual))
        }
        momento(.inicio, cuando: partido.estado.empezado && base.estado == .programado)
        // A match already under way when first seen still counts as started.
        if partido.estado.empezado && !foto.momentos.contains(.inicio) {
            foto.momentos.append(.inicio)
        }
        let (quedan, anulados, nuevos) = goles(
            base.goles, partido: partido, partidoId: partidoId,
            minuto: MinutoDeJuego(partido.minuto ?? minutoEstimado ?? 1))
        foto.goles = quedan
        for gol in anulados {
            avisos.append(
                AvisoDeGol.anulacion(de: gol.aviso(partidoId: partidoId), marcador: marcadorActual))
        }
        avisos += nuevos
        momento(.descanso, cuando: partido.estado == .descanso)
        momento(.final, cuando: partido.estado == .terminado)
        foto.marcador = marcadorActual
        if silencioso || anterior == nil && partido.estado == .terminado {
            // A first look, or a match that was over before it was first seen: nothing new.
            return (foto, [])
        }
        return (foto, avisos)
    }

    /// The goals standing now, those taken back and the notices of those that are new.
    private static func goles(
        _ antes: [FotoDePartido.GolAvisado], partido: PartidoDelFeed, partidoId: Int,
        minuto: MinutoDeJuego
    ) -> (
        quedan: [FotoDePartido.GolAvisado], anulados: [FotoDePartido.GolAvisado],
        nuevos: [AvisoDeGol]
    ) {
        let encuentro = Partido(
            id: partidoId, local: Equipo(partido.local), visitante: Equipo(partido.visitante),
            eventos: [])
        if let lista = partido.goles {
            // The list is the truth: each goal by its identifier (minute and scorer).
            var marcador = Marcador.cero
            let conMarcador = lista.map { gol -> (gol: Gol, marcador: Marcador) in
                marcador = marcador.sumando(gol.lado)
                return (gol, marcador)
            }
            let ahora = AvisoDeGol.avisos(de: conMarcador, en: encuentro)
            let previos = Set(antes.map(\.identificador))
            let actuales = Set(ahora.map(\.identificador))
            return (
                ahora.map(FotoDePartido.GolAvisado.init),
                antes.filter { !actuales.contains($0.identificador) },
                ahora.filter { !previos.contains($0.identificador) }
            )
        }
        // Only the score: each side's goals are counted; one more is a goal of that team at
        // this minute, one fewer takes back its latest goal.
        guard let marcador = partido.marcador else { return (antes, [], []) }
        var quedan = antes
        var anulados: [FotoDePartido.GolAvisado] = []
        var nuevos: [AvisoDeGol] = []
        for lado in [Lado.local, .visitante] {
            let objetivo = lado == .local ? marcador.local : marcador.visitante
            var suyos = quedan.filter { $0.lado == lado }.count
            while suyos > objetivo, let ultimo = quedan.lastIndex(where: { $0.lado == lado }) {
                anulados.append(quedan.remove(at: ultimo))
                suyos -= 1
            }
            while suyos < objetivo {
                suyos += 1
                var despues = Marcador.cero
                for gol in quedan { despues = despues.sumando(gol.lado) }
                despues = despues.sumando(lado)
                let aviso = AvisoDeGol.golSinGoleador(
                    equipo: lado == .local ? partido.local : partido.visitante, lado: lado,
                    numero: suyos, minuto: minuto, partidoId: partidoId, marcador: despues)
                nuevos.append(aviso)
                quedan.append(FotoDePartido.GolAvisado(aviso))
            }
        }
        return (quedan, anulados, nuevos)
    }
}
