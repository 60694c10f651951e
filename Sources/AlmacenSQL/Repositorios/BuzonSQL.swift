import Persistencia
import Sistema
import Torneo

/// The outbox on a SQL store: goal notices and their delivery to each channel.
///
/// Notices are enqueued by the engine's minute transaction (`encolar`); each dispatcher lane
/// takes its channel's deliveries with `reclamar`, a single UPDATE … RETURNING that leases due
/// deliveries, so two dispatchers never hold the same delivery at once, and that skips a
/// run's later notices while an earlier one is leased, so each match's goals reach each channel
/// in order; `registrar` stores outcomes only where the lease is still the dispatcher's own.
/// On PostgreSQL the claim's subquery also skips rows another dispatcher has locked.
public struct BuzonSQL<Cola: ColaSQL>: Buzon {
    public let queue: Cola

    public init(_ queue: Cola) { self.queue = queue }

    public func encolarPrueba(canal: String?, ahora: Double) throws -> Int {
        try queue.write { db -> Int in
            let numero = (try db.scalarInt("SELECT coalesce(max(id), 0) + 1 FROM aviso")) ?? 1
            let aviso = AvisoDeGol.prueba(numero: numero)
            let permitido =
                try db.scalarString(
                    "SELECT valor FROM ajuste WHERE clave = ?", ClaveDeAjuste.permiso)
                == "1"
            let id =
                try db.scalarInt(
                    """
                    INSERT INTO aviso (tipo, identificador, titulo, cuerpo, minuto, jugador, equipo,
                        marcador_local, marcador_visitante, creado)
                    VALUES ('prueba', ?, ?, ?, 0, '', '', 0, 0, ?)
                    RETURNING id
                    """, aviso.identificador, aviso.titulo, aviso.cuerpo, ahora) ?? 0
            try db.execute(
                """
                INSERT INTO entrega (aviso_id, canal, ejecucion_id, estado, proximo_intento,
                    ultimo_error)
                SELECT CAST(?1 AS BIGINT), nombre, 0, CAST(?2 AS TEXT),
                    CAST(?3 AS DOUBLE PRECISION), CAST(?4 AS TEXT) FROM canal
                WHERE activo = 1 AND (CAST(?5 AS TEXT) IS NULL OR nombre = ?5)
                """, id, permitido ? "pendiente" : "descartada", ahora,
                permitido ? nil : "avisos de gol desactivados", canal)
            return id
        }
    }

    public func encolarRecordatorios(
        _ recordatorios: [(aviso: AvisoDeGol, saque: Double)], ahora: Double
    ) throws -> Int {
        guard !recordatorios.isEmpty else { return 0 }
        return try queue.write { db in
            try recordatorios.reduce(0) { nuevos, recordatorio in
                nuevos
                    + (try ConsultasDeAvisos.encolar(
                        db, avisos: [recordatorio.aviso], ejecucion: nil, canalesPropios: [],
                        ahora: ahora, saque: recordatorio.saque))
            }
        }
    }

    public func entregas(aviso: Int) throws -> [EntregaDeAviso] {
        try queue.read { db in try ConsultasDeAvisos.entregas(db, aviso: aviso) }
    }

    public func reclamar(_ reclamo: Reclamo) throws -> [EntregaReclamada] {
        try queue.writeIdempotente { db in
            if db.dialecto == .postgresql { return try Self.reclamarEnUnaSentencia(db, reclamo) }
            let reclamadas = try db.rows(
                """
                UPDATE entrega SET arrendatario = ?9, arrendado_hasta = ?10
                WHERE canal = ?1 AND aviso_id IN (
                    SELECT e.aviso_id FROM entrega e WHERE \(Self.reclamable)
                    ORDER BY e.aviso_id LIMIT ?8)
                RETURNING aviso_id, intentos
                """,
                arguments: Self.argumentos(reclamo) + [
                    reclamo.arrendatario, reclamo.ahora + reclamo.arriendo,
                ]
            ) { ($0.int("aviso_id"), $0.int("intentos")) }
            guard !reclamadas.isEmpty else { return [] }
            // The notices in id order, merged with the claimed deliveries in the same order.
            let ordenadas = reclamadas.sorted { $0.0 < $1.0 }
            var resultado: [EntregaReclamada] = []
            resultado.reserveCapacity(ordenadas.count)
            var siguiente = 0
            try db.forEachRow(
                """
                SELECT \(AvisoDeGol.columnas()) FROM aviso
                WHERE id IN (\(db.dialecto.enteros(de: "?"))) ORDER BY id
                """, listaJSON(ordenadas.map(\.0))
            ) { fila in
                let (aviso, id, creado) = try AvisoDeGol.leer(fila)
                while siguiente < ordenadas.count && ordenadas[siguiente].0 < id { siguiente += 1 }
                guard siguiente < ordenadas.count, ordenadas[siguiente].0 == id else { return }
                resultado.append(
                    EntregaReclamada(
                        avisoId: id, canal: reclamo.canal, intento: ordenadas[siguiente].1 + 1,
                        aviso: aviso, creado: creado))
            }
            return resultado
        }
    }

    /// A delivery a claim may lease (the claim's own rows aside): pending, due, not leased
    /// (or its lease run out), within the filters, and no earlier pending notice of its run
    /// on the channel that is not such a delivery too. Parameters: ?1 channel, ?2 due by,
    /// ?3 now, ?4 first attempts only, ?5 run, ?6 notice, ?7 notices created since (older
    /// ones hold nothing back), ?8 how many.
    private static var reclamable: String {
        """
        e.canal = ?1 AND e.estado = 'pendiente' AND e.proximo_intento <= ?2
          AND (e.arrendado_hasta IS NULL OR e.arrendado_hasta < ?3)
          AND (?4 = 0 OR e.intentos = 0)
          AND (CAST(?5 AS BIGINT) IS NULL OR e.ejecucion_id = ?5)
          AND (CAST(?6 AS BIGINT) IS NULL OR e.aviso_id = ?6)
          AND (e.ejecucion_id = 0 OR NOT EXISTS (
              SELECT 1 FROM entrega p JOIN aviso pa ON pa.id = p.aviso_id
              WHERE p.canal = ?1 AND p.ejecucion_id = e.ejecucion_id
                AND p.aviso_id < e.aviso_id AND p.estado = 'pendiente'
                AND pa.creado >= ?7
                AND NOT (p.proximo_intento <= ?2
                    AND (p.arrendado_hasta IS NULL OR p.arrendado_hasta < ?3)
                    AND (?4 = 0 OR p.intentos = 0)
                    AND (CAST(?6 AS BIGINT) IS NULL OR p.aviso_id = ?6))))
        """
    }

    /// The values of `reclamable`'s parameters, in order.
    private static func argumentos(_ reclamo: Reclamo) -> [any DatabaseValueConvertible] {
        [
            reclamo.canal, reclamo.vencidasHasta ?? reclamo.ahora, reclamo.ahora,
            reclamo.soloPrimerosIntentos, reclamo.ejecucion, reclamo.aviso,
            reclamo.ahora - reclamo.caducidad, reclamo.limite,
        ]
    }

    public func quedanReclamables(_ reclamo: Reclamo) throws -> Bool {
        // A plain read, no locks taken: rows another claim has locked this instant still count
        // (they were not leased yet), so an empty claim that raced one is tried again.
        try queue.read { db in
            let hay = try db.rows(
                "SELECT count(*) FROM (SELECT 1 FROM entrega e WHERE \(Self.reclamable) LIMIT 1) x",
                arguments: Self.argumentos(reclamo).dropLast()
            ) { $0.int(0) }
            return hay.first ?? 0 > 0
        }
    }

    /// PostgreSQL's claim: one statement, one round trip, no lock per channel. The candidates
    /// are locked with SKIP LOCKED, so claims run side by side and never take a row another
    /// claim holds; a candidate is leased only if every earlier pending notice of its run on
    /// the channel is a candidate too — one held by another claim, leased, waiting for its
    /// backoff or filtered out keeps the rest of its run back (order per match, delivery.md).
    /// That first non-candidate (`freno`) is looked up once per run, not once per candidate:
    /// one short index scan each (8.3 → 4.6 ms for a batch of 256).
    /// Rows this very claim leased (same holder, same expiry) count as due again, so a claim
    /// whose reply was lost after it committed hands back the same deliveries when rerun.
    /// The notices are read one index probe per leased row (`LATERAL … OFFSET 0`, which the
    /// planner cannot fold into a join): as a plain join, the plan made once for any batch size
    /// hashed the whole `aviso` table for every claim (20,000 rows, 15 of a claim's 25 ms).
    private static func reclamarEnUnaSentencia(_ db: borrowing Cola.Base, _ reclamo: Reclamo)
        throws -> [EntregaReclamada]
    {
        // The optional filters are written in or out rather than `?7 IS NULL OR …`: the
        // server plans a prepared statement once for any value, and with those ORs its plan
        // read the whole channel and sorted it (28 ms a claim instead of 5).
        let porEjecucion =
            reclamo.ejecucion == nil
            ? "AND CAST(?7 AS BIGINT) IS NULL" : "AND e.ejecucion_id = ?7"
        let porAviso =
            reclamo.aviso == nil ? "AND CAST(?9 AS BIGINT) IS NULL" : "AND e.aviso_id = ?9"
        var resultado: [EntregaReclamada] = []
        try db.forEachRow(
            """
            WITH candidata AS (
                SELECT e.aviso_id, e.ejecucion_id FROM entrega e
                WHERE e.canal = ?3 AND e.estado = 'pendiente' AND e.proximo_intento <= ?4
                  AND (e.arrendado_hasta IS NULL OR e.arrendado_hasta < ?5
                      OR (e.arrendatario = ?1 AND e.arrendado_hasta = ?2))
                  AND (?6 = 0 OR e.intentos = 0)
                  \(porEjecucion) \(porAviso)
                ORDER BY e.aviso_id
                LIMIT ?8 FOR UPDATE SKIP LOCKED
            ), freno AS MATERIALIZED (
                SELECT r.ejecucion_id, (
                    SELECT p.aviso_id FROM entrega p JOIN aviso pa ON pa.id = p.aviso_id
                    WHERE p.canal = ?3 AND p.ejecucion_id = r.ejecucion_id
                      AND p.estado = 'pendiente' AND pa.creado >= ?10
                      AND p.aviso_id NOT IN (SELECT aviso_id FROM candidata)
                    ORDER BY p.aviso_id LIMIT 1) AS primero
                FROM (SELECT DISTINCT ejecucion_id FROM candidata WHERE ejecucion_id <> 0) r
            ), arrendada AS (
                UPDATE entrega SET arrendatario = ?1, arrendado_hasta = ?2
                FROM candidata c LEFT JOIN freno f ON f.ejecucion_id = c.ejecucion_id
                WHERE entrega.canal = ?3 AND entrega.aviso_id = c.aviso_id
                  AND (f.primero IS NULL OR c.aviso_id < f.primero)
                RETURNING entrega.aviso_id, entrega.intentos
            )
            SELECT \(AvisoDeGol.columnas(de: "a")), r.intentos AS intentos_previos
            FROM arrendada r
            CROSS JOIN LATERAL (SELECT * FROM aviso WHERE aviso.id = r.aviso_id OFFSET 0) a
            ORDER BY a.id
            """, reclamo.arrendatario, reclamo.ahora + reclamo.arriendo, reclamo.canal,
            reclamo.vencidasHasta ?? reclamo.ahora, reclamo.ahora,
            reclamo.soloPrimerosIntentos, reclamo.ejecucion, reclamo.limite, reclamo.aviso,
            reclamo.ahora - reclamo.caducidad
        ) { fila in
            let (aviso, id, creado) = try AvisoDeGol.leer(fila)
            resultado.append(
                EntregaReclamada(
                    avisoId: id, canal: reclamo.canal, intento: fila.int("intentos_previos") + 1,
                    aviso: aviso, creado: creado))
        }
        return resultado
    }

    @discardableResult
    public func registrar(_ resultados: [ResultadoDeEntrega], arrendatario: String, ahora: Double)
        throws -> ResultadosGuardados
    {
        guard !resultados.isEmpty else { return ResultadosGuardados() }
        // Each outcome is written where the lease is still this holder's, and the write clears
        // it: run twice, the second run changes nothing (and writes no line). Outcomes with a
        // log line need a real transaction (on PostgreSQL an idempotent write commits each
        // statement alone: a restart between the outcome and its line lost the line); one
        // whose COMMIT reply is lost is known by its request id, and not run again.
        guard resultados.contains(where: { $0.anotacion != nil }) else {
            return try queue.writeIdempotente { db in
                try guardar(resultados, arrendatario: arrendatario, ahora: ahora, en: db)
            }
        }
        return try queue.writeConcurrente { db in
            try guardar(resultados, arrendatario: arrendatario, ahora: ahora, en: db)
        }
    }

    /// `registrar`'s statements, in the caller's write.
    private func guardar(
        _ resultados: [ResultadoDeEntrega], arrendatario: String, ahora: Double,
        en db: borrowing Cola.Base
    ) throws -> ResultadosGuardados {
        var guardados = 0
        var anotados: Set<Int> = []
        // Delivered ones: one statement per channel, whatever the batch size.
        let entregadas = Dictionary(
            grouping: resultados.filter { $0.desenlace == .entregada }, by: \.canal)
        for (canal, grupo) in entregadas {
            let sql = """
                UPDATE entrega SET estado = 'entregada', entregada_en = ?1, ultimo_error = NULL,
                    arrendatario = NULL, arrendado_hasta = NULL, intentos = intentos + 1
                WHERE canal = ?2 AND arrendatario = ?3
                  AND aviso_id IN (\(db.dialecto.enteros(de: "?4")))
                """
            let avisos = listaJSON(grupo.map(\.avisoId))
            guard grupo.contains(where: { $0.anotacion != nil }) else {
                try db.execute(sql, ahora, canal, arrendatario, avisos)
                guardados += db.changes
                continue
            }
            // The log channel: its lines go in with the outcomes they stand for, and only
            // for the outcomes this holder could still store.
            let hechos = Set(
                try db.rows(sql + " RETURNING aviso_id", ahora, canal, arrendatario, avisos) {
                    $0.int("aviso_id")
                })
            guardados += hechos.count
            let lineas = grupo.compactMap { resultado -> (String, Int?)? in
                guard let anotacion = resultado.anotacion, hechos.contains(resultado.avisoId)
                else { return nil }
                anotados.insert(resultado.avisoId)
                return (anotacion.texto, anotacion.partido)
            }
            try RegistroSQL<Cola>.insertar(lineas, en: db)
        }
        for resultado in resultados where resultado.desenlace != .entregada {
            let proximo: Double?
            if case .reintentar(let cuando, _) = resultado.desenlace {
                proximo = cuando
            } else {
                proximo = nil
            }
            try db.execute(
                """
                UPDATE entrega SET estado = ?1, ultimo_error = ?2,
                    proximo_intento = coalesce(?3, proximo_intento),
                    arrendatario = NULL, arrendado_hasta = NULL, intentos = intentos + 1
                WHERE aviso_id = ?4 AND canal = ?5 AND arrendatario = ?6
                """, resultado.desenlace.estado.rawValue, resultado.desenlace.motivo, proximo,
                resultado.avisoId, resultado.canal, arrendatario)
            guardados += db.changes
            // A device that is gone leaves with the outcome that said so (contract.md §19):
            // nothing else of it waits in the queue.
            if case .retirada = resultado.desenlace, db.changes == 1 {
                try db.execute(
                    "DELETE FROM canal WHERE nombre = ? AND tipo IN (?, ?)", resultado.canal,
                    TipoDeCanal.dispositivoAPNs.rawValue, TipoDeCanal.webpush.rawValue)
                try db.execute(
                    """
                    UPDATE entrega SET estado = 'descartada', ultimo_error = 'dispositivo retirado',
                        arrendatario = NULL, arrendado_hasta = NULL
                    WHERE canal = ? AND estado = 'pendiente'
                    """, resultado.canal)
            }
        }
        return ResultadosGuardados(guardados: guardados, anotados: anotados)
    }

    @discardableResult
    public func renovar(_ entregas: [String: [Int]], arrendatario: String, hasta: Double) throws
        -> Int
    {
        guard entregas.values.contains(where: { !$0.isEmpty }) else { return 0 }
        return try queue.writeIdempotente { db in
            var renovadas = 0
            for (canal, avisos) in entregas where !avisos.isEmpty {
                try db.execute(
                    """
                    UPDATE entrega SET arrendado_hasta = ?1
                    WHERE arrendatario = ?2 AND estado = 'pendiente' AND canal = ?3
                      AND aviso_id IN (\(db.dialecto.enteros(de: "?4")))
                    """, hasta, arrendatario, canal, listaJSON(avisos))
                renovadas += db.changes
            }
            return renovadas
        }
    }

    public func conArriendo(_ avisos: [Int], canal: String, arrendatario: String, ahora: Double)
        throws -> Set<Int>
    {
        guard !avisos.isEmpty else { return [] }
        return try queue.read { db in
            Set(
                try db.rows(
                    """
                    SELECT aviso_id FROM entrega
                    WHERE canal = ?1 AND arrendatario = ?2 AND arrendado_hasta > ?3
                      AND estado = 'pendiente' AND aviso_id IN (\(db.dialecto.enteros(de: "?4")))
                    """, canal, arrendatario, ahora, listaJSON(avisos)
                ) { $0.int("aviso_id") })
        }
    }

    @discardableResult
    public func soltar(_ entregas: [String: [Int]], arrendatario: String, ahora: Double) throws
        -> Int
    {
        guard entregas.values.contains(where: { !$0.isEmpty }) else { return 0 }
        return try queue.writeConcurrente { db in
            var soltadas = 0
            for (canal, avisos) in entregas where !avisos.isEmpty {
                try db.execute(
                    """
                    UPDATE entrega SET arrendatario = NULL, arrendado_hasta = NULL,
                        proximo_intento = CASE WHEN proximo_intento < ?1 THEN proximo_intento ELSE ?1 END
                    WHERE arrendatario = ?2 AND estado = 'pendiente' AND canal = ?3
                      AND aviso_id IN (\(db.dialecto.enteros(de: "?4")))
                    """, ahora, arrendatario, canal, listaJSON(avisos))
                soltadas += db.changes
            }
            return soltadas
        }
    }

    /// Every role sees every session's `application_name` (PostgreSQL shows it to all), but a
    /// URL may name the connections itself: then this process is not among them, and no one's
    /// sessions can be vouched for (`nil`).
    public func sesionesDeMarcador() throws -> Set<String>? {
        // SQLite: no question to ask, and no transaction opened to ask it.
        guard queue.dialecto == .postgresql else { return nil }
        let sesiones = try queue.read { db -> Set<String>? in
            Set(
                try db.rows(
                    """
                    SELECT DISTINCT application_name FROM pg_stat_activity
                    WHERE application_name LIKE 'marcador %' AND datname = current_database()
                    """
                ) { $0.string("application_name") })
        }
        guard let sesiones, sesiones.contains(Propietario.actual.nombreDeSesion) else { return nil }
        return sesiones
    }

    @discardableResult
    public func arrendatarios() throws -> Set<String> {
        try queue.read { db in
            Set(
                try db.rows(
                    """
                    SELECT DISTINCT arrendatario FROM entrega
                    WHERE arrendatario IS NOT NULL AND estado = 'pendiente'
                    UNION
                    SELECT DISTINCT arrendatario FROM difusion
                    WHERE arrendatario IS NOT NULL AND estado = 'pendiente'
                    """
                ) { $0.string("arrendatario") })
        }
    }

    public func liberar(arrendatario: String, canal: String?, ahora: Double) throws -> Int {
        try queue.writeConcurrente { db in
            try db.execute(
                """
                UPDATE entrega SET arrendatario = NULL, arrendado_hasta = NULL,
                    proximo_intento = CASE WHEN proximo_intento < ?1 THEN proximo_intento ELSE ?1 END
                WHERE arrendatario = ?2 AND estado = 'pendiente' AND (CAST(?3 AS TEXT) IS NULL OR canal = ?3)
                """, ahora, arrendatario, canal)
            var devueltas = db.changes
            if canal == nil {
                // Its device shards too, resumed from their cursors by the next dispatcher.
                try db.execute(
                    """
                    UPDATE difusion SET arrendatario = NULL, arrendado_hasta = NULL,
                        proximo_intento = CASE WHEN proximo_intento < ?1 THEN proximo_intento ELSE ?1 END
                    WHERE arrendatario = ?2 AND estado = 'pendiente'
                    """, ahora, arrendatario)
                devueltas += db.changes
            }
            return devueltas
        }
    }

    @discardableResult
    public func caducarBannersHuerfanos(ahora: Double) throws -> Int {
        let canal = TipoDeCanal.nombreTerminal
        let duenos = try queue.read { db in
            try db.rows(
                """
                SELECT DISTINCT x.id, x.pid, x.pid_inicio, x.anfitrion
                FROM entrega e JOIN ejecucion x ON x.id = e.ejecucion_id
                WHERE e.canal = ? AND e.estado = 'pendiente'
                """, canal
            ) { fila in
                (fila.int("id"), Propietario(fila: fila) ?? Propietario(pid: 0, inicio: 0))
            }
        }
        // The owner is judged outside the transaction (it asks the OS); a banner whose run is
        // taken over meanwhile is simply left for the next sweep.
        let huerfanas = duenos.filter { !$0.1.estaVivo }.map(\.0)
        guard !huerfanas.isEmpty else { return 0 }
        return try queue.write { db in
            try db.execute(
                """
                UPDATE entrega SET estado = 'caducada', ultimo_error = ?1, arrendatario = NULL,
                    arrendado_hasta = NULL
                WHERE canal = ?2 AND estado = 'pendiente'
                  AND ejecucion_id IN (\(db.dialecto.enteros(de: "?3")))
                """, ConsultasDeAvisos.motivoDeBannerHuerfano, canal, listaJSON(huerfanas))
            return db.changes
        }
    }

    public func anotarEnriquecimiento(aviso: Int, enriquecido: Bool, motivo: String?) throws {
        try queue.write { db in
            try db.execute(
                "UPDATE aviso SET enriquecido = ?, motivo_adjunto = ? WHERE id = ?", enriquecido,
                motivo, aviso)
        }
    }

    @discardableResult
    public func reintentarFallidas(ahora: Double) throws -> Int {
        try queue.write { db in
            try db.execute(
                """
                UPDATE entrega SET estado = 'pendiente', intentos = 0, proximo_intento = ?,
                    arrendatario = NULL, arrendado_hasta = NULL
                WHERE estado = 'fallida'
                """, ahora)
            return db.changes
        }
    }

    public func recuento() throws -> [EstadoDeEntrega: Int] {
        try queue.read { db in
            var recuento = Dictionary(
                uniqueKeysWithValues: EstadoDeEntrega.allCases.map { ($0, 0) })
            // Pruned deliveries still count: the totals are a history, not a snapshot.
            try db.forEachRow(
                """
                SELECT estado, sum(n) AS n FROM (
                    SELECT estado, count(*) AS n FROM entrega GROUP BY estado
                    UNION ALL SELECT estado, cuantas FROM entrega_podada) AS t
                GROUP BY estado
                """
            ) { fila in
                let estado: EstadoDeEntrega = try fila.almacenado("estado", tabla: "entrega")
                recuento[estado] = fila.int("n")
            }
            return recuento
        }
    }

    public func pendientesPorCanal(ejecucion: Int?) throws -> [String: Int] {
        try queue.read { db in
            Dictionary(
                uniqueKeysWithValues: try db.rows(
                    """
                    SELECT canal, count(*) AS n FROM entrega
                    WHERE estado = 'pendiente' AND (CAST(?1 AS BIGINT) IS NULL OR ejecucion_id = ?1)
                    GROUP BY canal
                    """, ejecucion
                ) { ($0.string("canal"), $0.int("n")) })
        }
    }

    public func proximoVencimiento(canal: String) throws -> Double? {
        try queue.read { db in
            try db.row(
                """
                SELECT min(CASE WHEN coalesce(arrendado_hasta, 0) > proximo_intento
                    THEN arrendado_hasta ELSE proximo_intento END) AS vence FROM entrega
                WHERE estado = 'pendiente' AND canal = ?
                """, canal
            ) { $0.optionalDouble("vence") } ?? nil
        }
    }

    public func ultimos(limite: Int) throws -> [AvisoEnBuzon] {
        try queue.read { db in
            let avisos = try db.rows(
                """
                SELECT \(AvisoDeGol.columnas()), enriquecido, motivo_adjunto
                FROM aviso ORDER BY id DESC LIMIT ?
                """, limite
            ) { fila in
                (
                    try AvisoDeGol.leer(fila), fila.optionalBool("enriquecido"),
                    fila.optionalString("motivo_adjunto")
                )
            }
            return try avisos.map { leido, enriquecido, motivo in
                let entregas = try ConsultasDeAvisos.entregas(db, aviso: leido.id)
                return AvisoEnBuzon(
                    id: leido.id, aviso: leido.aviso, creado: leido.creado, entregas: entregas,
                    enriquecido: enriquecido, motivoDelAdjunto: motivo)
            }
        }
    }

    public func avisosDelDirecto(partido: Int, tipos: [TipoDeAviso]) throws -> [AvisoDeGol] {
        guard !tipos.isEmpty else { return [] }
        return try queue.read { db in
            // Through the feed's follow (`aviso_de_seguimiento`): a match's notices are never
            // looked for by scanning every notice.
            let marcas = Array(repeating: "?", count: tipos.count).joined(separator: ", ")
            let argumentos: [any DatabaseValueConvertible] =
                [partido] + tipos.map(\.rawValue)
            return try db.rows(
                """
                SELECT \(AvisoDeGol.columnas())
                FROM aviso
                WHERE seguimiento_id IN (SELECT id FROM seguimiento WHERE partido_id = ?)
                    AND tipo IN (\(marcas))
                ORDER BY id
                """, arguments: argumentos
            ) { try AvisoDeGol.leer($0).aviso }
        }
    }

    // MARK: - Channels

    public func canales() throws -> [CanalConfigurado] {
        try queue.read { db in
            // Only the channels' filters: devices' (a million rows) are read by shard.
            var filtros: [String: FiltrosDeCanal] = [:]
            try db.forEachRow(
                """
                SELECT f.canal, f.clase, f.valor FROM canal_filtro f
                JOIN canal c ON c.nombre = f.canal
                WHERE c.tipo IN (\(ConsultasDeAvisos.configurablesEnSQL)) ORDER BY f.canal, f.valor
                """
            ) { fila in
                ConsultasDeAvisos.anotar(
                    &filtros, canal: fila.string("canal"), clase: fila.string("clase"),
                    valor: fila.string("valor"))
            }
            return try db.rows(
                """
                SELECT \(CanalConfigurado.columnas) FROM canal
                WHERE tipo IN (\(ConsultasDeAvisos.configurablesEnSQL)) ORDER BY nombre
                """
            ) {
                CanalConfigurado(
                    fila: $0, filtros: filtros[$0.string("nombre")] ?? FiltrosDeCanal())
            }.compactMap { $0 }
        }
    }

    public func dispositivos() throws -> [CanalConfigurado] {
        try queue.read { db in
            var filtros: [String: FiltrosDeCanal] = [:]
            try db.forEachRow(
                """
                SELECT f.canal, f.clase, f.valor FROM canal_filtro f
                JOIN canal c ON c.nombre = f.canal
                WHERE c.tipo IN (\(ConsultasDeAvisos.dispositivosEnSQL)) ORDER BY f.canal, f.valor
                """
            ) { fila in
                ConsultasDeAvisos.anotar(
                    &filtros, canal: fila.string("canal"), clase: fila.string("clase"),
                    valor: fila.string("valor"))
            }
            return try db.rows(
                """
                SELECT \(CanalConfigurado.columnas) FROM canal
                WHERE tipo IN (\(ConsultasDeAvisos.dispositivosEnSQL)) ORDER BY nombre
                """
            ) {
                CanalConfigurado(
                    fila: $0, filtros: filtros[$0.string("nombre")] ?? FiltrosDeCanal())
            }.compactMap { $0 }
        }
    }

    public func dispositivosDeNombreAntiguo(_ nombre: String?) throws -> [String: String] {
        try queue.read { db in
            // `apns-` or `web-` and ten hex digits; ids given since have sixteen.
            let filas = try db.rows(
                """
                SELECT nombre, ajustes FROM canal
                WHERE tipo IN (\(ConsultasDeAvisos.dispositivosEnSQL))
                    AND (CAST(?1 AS TEXT) IS NULL OR nombre = CAST(?1 AS TEXT))
                    AND length(nombre) = CASE WHEN nombre LIKE 'apns-%' THEN 15 ELSE 14 END
                """, nombre
            ) { ($0.string(0), $0.string(1)) }
            return Dictionary(filas, uniquingKeysWith: { primera, _ in primera })
        }
    }

    public func existe(_ nombre: String) throws -> TipoDeCanal? {
        try queue.read { db in
            try db.row("SELECT tipo FROM canal WHERE nombre = ?", nombre) {
                TipoDeCanal(rawValue: $0.string("tipo"))
            } ?? nil
        }
    }

    public func guardar(_ canales: [CanalConfigurado]) throws -> Int {
        let nuevos = try guardarEnUna(canales)
        // After a bulk load PostgreSQL's autovacuum comes on its own, half a minute later: in
        // the middle of the next goal's fan-out, on the same cores. Done now (1.5 s for a
        // million), it also leaves fresh statistics and a visibility map for the shard cuts'
        // index-only scans. VACUUM runs outside a transaction, and twice means the same.
        if queue.dialecto == .postgresql && canales.count > 10_000 {
            try queue.writeIdempotente { db in
                try db.executeScript("VACUUM (ANALYZE) canal, canal_filtro")
            }
        }
        return nuevos
    }

    private func guardarEnUna(_ canales: [CanalConfigurado]) throws -> Int {
        try queue.write { db in
            // A million devices in one transaction: SQLite's default 2 MB page cache would
            // spill the transaction's pages to the WAL and read them back. This connection's
            // cache grows for it, and shrinks back after.
            let grande = db.dialecto == .sqlite && canales.count > 10_000
            if grande { try db.execute("PRAGMA cache_size = -262144") }
            defer { if grande { try? db.execute("PRAGMA cache_size = -2000") } }
            // Counted before and after, not asked row by row: every statement below is
            // deferred (pipelined on PostgreSQL) and writes hundreds of rows.
            let antes = try db.scalarInt("SELECT count(*) FROM canal") ?? 0
            var borrarFiltros = SentenciaDeFilas(columnas: 1) {
                "DELETE FROM canal_filtro WHERE canal IN \(SentenciaDeFilas.lista(filas: $0))"
            }
            var escribirCanales = SentenciaDeFilas(columnas: 8) {
                """
                INSERT INTO canal (\(CanalConfigurado.columnas))
                \(SentenciaDeFilas.valores(filas: $0, columnas: 8))
                ON CONFLICT (nombre) DO UPDATE SET tipo = excluded.tipo,
                    activo = excluded.activo, ajustes = excluded.ajustes,
                    avisar = excluded.avisar, horas_tranquilas = excluded.horas_tranquilas,
                    retraso = excluded.retraso, antes = excluded.antes
                """
            }
            var escribirFiltros = SentenciaDeFilas(columnas: 4) {
                """
                INSERT INTO canal_filtro (canal, clase, valor, clave)
                \(SentenciaDeFilas.valores(filas: $0, columnas: 4)) ON CONFLICT DO NOTHING
                """
            }
            // A group's old filters go before its new ones are written.
            var inicio = canales.startIndex
            while inicio < canales.endIndex {
                let grupo = canales[
                    inicio..<min(inicio + SentenciaDeFilas.filasPorSentencia, canales.endIndex)]
                inicio = grupo.endIndex
                try borrarFiltros.ejecutar(db, grupo.map(\.nombre))
                // Appended in place: a small array per channel, then a copy, cost as much as
                // the binding.
                var valores: [any DatabaseValueConvertible] = []
                valores.reserveCapacity(8 * grupo.count)
                for canal in grupo {
                    valores.append(canal.nombre)
                    valores.append(canal.tipo.rawValue)
                    valores.append(canal.activo)
                    valores.append(canal.ajustes)
                    valores.append(canal.avisarAlmacenado)
                    valores.append(canal.horasTranquilas?.description)
                    valores.append(canal.retraso)
                    valores.append(canal.antes)
                }
                try escribirCanales.ejecutar(db, valores)
                valores.removeAll(keepingCapacity: true)
                for canal in grupo {
                    for (clase, valor, clave) in Self.filasDeFiltro(canal.filtros) {
                        valores.append(canal.nombre)
                        valores.append(clase)
                        valores.append(valor)
                        valores.append(clave)
                    }
                }
                try escribirFiltros.ejecutar(db, valores)
            }
            return (try db.scalarInt("SELECT count(*) FROM canal") ?? 0) - antes
        }
    }

    public func guardar(_ canal: CanalConfigurado, reemplazar: Bool) throws -> Bool {
        try queue.write { db in
            if !reemplazar,
                try db.scalarInt("SELECT 1 FROM canal WHERE nombre = ?", canal.nombre) != nil
            {
                return false
            }
            try db.execute(
                """
                INSERT INTO canal (nombre, tipo, activo, ajustes, avisar, horas_tranquilas,
                    retraso, antes)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                ON CONFLICT (nombre) DO UPDATE SET tipo = ?2, activo = ?3, ajustes = ?4,
                    avisar = ?5, horas_tranquilas = ?6, retraso = ?7, antes = ?8
                """, canal.nombre, canal.tipo.rawValue, canal.activo, canal.ajustes,
                canal.avisarAlmacenado, canal.horasTranquilas?.description, canal.retraso,
                canal.antes)
            try Self.escribirFiltros(db, canal.nombre, canal.filtros)
            return true
        }
    }

    public func cambiarFiltros(_ nombre: String, _ filtros: FiltrosDeCanal) throws -> Bool {
        try queue.write { db in
            guard try db.scalarInt("SELECT 1 FROM canal WHERE nombre = ?", nombre) != nil else {
                return false
            }
            try Self.escribirFiltros(db, nombre, filtros)
            return true
        }
    }

    /// A channel's filters as `canal_filtro` rows: class, value, and the key it is matched by.
    private static func filasDeFiltro(_ filtros: FiltrosDeCanal) -> [(String, String, String)] {
        filtros.equipos.map { ("equipo", $0, ClaveDeNombre.de($0)) }
            + filtros.competiciones.map { ("competicion", $0, ClaveDeNombre.de($0)) }
            + filtros.partidos.map { ("partido", String($0), String($0)) }
    }

    private static func escribirFiltros(
        _ db: some BaseSQL, _ canal: String, _ filtros: FiltrosDeCanal
    ) throws {
        try db.execute("DELETE FROM canal_filtro WHERE canal = ?", canal)
        for (clase, valor, clave) in filasDeFiltro(filtros) {
            try db.execute(
                """
                INSERT INTO canal_filtro (canal, clase, valor, clave) VALUES (?, ?, ?, ?)
                ON CONFLICT DO NOTHING
                """,
                canal, clase, valor, clave)
        }
    }

    public func quitarCanal(_ nombre: String) throws -> Bool {
        try queue.write { db in
            try db.execute("DELETE FROM canal WHERE nombre = ?", nombre)
            guard db.changes == 1 else { return false }
            try db.execute(
                """
                UPDATE entrega SET estado = 'descartada', ultimo_error = 'canal quitado',
                    arrendatario = NULL, arrendado_hasta = NULL
                WHERE canal = ? AND estado = 'pendiente'
                """, nombre)
            return true
        }
    }

    public func activarCanal(_ nombre: String, activo: Bool) throws -> Bool {
        try queue.write { db in
            try db.execute("UPDATE canal SET activo = ? WHERE nombre = ?", activo, nombre)
            return db.changes == 1
        }
    }

    public func credenciales() throws -> [String: String] {
        try queue.read { db in try Self.credenciales(db) }
    }

    @discardableResult
    public func guardarCredenciales(_ valores: [String: String?], siFalta: Bool) throws
        -> [String: String]
    {
        try queue.write { db in
            for (clave, valor) in valores.sorted(by: { $0.key < $1.key }) {
                if let valor {
                    try db.execute(
                        "INSERT INTO credencial (clave, valor) VALUES (?, ?) ON CONFLICT (clave) "
                            + (siFalta ? "DO NOTHING" : "DO UPDATE SET valor = excluded.valor"),
                        clave, valor)
                } else if !siFalta {
                    try db.execute("DELETE FROM credencial WHERE clave = ?", clave)
                }
            }
            return try Self.credenciales(db)
        }
    }

    private static func credenciales(_ db: some BaseSQL) throws -> [String: String] {
        let pares = try db.rows("SELECT clave, valor FROM credencial") {
            ($0.string("clave"), $0.string("valor"))
        }
        return Dictionary(pares, uniquingKeysWith: { _, ultimo in ultimo })
    }
}

/// `[1,2,3]`: a list of ids bound as one JSON text and read back as rows
/// (`Dialecto.enteros`), so a batch is one prepared statement whatever its size.
func listaJSON(_ ids: [Int]) -> String {
    "[" + ids.map(String.init).joined(separator: ",") + "]"
}

/// The outbox's notices as every query reads them.
enum ConsultasDeAvisos {
    /// The channel types kept as channels, and the device types (fanned out by shards), as
    /// SQL literals (`'registro', 'webhook', …`) written into a statement instead of bound:
    /// PostgreSQL's planner then sees the values, knows them rare beside a million devices
    /// and takes `canal_por_tipo`. Bound as one JSON list they were planned as any type, and
    /// the channel list every dispatcher reads each second scanned the million device rows
    /// (0.5 s a time, half of a core).
    static let configurablesEnSQL = literales(TipoDeCanal.configurables.map(\.rawValue))
    static let dispositivosEnSQL = literales(
        TipoDeCanal.allCases.filter(\.esDispositivo).map(\.rawValue))

    /// Our own enum's raw values: no quote can reach them from outside.
    private static func literales(_ textos: [String]) -> String {
        textos.map { texto in
            precondition(texto.allSatisfy { $0.isLetter || $0 == "-" }, "tipo «\(texto)»")
            return "'\(texto)'"
        }.joined(separator: ", ")
    }

    /// One notice's deliveries, by channel name.
    static func entregas(_ db: some BaseSQL, aviso: Int) throws -> [EntregaDeAviso] {
        try db.rows(
            """
            SELECT canal, estado, intentos, ultimo_error FROM entrega
            WHERE aviso_id = ? ORDER BY canal
            """, aviso
        ) { try EntregaDeAviso(fila: $0) }
    }

    /// Inserts the notices of one minute and a delivery per active channel (plus the run's own
    /// process channels). Must run inside the caller's transaction. A notice already queued for
    /// this run is left alone. Without permission the deliveries are stored as discarded.
    /// - Parameter seguimiento: the live match the notices come from, instead of a run: their
    ///   deliveries are ordered among themselves under `-seguimiento` (the order rule's key is
    ///   a run's id, positive, a live match's, negative, or 0 for a test).
    /// - Parameter saque: a reminder's kick-off (seconds since 1970): each channel's delivery
    ///   is due its own `--antes` before it.
    /// - Returns: how many notices were new.
    @discardableResult
    static func encolar(
        _ db: some BaseSQL, avisos: [AvisoDeGol], ejecucion: Int?, canalesPropios: [String],
        ahora: Double, seguimiento: Int? = nil, saque: Double? = nil
    ) throws -> Int {
        guard let primero = avisos.first else { return 0 }
        var encolados = 0
        // Following (fans.md) is decided here, in the minute's transaction: each notice
        // goes to the channels with no filter and to those following it. Two statements (two
        // round trips on a server): the permission with the match's names (a row even for no
        // match), then the active channels with their filters.
        let (permitido, encuentro) =
            try db.row(
                """
                SELECT (SELECT valor FROM ajuste WHERE clave = ?) AS permiso,
                    l.nombre AS local, v.nombre AS visitante, p.competicion
                FROM (SELECT 1 AS una) AS fila
                LEFT JOIN partido p ON p.id = ?
                LEFT JOIN equipo l ON l.id = p.local_id
                LEFT JOIN equipo v ON v.id = p.visitante_id
                """, ClaveDeAjuste.permiso, primero.partidoId
            ) { fila in
                let permitido = fila.optionalString("permiso") == "1"
                guard let local = fila.optionalString("local"),
                    let visitante = fila.optionalString("visitante")
                else { return (permitido, nil as (String, String, String?)?) }
                return (permitido, (local, visitante, fila.optionalString("competicion")))
            } ?? (false, nil)
        var activos: [(String, Set<ClaseDeAviso>)] = []
        var retrasos: [String: Double] = [:]
        var antes: [String: Double] = [:]
        var filtros: [String: FiltrosDeCanal] = [:]
        try db.forEachRow(
            """
            SELECT c.nombre, c.avisar, c.retraso, c.antes, f.clase, f.valor FROM canal c
            LEFT JOIN canal_filtro f ON f.canal = c.nombre
            WHERE c.activo = 1 AND c.tipo IN (\(ConsultasDeAvisos.configurablesEnSQL))
            ORDER BY c.nombre, f.valor
            """
        ) { fila in
            let nombre = fila.string("nombre")
            if activos.last?.0 != nombre {
                activos.append((nombre, CanalConfigurado.avisar(fila.optionalString("avisar"))))
                retrasos[nombre] = fila.double("retraso")
                antes[nombre] = fila.optionalDouble("antes")
            }
            if let clase = fila.optionalString("clase") {
                anotar(&filtros, canal: nombre, clase: clase, valor: fila.string("valor"))
            }
        }
        func canales(de aviso: AvisoDeGol) -> [String] {
            let equipo = aviso.lado.flatMap { lado in
                encuentro.map { lado == .local ? $0.0 : $0.1 }
            }
            // What it follows, and the kinds it gets (a match's own process channels, the
            // terminal banner of `jugar`, only ever get goals).
            return activos.filter { canal, avisar in
                aviso.tipo.clase.map(avisar.contains) ?? true
                    && (filtros[canal] ?? FiltrosDeCanal()).dejanPasar(
                        partido: aviso.partidoId, equipo: equipo, competicion: encuentro?.2)
            }.map(\.0) + (aviso.tipo == .gol ? canalesPropios : [])
        }
        let estado = permitido ? EstadoDeEntrega.pendiente : .descartada
        for aviso in avisos {
            // A notice already queued for this run returns no row.
            guard
                let id = try db.scalarInt(
                    """
                    INSERT INTO aviso (ejecucion_id, partido_id, tipo, identificador, titulo,
                        cuerpo, minuto, anadido, jugador, equipo, marcador_local,
                        marcador_visitante, adjunto, creado, seguimiento_id)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT DO NOTHING RETURNING id
                    """, ejecucion, aviso.tipo == .prueba ? nil : aviso.partidoId,
                    aviso.tipo.rawValue, aviso.identificador, aviso.titulo, aviso.cuerpo,
                    aviso.minuto.minuto, aviso.minuto.anadido, aviso.jugador, aviso.equipo,
                    aviso.marcador.local, aviso.marcador.visitante, aviso.adjunto, ahora,
                    seguimiento)
            else { continue }
            encolados += 1
            // Devices get the notice by shards (contract.md §20), never a row each.
            if aviso.tipo != .prueba {
                try ConsultasDeDifusion.repartir(
                    db, aviso: id, orden: ejecucion ?? seguimiento.map { -$0 } ?? 0,
                    vence: aviso.tipo == .recordatorio
                        ? max(ahora, (saque ?? ahora) - ClaseDeAviso.antesPorDefecto) : ahora,
                    permitido: permitido)
            }
            for canal in canales(de: aviso) {
                // Due once the channel's delay has passed: stored, so a restart inside it
                // neither loses the notice nor sends it early. A reminder is due its channel's
                // lead time before kick-off.
                let vence =
                    aviso.tipo == .recordatorio
                    ? max(ahora, (saque ?? ahora) - (antes[canal] ?? ClaseDeAviso.antesPorDefecto))
                    : ahora + (retrasos[canal] ?? 0)
                try db.executeLater(
                    """
                    INSERT INTO entrega (aviso_id, canal, ejecucion_id, estado, proximo_intento,
                        ultimo_error)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """, id, canal, ejecucion ?? seguimiento.map { -$0 } ?? 0, estado.rawValue,
                    vence, permitido ? nil : "avisos de gol desactivados")
            }
        }
        return encolados
    }

    /// Every channel's filters, by channel.
    static func filtros(_ db: some BaseSQL) throws -> [String: FiltrosDeCanal] {
        var filtros: [String: FiltrosDeCanal] = [:]
        try db.forEachRow("SELECT canal, clase, valor FROM canal_filtro ORDER BY canal, valor") {
            fila in
            anotar(
                &filtros, canal: fila.string("canal"), clase: fila.string("clase"),
                valor: fila.string("valor"))
        }
        return filtros
    }

    /// One stored filter row into its channel's filters.
    static func anotar(
        _ filtros: inout [String: FiltrosDeCanal], canal: String, clase: String, valor: String
    ) {
        switch clase {
        case "equipo": filtros[canal, default: FiltrosDeCanal()].equipos.append(valor)
        case "competicion": filtros[canal, default: FiltrosDeCanal()].competiciones.append(valor)
        default:
            if let id = Int(valor) { filtros[canal, default: FiltrosDeCanal()].partidos.append(id) }
        }
    }

    /// Why an orphaned banner is not shown.
    static let motivoDeBannerHuerfano = "la terminal que miraba el partido ya no está"
}
