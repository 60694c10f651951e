import Persistencia
import Torneo

/// `PartidosRepositorio` over a SQL store: matches with their scripts, and the settings table.
public struct PartidosSQL<Cola: ColaSQL>: PartidosRepositorio {
    public let queue: Cola

    public init(_ queue: Cola) { self.queue = queue }

    public func partidos(competicion: String?) throws -> [Partido] {
        try queue.read { db in
            let cabeceras = try db.rows(
                """
                SELECT p.id, l.nombre, v.nombre, p.competicion, p.prorroga
                FROM partido p
                JOIN equipo l ON l.id = p.local_id
                JOIN equipo v ON v.id = p.visitante_id
                WHERE CAST(?1 AS TEXT) IS NULL OR p.competicion = ?1
                ORDER BY p.id
                """, competicion, map: Self.cabecera)
            let eventos = try Self.eventos(db, partidoId: nil)
            return cabeceras.map { partido in
                var partido = partido
                partido.eventos = eventos[partido.id] ?? []
                return partido
            }
        }
    }

    public func partido(id: Int) throws -> Partido? {
        try queue.read { db in
            guard
                var partido = try db.row(
                    """
                    SELECT p.id, l.nombre, v.nombre, p.competicion, p.prorroga
                    FROM partido p
                    JOIN equipo l ON l.id = p.local_id
                    JOIN equipo v ON v.id = p.visitante_id
                    WHERE p.id = ?
                    """, id, map: Self.cabecera)
            else { return nil }
            partido.eventos = try Self.eventos(db, partidoId: id)[id] ?? []
            return partido
        }
    }

    private static func cabecera(_ fila: some FilaSQL) -> Partido {
        Partido(
            id: fila.int(0),
            local: Equipo(fila.string(1)),
            visitante: Equipo(fila.string(2)),
            eventos: [],
            competicion: fila.optionalString(3),
            tieneProrroga: fila.bool(4))
    }

    /// Scripts grouped by match, in script order (`orden`); one query whatever the match count.
    private static func eventos(
        _ db: some BaseSQL, partidoId: Int?, competicion: String? = nil
    )
        throws -> [Int: [EventoDePartido]]
    {
        var porPartido: [Int: [EventoDePartido]] = [:]
        let filas = try db.rows(
            """
            SELECT e.partido_id, e.minuto, e.anadido, j.nombre, eq.nombre, e.lado,
                   e.penalti, e.en_propia_puerta, e.adjunto
            FROM evento e
            JOIN jugador j ON j.id = e.jugador_id
            JOIN equipo eq ON eq.id = j.equipo_id
            WHERE (CAST(?1 AS BIGINT) IS NULL OR e.partido_id = ?1)
              AND (CAST(?2 AS TEXT) IS NULL
                OR e.partido_id IN (SELECT id FROM partido WHERE competicion = ?2))
            ORDER BY e.partido_id, e.orden
            """, partidoId, competicion
        ) { fila in
            let gol = Gol(
                minuto: MinutoDeJuego(fila.int(1), anadido: fila.int(2)),
                jugador: Jugador(fila.string(3), de: Equipo(fila.string(4))),
                lado: Lado(rawValue: fila.string(5)) ?? .local,
                penalti: fila.bool(6),
                enPropiaPuerta: fila.bool(7),
                adjunto: fila.optionalString(8))
            return (fila.int(0), EventoDePartido.gol(gol))
        }
        for (id, evento) in filas { porPartido[id, default: []].append(evento) }
        return porPartido
    }

    public func ajustes() throws -> Ajustes {
        try queue.read { db in try ClaveDeAjuste.ajustes(db) }
    }

    /// Whether goal notices may be published: what each dispatcher batch asks, so one row.
    public func avisosPermitidos() throws -> Bool {
        try queue.read { db in
            try db.scalarString("SELECT valor FROM ajuste WHERE clave = ?", ClaveDeAjuste.permiso)
                == "1"
        }
    }

    public func guardar(_ ajustes: Ajustes) throws {
        try queue.write { db in
            let sql = ClaveDeAjuste.guardar
            try db.execute(sql, ClaveDeAjuste.duracion, String(ajustes.duracion))
            try db.execute(sql, ClaveDeAjuste.msPorMinuto, String(ajustes.msPorMinuto))
            try db.execute(sql, ClaveDeAjuste.silencio, ajustes.sinAvisosEnPrimerPlano ? "1" : "0")
            try db.execute(sql, ClaveDeAjuste.plazoDeAdjuntos, String(ajustes.plazoDeAdjuntos))
            try db.execute(sql, ClaveDeAjuste.diasDeRegistro, String(ajustes.diasDeRegistro))
            try db.execute(sql, ClaveDeAjuste.lineasDeRegistro, String(ajustes.lineasDeRegistro))
            if let permiso = ajustes.avisosPermitidos {
                try db.execute(sql, ClaveDeAjuste.permiso, permiso ? "1" : "0")
            } else {
                try db.execute("DELETE FROM ajuste WHERE clave = ?", ClaveDeAjuste.permiso)
            }
            try RegistroDeCambios.anotar(.ajustes, en: db)
        }
    }

}

/// Keys of the `ajuste` table.
enum ClaveDeAjuste {
    static let duracion = "duracion"
    static let msPorMinuto = "ms_por_minuto"
    static let silencio = "sin_avisos_en_primer_plano"
    static let permiso = "avisos_permitidos"
    static let plazoDeAdjuntos = "plazo_de_adjuntos"
    static let diasDeRegistro = "registro_dias"
    static let lineasDeRegistro = "registro_lineas"

    static func ajustes(_ db: some BaseSQL) throws -> Ajustes {
        let pares = try db.rows("SELECT clave, valor FROM ajuste") { ($0.string(0), $0.string(1)) }
        let valores = Dictionary(pares, uniquingKeysWith: { _, ultimo in ultimo })
        var ajustes = Ajustes()
        if let valor = valores[duracion].flatMap(Int.init) { ajustes.duracion = valor }
        if let valor = valores[msPorMinuto].flatMap(Int.init) { ajustes.msPorMinuto = valor }
        if let valor = valores[silencio] { ajustes.sinAvisosEnPrimerPlano = valor == "1" }
        if let valor = valores[permiso] { ajustes.avisosPermitidos = valor == "1" }
        if let valor = valores[plazoDeAdjuntos].flatMap(Double.init) {
            ajustes.plazoDeAdjuntos = valor
        }
        if let valor = valores[diasDeRegistro].flatMap(Int.init) {
            ajustes.diasDeRegistro = valor
        }
        if let valor = valores[lineasDeRegistro].flatMap(Int.init) {
            ajustes.lineasDeRegistro = valor
        }
        return ajustes
    }

    /// Sets one key (an upsert both stores understand).
    static let guardar = """
        INSERT INTO ajuste (clave, valor) VALUES (?, ?)
        ON CONFLICT (clave) DO UPDATE SET valor = excluded.valor
        """
}

// MARK: - Resúmenes

extension PartidosSQL {
    /// Every match with the standing of its latest run, for `marcador partidos`; one query
    /// that reads only the columns the list shows (it may walk 100,000 rows).
    public func recorrerResumenes(
        competicion: String?, _ visitar: (ResumenDePartido) throws -> Void
    ) throws {
        let duracionPorDefecto = try ajustes().duracion
        try queue.read { db in
            func leer(_ fila: Cola.Base.Fila) throws {
                let prorroga = fila.bool(4)
                var resumen = ResumenDePartido(
                    id: fila.int(0), local: fila.string(1), visitante: fila.string(2),
                    competicion: fila.optionalString(3), fecha: fila.optionalString(5),
                    estado: .sinEmpezar, minuto: 0, goles: .cero, golesAMano: .cero,
                    duracion: Duracion.segunAjuste(duracionPorDefecto, conProrroga: prorroga))
                if !fila.isNull(6) {
                    let estado = EjecucionGuardada.Estado(rawValue: fila.string(6)) ?? .cancelado
                    let vivo =
                        estado == .enJuego && !fila.isNull(13)
                        && Propietario(
                            anfitrion: fila.optionalString(15) ?? "", pid: fila.int(13),
                            inicio: fila.optionalInt(14) ?? 0
                        ).sigueVivo(
                            latidoHace: fila.isNull(16) ? nil : fila.double(16),
                            msPorMinuto: fila.int(17))
                    resumen.minuto = fila.int(7)
                    resumen.estado = EjecucionGuardada.estadoDelPartido(
                        estado, minuto: resumen.minuto, propietarioVivo: vivo)
                    resumen.goles = Marcador(local: fila.int(8), visitante: fila.int(9))
                    resumen.golesAMano = Marcador(local: fila.int(10), visitante: fila.int(11))
                    if estado != .sinEmpezar { resumen.duracion = fila.int(12) }
                }
                try visitar(resumen)
            }
            if let competicion {
                try db.forEachRow(
                    Self.resumenesDeUnaCompeticion(db.dialecto), competicion, body: leer)
            } else {
                try db.forEachRow(Self.resumenesDeTodas(db.dialecto), body: leer)
            }
        }
    }

    private static func seleccionDeResumenes(_ dialecto: Dialecto) -> String {
        """
        SELECT p.id, l.nombre, v.nombre, p.competicion, p.prorroga, p.fecha, e.estado, e.minuto,
            e.goles_local, e.goles_visitante, e.mano_local, e.mano_visitante, e.duracion, e.pid,
            e.pid_inicio, e.anfitrion, \(dialecto.segundosDesde("e.latido")), e.ms_por_minuto
        FROM partido p
        JOIN equipo l ON l.id = p.local_id
        JOIN equipo v ON v.id = p.visitante_id
        LEFT JOIN ejecucion e ON e.id = (SELECT max(id) FROM ejecucion WHERE partido_id = p.id)
        """
    }
    /// Two statements rather than `?1 IS NULL OR …`: the whole list then scans without a
    /// predicate to test on every row.
    private static func resumenesDeUnaCompeticion(_ dialecto: Dialecto) -> String {
        seleccionDeResumenes(dialecto) + " WHERE p.competicion = ? ORDER BY p.id"
    }
    private static func resumenesDeTodas(_ dialecto: Dialecto) -> String {
        seleccionDeResumenes(dialecto) + " ORDER BY p.id"
    }
}

// MARK: - Fichas

extension PartidosSQL {
    public func fichas(competicion: String?, conEventos: Bool) throws -> [FichaDePartido] {
        try queue.read { db in
            var fichas = try db.rows(
                """
                \(Self.consultaDeFichas) WHERE CAST(?1 AS TEXT) IS NULL OR p.competicion = ?1 ORDER BY p.id
                """, competicion, map: Self.ficha)
            if conEventos {
                let eventos = try Self.eventos(db, partidoId: nil, competicion: competicion)
                for i in fichas.indices {
                    fichas[i].partido.eventos = eventos[fichas[i].partido.id] ?? []
                }
            }
            return fichas
        }
    }

    public func ficha(id: Int) throws -> FichaDePartido? {
        try queue.read { db in
            guard
                var ficha = try db.row(
                    "\(Self.consultaDeFichas) WHERE p.id = ?", id, map: Self.ficha)
            else { return nil }
            ficha.partido.eventos = try Self.eventos(db, partidoId: id)[id] ?? []
            return ficha
        }
    }

    public func competiciones() throws -> [ResumenDeCompeticion] {
        try queue.read { db in
            try db.rows(
                """
                SELECT p.competicion, count(*), sum(p.con_guion),
                    sum(CASE WHEN EXISTS (SELECT 1 FROM ejecucion e
                        WHERE e.partido_id = p.id AND e.estado = 'terminado') THEN 1 ELSE 0 END),
                    (SELECT count(*) FROM evento v JOIN partido q ON q.id = v.partido_id
                     WHERE q.competicion = p.competicion
                        OR (q.competicion IS NULL AND p.competicion IS NULL))
                FROM partido p GROUP BY p.competicion ORDER BY p.competicion IS NULL, p.competicion
                """
            ) {
                ResumenDeCompeticion(
                    nombre: $0.optionalString(0), partidos: $0.int(1), conGoles: $0.int(2),
                    jugados: $0.int(3), goles: $0.int(4))
            }
        }
    }

    public func equipos() throws -> [String] {
        try queue.read { db in
            try db.rows("SELECT nombre FROM equipo ORDER BY nombre") { $0.string(0) }
        }
    }

    /// A match with its metadata, official result and how its latest finished run ended.
    private static var consultaDeFichas: String {
        """
        SELECT p.id, l.nombre, v.nombre, p.competicion, p.prorroga, p.ronda, p.fecha, p.hora,
            p.grupo, p.estadio, p.ft_local, p.ft_visitante, p.et_local, p.et_visitante,
            p.penaltis_local, p.penaltis_visitante, p.con_guion, t.goles_local + t.mano_local,
            t.goles_visitante + t.mano_visitante
        FROM partido p
        JOIN equipo l ON l.id = p.local_id
        JOIN equipo v ON v.id = p.visitante_id
        LEFT JOIN ejecucion t ON t.id = (
            SELECT max(id) FROM ejecucion WHERE partido_id = p.id AND estado = 'terminado')
        """
    }

    private static func ficha(_ fila: some FilaSQL) -> FichaDePartido {
        func marcador(_ i: Int) -> Marcador? {
            fila.isNull(i) ? nil : Marcador(local: fila.int(i), visitante: fila.int(i + 1))
        }
        let oficial = ResultadoOficial(
            final: marcador(10), prorroga: marcador(12), penaltis: marcador(14))
        return FichaDePartido(
            partido: Partido(
                id: fila.int(0), local: Equipo(fila.string(1)), visitante: Equipo(fila.string(2)),
                eventos: [], competicion: fila.optionalString(3), tieneProrroga: fila.bool(4)),
            ronda: fila.optionalString(5), fecha: fila.optionalString(6),
            hora: fila.optionalString(7),
            grupo: fila.optionalString(8), estadio: fila.optionalString(9),
            oficial: oficial.final == nil && oficial.prorroga == nil && oficial.penaltis == nil
                ? nil : oficial,
            conGuion: fila.bool(16), ultimoJugado: marcador(17))
    }
}
