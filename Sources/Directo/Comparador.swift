import Torneo

/// What changed in a followed match between its snapshot and the feed's new answer, as notices
/// (directo.md): kick-off, each goal (its scorer and minute when the feed lists goals; the team
/// and minute when only the score moved), a goal's correction (a new scorer, minute or mark:
/// «Gol corregido» under the identifier it was first notified with), half-time, extra time,
/// the shoot-out, full time with how it was decided, and every goal taken back — a goal gone
/// from the list, or a score that went down — as «Gol anulado» under that goal's identifier.
/// Pure: the caller stores the new snapshot with the notices, in one transaction.
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
        foto.penaltis = partido.penaltis ?? base.penaltis
        let marcadorActual = partido.marcador ?? base.marcador
        let minutoActual = MinutoDeJuego(partido.minuto ?? 0, anadido: partido.anadido ?? 0)
        /// The score when extra time or the shoot-out began: a poll that also brings the
        /// goals after it must not give them to the moment before.
        func marcador(hasta limite: Int?) -> Marcador {
            guard let limite, let goles = partido.goles else { return marcadorActual }
            return goles.filter { $0.minuto.minuto <= limite }.reduce(Marcador.cero) {
                $0.sumando($1.lado)
            }
        }
        func momento(
            _ tipo: TipoDeAviso, cuando: Bool, hasta limite: Int? = nil, desenlace: String? = nil
        ) -> AvisoDeGol? {
            guard cuando, !foto.momentos.contains(tipo) else { return nil }
            foto.momentos.append(tipo)
            return AvisoDeGol.momento(
                tipo, local: partido.local, visitante: partido.visitante,
                partidoId: partidoId, minuto: minutoActual, marcador: marcador(hasta: limite),
                desenlace: desenlace)
        }
        var avisos: [AvisoDeGol] = []
        if let inicio = momento(
            .inicio, cuando: partido.estado.empezado && base.estado == .programado)
        {
            avisos.append(inicio)
        }
        // A match already under way when first seen still counts as started.
        if partido.estado.empezado && !foto.momentos.contains(.inicio) {
            foto.momentos.append(.inicio)
        }
        let cambios = goles(
            base.goles, partido: partido, partidoId: partidoId,
            minuto: MinutoDeJuego(partido.minuto ?? minutoEstimado ?? 1))
        foto.goles = cambios.quedan
        for gol in cambios.anulados {
            avisos.append(
                AvisoDeGol.anulacion(de: gol.aviso(partidoId: partidoId), marcador: marcadorActual))
        }
        avisos += cambios.corregidos
        // Extra time and the shoot-out begin after the goals of the minutes before them: a
        // poll that spans both says them in the order they happened.
        var enOrden: [(clave: Double, aviso: AvisoDeGol)] = cambios.nuevos.map {
            (Double($0.minuto.minuto), $0)
        }
        // Each sending-off once, among the goals by its minute, with the score it found.
        var avisadas = base.rojas ?? []
        for tarjeta in partido.rojas ?? [] where !avisadas.contains(tarjeta.identificador) {
            avisadas.append(tarjeta.identificador)
            enOrden.append(
                (
                    Double(tarjeta.minuto.minuto),
                    AvisoDeGol.roja(
                        tarjeta, partidoId: partidoId,
                        marcador: marcador(hasta: tarjeta.minuto.minuto))
                ))
        }
        foto.rojas = avisadas.isEmpty ? base.rojas : avisadas
        // Each side's lineup once, when first published (before kick-off, as a rule).
        var publicadas = base.alineaciones ?? []
        for lado in [Lado.local, .visitante] {
            guard let alineacion = partido.alineaciones[lado], !alineacion.titulares.isEmpty,
                !publicadas.contains(lado.rawValue)
            else { continue }
            publicadas.append(lado.rawValue)
            avisos.append(
                AvisoDeGol.alineacion(
                    equipo: lado == .local ? partido.local : partido.visitante, lado: lado,
                    formacion: alineacion.formacion, titulares: alineacion.titulares,
                    partidoId: partidoId))
        }
        foto.alineaciones = publicadas.isEmpty ? base.alineaciones : publicadas
        if let prorroga = momento(
            .prorroga, cuando: partido.estado == .prorroga, hasta: Duracion.porDefecto)
        {
            enOrden.append((90.5, prorroga))
        }
        if let penaltis = momento(.penaltis, cuando: partido.estado == .penaltis) {
            enOrden.append((120.5, penaltis))
        }
        avisos += enOrden.enumerated().sorted {
            ($0.element.clave, $0.offset) < ($1.element.clave, $1.offset)
        }
        .map(\.element.aviso)
        if let descanso = momento(.descanso, cuando: partido.estado == .descanso) {
            avisos.append(descanso)
        }
        let conProrroga = partido.trasLaProrroga != nil || foto.momentos.contains(.prorroga)
        if let final = momento(
            .final, cuando: partido.estado == .terminado,
            desenlace: ResultadoOficial.desenlace(prorroga: conProrroga, penaltis: foto.penaltis))
        {
            avisos.append(final)
        }
        foto.marcador = marcadorActual
        if silencioso || anterior == nil && partido.estado == .terminado {
            // A first look, or a match that was over before it was first seen: nothing new.
            return (foto, [])
        }
        return (foto, avisos)
    }

    /// What the feed's goals do to the goals standing: which stay (with their facts as they
    /// are now), which are taken back, which are corrected, which are new.
    struct CambiosDeGoles {
        var quedan: [FotoDePartido.GolAvisado] = []
        var anulados: [FotoDePartido.GolAvisado] = []
        var corregidos: [AvisoDeGol] = []
        var nuevos: [AvisoDeGol] = []
    }

    /// The goals standing now against those notified: a goal keeps its identity through
    /// corrections (contract.md). The feed's goals are matched to the stored ones by content
    /// first (side and body), then by side and order (the first unmatched goal of a team with
    /// the first unmatched one it lists); a matched goal whose facts changed is a correction,
    /// a stored goal left without a match is annulled, a listed goal left without one is new.
    private static func goles(
        _ antes: [FotoDePartido.GolAvisado], partido: PartidoDelFeed, partidoId: Int,
        minuto: MinutoDeJuego
    ) -> CambiosDeGoles {
        let encuentro = Partido(
            id: partidoId, local: Equipo(partido.local), visitante: Equipo(partido.visitante),
            eventos: [])
        if let lista = partido.goles {
            var marcador = Marcador.cero
            let conMarcador = lista.map { gol -> (gol: Gol, marcador: Marcador) in
                marcador = marcador.sumando(gol.lado)
                return (gol, marcador)
            }
            let ahora = AvisoDeGol.avisos(de: conMarcador, en: encuentro)
            var libres = Array(antes.indices)
            var pareja: [Int: Int] = [:]
            for (i, aviso) in ahora.enumerated() {
                if let j = libres.firstIndex(where: { antes[$0].esElMismo(que: aviso) }) {
                    pareja[i] = libres.remove(at: j)
                }
            }
            for (i, aviso) in ahora.enumerated() where pareja[i] == nil {
                if let j = libres.firstIndex(where: { antes[$0].lado == (aviso.lado ?? .local) }) {
                    pareja[i] = libres.remove(at: j)
                }
            }
            var cambios = CambiosDeGoles()
            cambios.anulados = libres.map { antes[$0] }
            // A new goal never takes an identifier a standing goal holds: it would replace
            // that goal's alert downstream.
            var enUso = Set(pareja.values.map { antes[$0].identificador })
            for (i, aviso) in ahora.enumerated() {
                if let j = pareja[i] {
                    var gol = FotoDePartido.GolAvisado(aviso)
                    gol.identificador = antes[j].identificador
                    if !antes[j].esElMismo(que: aviso) {
                        cambios.corregidos.append(
                            AvisoDeGol.correccion(de: antes[j].identificador, ahora: aviso))
                    }
                    cambios.quedan.append(gol)
                } else {
                    var nuevo = aviso
                    var repeticion = 1
                    while enUso.contains(nuevo.identificador) {
                        repeticion += 1
                        nuevo = nuevo.conIdentificador("\(aviso.identificador)-\(repeticion)")
                    }
                    enUso.insert(nuevo.identificador)
                    cambios.nuevos.append(nuevo)
                    cambios.quedan.append(FotoDePartido.GolAvisado(nuevo))
                }
            }
            return cambios
        }
        // Only the score: each side's goals are counted; one more is a goal of that team at
        // this minute, one fewer takes back its latest goal.
        guard let marcador = partido.marcador else { return CambiosDeGoles(quedan: antes) }
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
        return CambiosDeGoles(quedan: quedan, anulados: anulados, nuevos: nuevos)
    }
}
