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
                SELECT \(Partido.columnasDeCabecera)
                FROM partido p
                JOIN equipo l ON l.id = p.local_id
                JOIN equipo v ON v.id = p.visitante_id
                WHERE CAST(?1 AS TEXT) IS NULL OR p.competicion = ?1
                ORDER BY p.id
                """, competicion
            ) { Partido(cabecera: $0) }
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
                    SELECT \(Partido.columnasDeCabecera)
                    FROM partido p
                    JOIN equipo l ON l.id = p.local_id
                    JOIN equipo v ON v.id = p.visitante_id
                    WHERE p.id = ?
                    """, id, map: { Partido(cabecera: $0) })
            else { return nil }
            partido.eventos = try Self.eventos(db, partidoId: id)[id] ?? []
            return partido
        }
    }

    /// Scripts grouped by match, in script order (`orden`); one query whatever the match count.
    private static func eventos(
        _ db: some BaseSQL, partidoId: Int?, competicion: String? = nil
    )
        throws -> [Int: [EventoDePartido]]
    {
        var porPartido: [Int: [EventoDePartido]] = [:]
        // One statement per kind of filter, not one with `?1 IS NULL OR …`: the planners
        // cannot use an index through such an OR, and one competition's goals were read by
        // scanning every stored season's (issue 42).
        let filtro: String
        let argumentos: [any DatabaseValueConvertible]
        if let partidoId {
            (filtro, argumentos) = ("WHERE e.partido_id = ?", [partidoId])
        } else if let competicion {
            (filtro, argumentos) = (
                "WHERE e.partido_id IN (SELECT id FROM partido WHERE competicion = ?)",
                [competicion]
            )
        } else {
            (filtro, argumentos) = ("", [])
        }
        let filas = try db.rows(
            """
            SELECT \(Gol.columnas), e.tipo, e.doble_amarilla, e.asistencia, e.sale
            FROM evento e
            JOIN jugador j ON j.id = e.jugador_id
            JOIN equipo eq ON eq.id = j.equipo_id
            \(filtro)
            ORDER BY e.partido_id, e.orden
            """, arguments: argumentos
        ) { fila in
            (
                fila.int("partido_id"),
                try EventoDePartido(fila: fila)
            )
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
        try queue.write { db in try Self.guardar(ajustes, db) }
    }

    @discardableResult
    public func actualizarAjustes(_ cambio: (inout Ajustes) -> Void) throws -> Ajustes {
        try queue.write { db in
            var ajustes = try ClaveDeAjuste.ajustes(db)
            cambio(&ajustes)
            try Self.guardar(ajustes, db)
            return ajustes
        }
    }

    private static func guardar(_ ajustes: Ajustes, _ db: borrowing Cola.Base) throws {
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
        let pares = try db.rows("SELECT clave, valor FROM ajuste") {
            ($0.string("clave"), $0.string("valor"))
        }
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
        competicion: String?, inicio: ClosedRange<Int>?,
        _ visitar: (ResumenDePartido) throws -> Void
    ) throws {
        let duracionPorDefecto = try ajustes().duracion
        try queue.read { db in
            var lector: LectorDeResumenes?
            func leer(_ fila: Cola.Base.Fila) throws {
                let columnas = lector ?? LectorDeResumenes(fila)
                lector = columnas
                try visitar(columnas.leer(fila, duracionPorDefecto: duracionPorDefecto))
            }
            // Undated matches first (the seed's, hand-made ones), by id; then by kick-off. Two
            // statements, each walking an index in order, so the list streams without a sort.
            var argumentos: [any DatabaseValueConvertible] = []
            var condiciones = ""
            if let competicion {
                condiciones += " AND p.competicion = ?"
                argumentos.append(competicion)
            }
            if inicio == nil {
                try db.forEachRow(
                    Self.seleccionDeResumenes(db.dialecto) + " WHERE p.inicio IS NULL"
                        + condiciones + " ORDER BY p.id", arguments: argumentos, body: leer)
            }
            if let inicio {
                condiciones += " AND p.inicio BETWEEN ? AND ?"
                argumentos += [inicio.lowerBound, inicio.upperBound]
            }
            try db.forEachRow(
                Self.seleccionDeResumenes(db.dialecto) + " WHERE p.inicio IS NOT NULL"
                    + condiciones + " ORDER BY p.inicio, p.id", arguments: argumentos, body: leer)
        }
    }

    private static func seleccionDeResumenes(_ dialecto: Dialecto) -> String {
        """
        SELECT \(LectorDeResumenes.columnas(dialecto))
        FROM partido p
        JOIN equipo l ON l.id = p.local_id
        JOIN equipo v ON v.id = p.visitante_id
        LEFT JOIN ejecucion e ON e.id = (SELECT max(id) FROM ejecucion WHERE partido_id = p.id)
        """
    }
}

// MARK: - Fichas

extension PartidosSQL {
    public func fichas(competicion: String?, conEventos: Bool) throws -> [FichaDePartido] {
        try queue.read { db in
            // With the competition, through its index (see `eventos`).
            var fichas =
                try competicion.map { competicion in
                    try db.rows(
                        "\(Self.consultaDeFichas) WHERE p.competicion = ? ORDER BY p.id",
                        competicion
                    ) { FichaDePartido(fila: $0) }
                }
                ?? db.rows("\(Self.consultaDeFichas) ORDER BY p.id") { FichaDePartido(fila: $0) }
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
                    "\(Self.consultaDeFichas) WHERE p.id = ?", id,
                    map: { FichaDePartido(fila: $0) })
            else { return nil }
            ficha.partido.eventos = try Self.eventos(db, partidoId: id)[id] ?? []
            return ficha
        }
    }

    public func goles(competicion: String) throws -> (
        porJugador: [Goleadores.Fila], partidos: Int, sinLista: Int
    ) {
        try queue.read { db in
            // Summed where the rows are: a season's thousands of goals never cross into
            // Swift one by one (issue 42: the list cost 4.7 times `sqlite3`'s). Grouped by the
            // goal's own column before the names are joined: grouping by the joined names made
            // SQLite sort wider rows (95 ms against 43 for 25,000 goals).
            let filas = try db.rows(
                """
                SELECT j.nombre AS jugador, eq.nombre AS equipo, g.goles, g.penaltis
                FROM (
                    SELECT jugador_id, count(*) AS goles, CAST(sum(penalti) AS bigint) AS penaltis
                    FROM evento
                    WHERE partido_id IN (SELECT id FROM partido WHERE competicion = ?)
                        AND tipo = 'gol' AND en_propia_puerta = 0
                    GROUP BY jugador_id
                ) g
                JOIN jugador j ON j.id = g.jugador_id
                JOIN equipo eq ON eq.id = j.equipo_id
                """, competicion
            ) { fila in
                Goleadores.Fila(
                    jugador: fila.nombre("jugador"), equipo: fila.nombre("equipo"),
                    goles: fila.int("goles"), penaltis: fila.int("penaltis"))
            }
            let cuentas = try db.row(
                """
                SELECT count(*) AS partidos,
                    CAST(coalesce(sum(1 - con_guion), 0) AS bigint) AS sin_lista
                FROM partido WHERE competicion = ?
                """, competicion
            ) { ($0.int("partidos"), $0.int("sin_lista")) }
            return (filas, cuentas?.0 ?? 0, cuentas?.1 ?? 0)
        }
    }

    public func competiciones() throws -> [ResumenDeCompeticion] {
        try queue.read { db in
            try db.rows(
                """
                SELECT p.competicion, count(*) AS partidos,
                    sum(CASE WHEN p.con_guion = 1 AND (p.ft_local IS NOT NULL
                            OR p.et_local IS NOT NULL
                            OR EXISTS (SELECT 1 FROM evento v WHERE v.partido_id = p.id AND v.tipo = 'gol'))
                        THEN 1 ELSE 0 END) AS con_goles,
                    sum(CASE WHEN p.ft_local IS NOT NULL OR p.et_local IS NOT NULL
                        OR EXISTS (SELECT 1 FROM ejecucion e
                            WHERE e.partido_id = p.id AND e.estado = 'terminado')
                        THEN 1 ELSE 0 END) AS jugados,
                    sum(CASE WHEN p.et_local IS NOT NULL THEN p.et_local + p.et_visitante
                        WHEN p.ft_local IS NOT NULL THEN p.ft_local + p.ft_visitante
                        ELSE (SELECT count(*) FROM evento v WHERE v.partido_id = p.id AND v.tipo = 'gol')
                        END) AS goles
                FROM partido p GROUP BY p.competicion ORDER BY p.competicion IS NULL, p.competicion
                """
            ) { ResumenDeCompeticion(fila: $0) }
        }
    }

    public func nombresDeCompeticiones() throws -> [String] {
        try queue.read { db in
            try db.rows(
                """
                SELECT DISTINCT competicion FROM partido
                WHERE competicion IS NOT NULL ORDER BY competicion
                """
                // As stored: the key a user's `--competicion` is matched against in SQL.
            ) { $0.string("competicion") }
        }
    }

    public func equipos() throws -> [String] {
        try queue.read { db in
            try db.rows("SELECT nombre FROM equipo ORDER BY nombre") { $0.nombre("nombre") }
        }
    }

    /// A match with its metadata, official result and how its latest finished run ended.
    private static var consultaDeFichas: String {
        """
        SELECT \(FichaDePartido.columnas)
        FROM partido p
        JOIN equipo l ON l.id = p.local_id
        JOIN equipo v ON v.id = p.visitante_id
        LEFT JOIN ejecucion t ON t.id = (
            SELECT max(id) FROM ejecucion WHERE partido_id = p.id AND estado = 'terminado')
        """
    }
}
