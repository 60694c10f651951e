import Persistencia
import Torneo

/// What `partidos` (and the web list) asks for; names are the user's, found by the core.
public struct FiltroDePartidos: Sendable, Hashable {
    public var competicion: String?
    public var equipo: String?
    /// `AAAA-MM-DD`.
    public var fecha: String?
    /// A status key (`en_juego`, `terminado`…).
    public var estado: String?

    public init(
        competicion: String? = nil, equipo: String? = nil, fecha: String? = nil,
        estado: String? = nil
    ) {
        self.competicion = competicion
        self.equipo = equipo
        self.fecha = fecha
        self.estado = estado
    }
}

/// Everything the match card shows (DESIGN §10).
public struct FichaCompleta: Sendable {
    public var ficha: FichaDePartido
    /// How its latest run stands (as in `partidos`).
    public var resumen: ResumenDePartido?
    /// The script as a timeline, with the score after each goal.
    public var goles: [GolDeLaLinea]
    /// Every run, oldest first.
    public var ejecuciones: [EjecucionGuardada]
}

/// One goal of a timeline, with the score it left.
public struct GolDeLaLinea: Sendable, Hashable, Encodable {
    public var minuto: String
    public var jugador: String
    public var equipo: String
    public var penalti: Bool
    public var enPropiaPuerta: Bool
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
                    enPropiaPuerta: gol.enPropiaPuerta, marcador: marcador.description))
        }
        return goles
    }
}

/// A group's (or a league's) table, computed from results.
public struct TablaDeGrupo: Sendable {
    public var grupo: String
    public var filas: [Clasificacion.Fila]
}

/// The fan views of DESIGN §10: what every front end shows, computed once here.
extension Nucleo {
    /// Every match that passes `filtro`, with how its latest run stands, one at a time (a list
    /// of 100,000 matches is never held whole).
    /// - Throws: `Fallo.noEncontrado` for a competition or team that matches nothing.
    public func recorrerPartidos(
        _ filtro: FiltroDePartidos, _ visitar: (ResumenDePartido) throws -> Void
    ) throws {
        let competicion = try filtro.competicion.map(buscarCompeticion)
        let equipo = try filtro.equipo.map(buscarEquipo)
        let (fecha, estado) = (filtro.fecha, filtro.estado)
        try tienda.partidos.recorrerResumenes(competicion: competicion) { resumen in
            guard
                equipo == nil || resumen.local == equipo || resumen.visitante == equipo,
                fecha == nil || resumen.fecha == fecha,
                estado == nil || resumen.estado.clave == estado
            else { return }
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
            ejecuciones: try tienda.ejecuciones.todas(partido: id))
    }

    /// Every competition with its counts.
    public func competiciones() throws -> [ResumenDeCompeticion] {
        try tienda.partidos.competiciones()
    }

    /// The group tables of a competition, or only the groups `grupo` names (`A`, `Group A`).
    /// - Returns: the competition's stored name and its tables.
    public func clasificacion(competicion texto: String, grupo: String? = nil) throws -> (
        competicion: String, tablas: [TablaDeGrupo]
    ) {
        let nombre = try buscarCompeticion(texto)
        let fichas = try tienda.partidos.fichas(competicion: nombre, conEventos: false)
        var grupos: [String: [FichaDePartido]] = [:]
        for ficha in fichas {
            if let grupo = ficha.grupo { grupos[grupo, default: []].append(ficha) }
        }
        guard !grupos.isEmpty else {
            throw Fallo.noEncontrado("La competición \(citado(nombre)) no tiene grupos.")
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
        let tablas = elegidos.map { grupo -> TablaDeGrupo in
            let partidos = grupos[grupo]!
            let equipos = Set(
                partidos.flatMap { [$0.partido.local.nombre, $0.partido.visitante.nombre] })
            let resultados = partidos.compactMap { ficha in
                ficha.resultado.map {
                    (
                        local: ficha.partido.local.nombre,
                        visitante: ficha.partido.visitante.nombre, marcador: $0
                    )
                }
            }
            return TablaDeGrupo(
                grupo: grupo, filas: Clasificacion.calcular(resultados, equipos: Array(equipos)))
        }
        return (nombre, tablas)
    }

    /// The top scorers of a competition, the first `limite`; tied players share a position
    /// (1, 2, 2, 4…).
    public func goleadores(competicion texto: String, limite: Int) throws -> (
        competicion: String, filas: [(posicion: Int, fila: Goleadores.Fila)]
    ) {
        let nombre = try buscarCompeticion(texto)
        let filas = Goleadores.contar(
            try tienda.partidos.fichas(competicion: nombre, conEventos: true).map(\.partido))
        var posiciones: [Int] = []
        for (i, fila) in filas.enumerated() {
            posiciones.append(i > 0 && filas[i - 1].goles == fila.goles ? posiciones[i - 1] : i + 1)
        }
        return (nombre, Array(zip(posiciones, filas).prefix(limite)).map { ($0.0, $0.1) })
    }

    /// The log, oldest first: of one match (which must exist), the last `ultimas` lines.
    public func registro(partido: Int?, ultimas: Int?) throws -> [LineaDeRegistro] {
        if let partido { _ = try partidoExistente(partido) }
        return try tienda.lineasDelRegistro(partido: partido, limite: ultimas)
    }
}
