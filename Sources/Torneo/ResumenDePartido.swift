/// One line of `marcador partidos`: a match and how its latest run stands.
public struct ResumenDePartido: Sendable, Hashable {
    public var id: Int
    public var local: String
    public var visitante: String
    public var competicion: String?
    /// `2018-06-14`, for imported matches.
    public var fecha: String?
    /// `18:00 UTC+3`, `21:00`: the kick-off as the file gives it.
    public var hora: String?
    /// The result the file gives, for imported matches that were played.
    public var oficial: ResultadoOficial?
    /// Whether the match has a run (it was played here, or is being played).
    public var conEjecucion: Bool
    /// Followed live (`marcador directo`): where it stands and its minute, as its feed says.
    public var directo: EstadoEnDirecto?
    public var minutoDirecto: Int?
    /// Its added time (`45+2`), 0 when the feed gives none.
    public var anadidoDirecto = 0
    /// The latest run's state (`sinEmpezar` without one).
    public var estado: EstadoDelPartido
    public var minuto: Int
    /// Goals from the script played so far.
    public var goles: Marcador
    /// Goals added by hand (`gol-a-mano`).
    public var golesAMano: Marcador
    public var duracion: Int

    public init(
        id: Int, local: String, visitante: String, competicion: String?, fecha: String? = nil,
        hora: String? = nil, oficial: ResultadoOficial? = nil, conEjecucion: Bool = false,
        estado: EstadoDelPartido, minuto: Int, goles: Marcador, golesAMano: Marcador,
        duracion: Int
    ) {
        self.fecha = fecha
        self.hora = hora
        self.oficial = oficial
        self.conEjecucion = conEjecucion
        self.id = id
        self.local = local
        self.visitante = visitante
        self.competicion = competicion
        self.estado = estado
        self.minuto = minuto
        self.goles = goles
        self.golesAMano = golesAMano
        self.duracion = duracion
    }

    /// The run's score: scripted plus manual goals.
    public var marcador: Marcador { goles + golesAMano }

    /// When it kicks off, if the file says.
    public var saque: Saque? { Saque(fecha: fecha, hora: hora) }

    // MARK: - What lists show (import.md: what happened is shown as it happened)

    /// Being played for real, followed from a feed, and not replayed here.
    public var enDirecto: Bool {
        !conEjecucion && directo != nil && directo != .terminado
    }

    /// The official result, once the match is over: a match still being played for real (its
    /// feed says it has not finished) has a score, not a result (issue 42: «Resultado oficial»
    /// showed mid-match, and did not update).
    public var resultadoOficial: ResultadoOficial? {
        directo == nil || directo == .terminado ? oficial : nil
    }

    /// Played for real (an official score) and never replayed here: shown as finished.
    public var jugadoSinRepetir: Bool { !conEjecucion && !enDirecto && oficial?.marcador != nil }

    /// A run of a match that was really played: shown as a replay beside the official result.
    public var esRepeticion: Bool { conEjecucion && oficial?.marcador != nil }

    public var estadoMostrado: EstadoDelPartido {
        if enDirecto, let directo {
            return directo.empezado ? .enJuego : .sinEmpezar
        }
        return jugadoSinRepetir ? .terminado : estado
    }

    /// `Terminado` (the official result), `Partido terminado (repetición)`, `En juego`,
    /// `Descanso`…
    public var textoDeEstado: String {
        if enDirecto, let directo {
            // The shoot-out's tally, kick by kick (contract.md: shown live).
            if directo == .penaltis, let tanda = oficial?.penaltis {
                return "\(directo.texto) (\(tanda))"
            }
            return directo.texto
        }
        if jugadoSinRepetir { return "Terminado" }
        return esRepeticion ? "\(estado.texto) (repetición)" : estado.texto
    }

    public var marcadorMostrado: Marcador {
        jugadoSinRepetir || enDirecto ? (oficial?.marcador ?? marcador) : marcador
    }

    public var minutoMostrado: Int {
        if enDirecto { return minutoDirecto ?? 0 }
        return jugadoSinRepetir ? duracion : minuto
    }

    /// The minute as football writes it: `45+2` while a live match is in added time.
    public var minutoDeJuegoMostrado: MinutoDeJuego {
        MinutoDeJuego(minutoMostrado, anadido: enDirecto ? anadidoDirecto : 0)
    }

    /// The added time to show after the minute, if any (JSON leaves the key out otherwise).
    public var anadidoMostrado: Int? {
        minutoDeJuegoMostrado.anadido > 0 ? minutoDeJuegoMostrado.anadido : nil
    }

    /// What the minute is out of: a live match in extra time or its shoot-out is played to
    /// 120 (`105 de 120`), whatever its stored duration says before the feed tells the end.
    public var duracionMostrada: Int {
        guard enDirecto, let directo else { return duracion }
        return directo.trasLosNoventa || (minutoDirecto ?? 0) > Duracion.porDefecto
            ? Duracion.conProrroga : duracion
    }
}
