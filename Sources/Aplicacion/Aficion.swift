import Persistencia
import Torneo

/// What `partidos` (and the web list) asks for; names are the user's, found by the core.
public struct FiltroDePartidos: Sendable, Hashable {
    public var competicion: String?
    public var equipo: String?
    /// Kick-off days, both included, in the user's zone (the venue's day when the file gives
    /// no offset): `--fecha` is both, `--desde` and `--hasta` one each.
    public var desde: FechaDeCalendario?
    public var hasta: FechaDeCalendario?
    /// A status key (`en_juego`, `terminado`…), of what the list shows.
    public var estado: String?

    public init(
        competicion: String? = nil, equipo: String? = nil, desde: FechaDeCalendario? = nil,
        hasta: FechaDeCalendario? = nil, estado: String? = nil
    ) {
        self.competicion = competicion
        self.equipo = equipo
        self.desde = desde
        self.hasta = hasta
        self.estado = estado
    }

    /// The instants (`Saque.segundos`) the store may return for the days asked, a day wider
    /// each side: a zone is at most 14 hours from UTC, and the exact day is checked after.
    var instantes: ClosedRange<Int>? {
        guard desde != nil || hasta != nil else { return nil }
        let primero = (desde?.diasDesde1970).map { ($0 - 1) * 86_400 } ?? Int.min / 2
        let ultimo = (hasta?.diasDesde1970).map { ($0 + 2) * 86_400 } ?? Int.max / 2
        return primero <= ultimo ? primero...ultimo : 1...0
    }
}

/// Everything the match card shows (fans.md).
public struct FichaCompleta: Sendable {
    public var ficha: FichaDePartido
    /// How its latest run stands (as in `partidos`).
    public var resumen: ResumenDePartido?
    /// The script as a timeline, with the score after each goal.
    public var goles: [GolDeLaLinea]
    /// Every run, oldest first.
    public var ejecuciones: [EjecucionGuardada]
    /// What its live feed said of its goals after them («Gol anulado», «Gol corregido») and
    /// the lineups it published, oldest first (none for a scripted or imported match).
    public var delDirecto: [AvisoDeGol] = []

    /// The whole timeline: the script, cards included, and the feed's word on its goals.
    public var cronologia: [SucesoDeLaLinea] {
        SucesoDeLaLinea.de(ficha.partido, revisiones: delDirecto)
    }

    /// Each side's lineup as its feed published it: `Argentina (4-3-3): Emiliano Martínez, …`.
    public var alineaciones: [String] {
        delDirecto.filter { $0.tipo == .alineacion }.map(\.cuerpo)
    }

    /// The official result, once the match is over (`ResumenDePartido.resultadoOficial`).
    public var resultadoOficial: ResultadoOficial? {
        resumen.map(\.resultadoOficial) ?? ficha.oficial
    }
}

/// One goal of a timeline, with the score it left.
public struct GolDeLaLinea: Sendable, Hashable, Encodable {
    public var minuto: String
    public var jugador: String
    public var equipo: String
    public var penalti: Bool
    public var enPropiaPuerta: Bool
    /// The side it counts for (`local`, `visitante`): an own goal's is not its scorer's team.
    public var lado: String
    /// The score right after it.
    public var marcador: String

    /// `Messi (p)`, `Mandžukić (pp)`.
    public var jugadorConMarcas: String {
        jugador + (penalti ? " (p)" : "") + (enPropiaPuerta ? " (pp)" : "")
    }

    /// The script of `partido` as a timeline, in playing order; for a run being played, only
    /// the goals up to its minute.
    public static func de(
        _ partido: Partido, duracion: Int = Duracion.conProrroga, hastaElMinuto: Int = .max
    ) -> [GolDeLaLinea] {
        var marcador = Marcador.cero
        var goles: [GolDeLaLinea] = []
        for case .gol(let gol) in partido.eventos(hasta: duracion)
        where gol.minuto.minuto <= hastaElMinuto {
            marcador = marcador.sumando(gol.lado)
            goles.append(
                GolDeLaLinea(
                    minuto: gol.minuto.description, jugador: gol.jugador.nombre,
                    equipo: gol.jugador.equipo.nombre, penalti: gol.penalti,
                    enPropiaPuerta: gol.enPropiaPuerta, lado: gol.lado.rawValue,
                    marcador: marcador.description))
        }
        return goles
    }
}

/// A group's (or a league's) table, computed from results.
public struct TablaDeGrupo: Sendable {
    /// The group (`Group A`); `nil` for a league or a league phase.
    public var grupo: String?
    public var filas: [Clasificacion.Fila]
    /// Its matches without a result yet (not counted): a table says so rather than look
    /// complete (issue 42: Serie A's last matchday, missing from the file).
    public var sinResultado = 0
}

/// How a competition is played, as its matches tell (import.md).
public enum FormatoDeCompeticion: String, Sendable {
    /// Groups (a World Cup, a Euro): a table per group, of its group matches.
    case grupos
    /// A league season: one table of every match.
    case liga
    /// A league phase followed by knockout rounds (the Champions League since 2024): one
    /// table of the league rounds only.
    case faseDeLiga = "fase_de_liga"

    /// Whether a round is a knockout one (`Round of 16`, `Quarter-finals`, `Final`,
    /// `Knockout Play-offs`, `Octavos de final`…): by its name, the only thing files say.
    public static func esEliminatoria(_ ronda: String?) -> Bool {
        guard let ronda else { return false }
        let clave = ClaveDeNombre.de(ronda)
        return [
            "final", "round of", "play off", "playoff", "knockout", "third place", "octavos",
            "cuartos", "eliminatoria", "dieciseisavos", "tercer puesto",
        ].contains { clave.contains($0) }
    }
}

/// The fan views of fans.md: what every front end shows, computed once here.
extension Nucleo {
    /// Every match that passes `filtro`, with how its latest run stands, one at a time (a list
    /// of 100,000 matches is never held whole).
    /// - Throws: `Fallo.noEncontrado` for a competition or team that matches nothing.
    public func recorrerPartidos(
        _ filtro: FiltroDePartidos, _ visitar: (ResumenDePartido) throws -> Void
    ) throws {
        let competicion = try filtro.competicion.map(buscarCompeticion)
        let equipo = try filtro.equipo.map(buscarEquipo)
        let (desde, hasta, estado) = (filtro.desde, filtro.hasta, filtro.estado)
        if let desde, let hasta, hasta < desde { return }
        try tienda.partidos.recorrerResumenes(competicion: competicion, inicio: filtro.instantes) {
            resumen in
            guard
                equipo == nil || resumen.local == equipo || resumen.visitante == equipo,
                estado == nil || resumen.estadoMostrado.clave == estado
            else { return }
            if desde != nil || hasta != nil {
                guard let dia = resumen.saque?.diaLocal, desde.map({ $0 <= dia }) ?? true,
                    hasta.map({ dia <= $0 }) ?? true
                else { return }
            }
            try visitar(resumen)
        }
    }

    /// The matches that pass `filtro`, collected.
    public func partidos(_ filtro: FiltroDePartidos = FiltroDePartidos()) throws
        -> [ResumenDePartido]
    {
        var todos: [ResumenDePartido] = []
        try recorrerPartidos(filtro) { todos.append($0) }
        return todos
    }

    /// The card of match `id`.
    public func ficha(_ id: Int) throws -> FichaCompleta {
        guard let ficha = try tienda.partidos.ficha(id: id) else {
            _ = try partidoExistente(id)
            throw Fallo.noEncontrado("No existe el partido \(id).")
        }
        let resumen = try tienda.partidos.resumenes(competicion: ficha.partido.competicion)
            .first { $0.id == id }
        return FichaCompleta(
            ficha: ficha, resumen: resumen, goles: GolDeLaLinea.de(ficha.partido),
            ejecuciones: try tienda.ejecuciones.todas(partido: id),
            delDirecto: try tienda.buzon.avisosDelDirecto(
                partido: id, tipos: [.anulado, .corregido, .alineacion]))
    }

    /// Every competition with its counts.
    public func competiciones() throws -> [ResumenDeCompeticion] {
        try tienda.partidos.competiciones()
    }

    /// The tables of a competition (import.md): one per group, or one for a league (every
    /// match) or a league phase (its league rounds, not the knockout ones), from the official
    /// results and, for matches without one, the latest finished run.
    /// - Parameters:
    ///   - grupo: only the groups it names (`A`, `Group A`).
    ///   - campo: only home (or away) matches.
    ///   - desempate: the tie-break asked for; `nil`, the competition's own (`ReglaDeDesempate`).
    /// - Returns: the competition's stored name, its format, its tables and the tie-break used.
    public func clasificacion(
        competicion texto: String, grupo: String? = nil,
        campo: Clasificacion.Campo = .todos, desempate elegido: Clasificacion.Desempate? = nil
    ) throws -> (
        competicion: String, formato: FormatoDeCompeticion, tablas: [TablaDeGrupo],
        regla: ReglaDeDesempate
    ) {
        let nombre = try buscarCompeticion(texto)
        let regla =
            elegido.map { ReglaDeDesempate(desempate: $0, reglamento: nil, elegida: true) }
            ?? ReglaDeDesempate.de(competicion: nombre)
        let desempate = regla.desempate
        // In playing order, so each team's form reads oldest to newest. Each kick-off is read
        // from its text once, not at every comparison of the sort (10,000 matches: about 26
        // reads each, two thirds of the command's time).
        let leidas = try tienda.partidos.fichas(competicion: nombre, conEventos: false)
        let saques: [Int] = leidas.map { Saque(fecha: $0.fecha, hora: $0.hora)?.segundos ?? .min }
        let fichas = leidas.indices.sorted { a, b in
            saques[a] != saques[b] ? saques[a] < saques[b] : a < b
        }.map { leidas[$0] }
        func tabla(_ grupo: String?, _ partidos: [FichaDePartido]) -> TablaDeGrupo {
            let equipos = Set(
                partidos.flatMap { [$0.partido.local.nombre, $0.partido.visitante.nombre] })
            let resultados = partidos.compactMap { ficha in
                ficha.resultado.map {
                    Clasificacion.Resultado(
                        local: ficha.partido.local.nombre,
                        visitante: ficha.partido.visitante.nombre, marcador: $0)
                }
            }
            return TablaDeGrupo(
                grupo: grupo,
                filas: Clasificacion.calcular(
                    resultados, equipos: Array(equipos), campo: campo, desempate: desempate),
                sinResultado: partidos.count - resultados.count)
        }
        var grupos: [String: [FichaDePartido]] = [:]
        for ficha in fichas {
            if let grupo = ficha.grupo { grupos[grupo, default: []].append(ficha) }
        }
        guard !grupos.isEmpty else {
            if let grupo {
                throw Fallo.noEncontrado(
                    "La competición \(citado(nombre)) no tiene grupos (\(citado(grupo))): "
                        + "es una liga, con una sola tabla.")
            }
            // A season has a few dozen round names for hundreds of matches: each is read once.
            var eliminatorias: [String: Bool] = [:]
            let deLiga = fichas.filter { ficha in
                guard let ronda = ficha.ronda else { return true }
                if let sabido = eliminatorias[ronda] { return !sabido }
                let eliminatoria = FormatoDeCompeticion.esEliminatoria(ronda)
                eliminatorias[ronda] = eliminatoria
                return !eliminatoria
            }
            let formato: FormatoDeCompeticion = deLiga.count == fichas.count ? .liga : .faseDeLiga
            return (nombre, formato, [tabla(nil, deLiga)], regla)
        }
        var elegidos = grupos.keys.map { (grupo: $0, clave: ClaveDeNombre.de($0)) }
            .sorted { $0.clave < $1.clave }.map(\.grupo)
        if let grupo {
            let clave = ClaveDeNombre.de(grupo)
            elegidos = elegidos.filter {
                let suya = ClaveDeNombre.de($0)
                return suya == clave || suya.hasSuffix(" " + clave)
            }
            guard !elegidos.isEmpty else {
                throw Fallo.noEncontrado(
                    "No hay ningún grupo \(citado(grupo)) en \(citado(nombre)). Grupos: "
                        + grupos.keys.sorted().map { "«\(TextoSeguro.limpio($0))»" }
                        .joined(separator: ", ") + ".")
            }
        }
        return (nombre, .grupos, elegidos.map { tabla($0, grupos[$0]!) }, regla)
    }

    /// The top scorers of a competition, the first `limite` and whoever ties with the last of
    /// them (a list never stops in the middle of a tie); tied players share a position
    /// (1, 2, 2, 4…).
    /// - Returns: also how many of its matches there are and how many without a goal list
    ///   (a league file often gives results only: then there is nothing to count).
    public func goleadores(competicion texto: String, limite: Int) throws -> (
        competicion: String, filas: [(posicion: Int, fila: Goleadores.Fila)], partidos: Int,
        sinLista: Int
    ) {
        let nombre = try buscarCompeticion(texto)
        let goles = try tienda.partidos.goles(competicion: nombre)
        let filas = Goleadores.fundir(goles.porJugador, primeros: limite)
        var posiciones: [Int] = []
        for (i, fila) in filas.enumerated() {
            posiciones.append(i > 0 && filas[i - 1].goles == fila.goles ? posiciones[i - 1] : i + 1)
        }
        return (nombre, zip(posiciones, filas).map { ($0, $1) }, goles.partidos, goles.sinLista)
    }

    /// The log, oldest first: of one match (which must exist), the last `ultimas` lines.
    public func registro(partido: Int?, ultimas: Int?) throws -> [LineaDeRegistro] {
        if let partido { _ = try partidoExistente(partido) }
        return try tienda.lineasDelRegistro(partido: partido, limite: ultimas)
    }
}
