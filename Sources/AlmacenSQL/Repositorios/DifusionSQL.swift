import Persistencia
import Torneo

/// Devices' fan-out on a SQL store (contract.md §20): shards written with the notice
/// (`repartir`), leased one at a time by any dispatcher (on PostgreSQL skipping the rows
/// another claim has locked), streamed by keyset pages, progress committed under the lease.
public struct DifusionSQL<Cola: ColaSQL>: Difusiones {
    public let queue: Cola

    public init(_ queue: Cola) { self.queue = queue }

    public func reclamarTramo(_ reclamo: ReclamoDeTramo) throws -> TramoReclamado? {
        // A read first: a dispatcher with no devices to serve polls without ever taking the
        // write lock.
        guard
            try queue.read({ db in
                try db.scalarInt("SELECT 1 FROM difusion WHERE estado = 'pendiente' LIMIT 1")
            }) != nil
        else { return nil }
        return try queue.write { db -> TramoReclamado? in
            // Expired notices hold nothing back and are never sent.
            try db.execute(
                """
                UPDATE difusion SET estado = 'caducada', ultimo_error = 'caducado',
                    arrendatario = NULL, arrendado_hasta = NULL
                WHERE estado = 'pendiente' AND (arrendado_hasta IS NULL OR arrendado_hasta < ?)
                  AND aviso_id IN (SELECT id FROM aviso WHERE creado < ?)
                """, reclamo.ahora, reclamo.ahora - reclamo.caducidad)
            let bloqueo = db.dialecto == .postgresql ? "FOR UPDATE SKIP LOCKED" : ""
            guard
                let fila = try db.row(
                    """
                    WITH c AS (
                        SELECT d.id FROM difusion d WHERE \(ConsultasDeDifusion.reclamable)
                        ORDER BY d.aviso_id, d.id LIMIT 1 \(bloqueo))
                    UPDATE difusion SET arrendatario = ?1, arrendado_hasta = ?2
                    WHERE id IN (SELECT id FROM c)
                    RETURNING id, aviso_id, tipo, desde, hasta, cursor, unico, intentos
                    """, reclamo.arrendatario, reclamo.ahora + reclamo.arriendo,
                    reclamo.vencidosHasta.map { min($0, reclamo.ahora) } ?? reclamo.ahora,
                    reclamo.ahora, reclamo.soloPrimerosIntentos,
                    map: { fila in
                        (
                            id: fila.int("id"), aviso: fila.int("aviso_id"),
                            tipo: fila.string("tipo"), desde: fila.string("desde"),
                            hasta: fila.optionalString("hasta"),
                            cursor: fila.optionalString("cursor"), unico: fila.bool("unico"),
                            intentos: fila.int("intentos")
                        )
                    })
            else { return nil }
            guard let tipo = TipoDeCanal(rawValue: fila.tipo),
                let (aviso, creado, local, visitante, competicion) = try db.row(
                    """
                    SELECT \(AvisoDeGol.columnas(de: "a")), l.nombre AS local,
                        v.nombre AS visitante, p.competicion
                    FROM aviso a LEFT JOIN partido p ON p.id = a.partido_id
                    LEFT JOIN equipo l ON l.id = p.local_id
                    LEFT JOIN equipo v ON v.id = p.visitante_id
                    WHERE a.id = ?
                    """, fila.aviso,
                    map: { fila in
                        let (aviso, _, creado) = try AvisoDeGol.leer(fila)
                        return (
                            aviso, creado, fila.optionalString("local"),
                            fila.optionalString("visitante"), fila.optionalString("competicion")
                        )
                    })
            else { return nil }
            var hasta = fila.hasta
            if !fila.unico, fila.cursor == nil,
                let corte = try ConsultasDeDifusion.cortar(
                    db, id: fila.id, tipo: fila.tipo, desde: fila.desde, hasta: fila.hasta)
            {
                hasta = corte
            }
            // The stored notice names its team; the match's names say it is one of its sides.
            let equipo = [local, visitante].compactMap { $0 }.first { $0 == aviso.equipo }
            return TramoReclamado(
                id: fila.id, tipo: tipo, avisoId: fila.aviso, aviso: aviso, creado: creado,
                desde: fila.desde, hasta: hasta, cursor: fila.cursor, unico: fila.unico,
                intento: fila.intentos + 1, equipo: equipo, competicion: competicion)
        }
    }

    public func dispositivos(de tramo: TramoReclamado, despues: String?, limite: Int) throws
        -> [DispositivoDeTramo]
    {
        try queue.read { db in
            var canales: [CanalConfigurado] = []
            let desde = despues ?? tramo.cursor
            if tramo.unico {
                guard desde == nil else { return [] }
                canales = try db.rows(
                    "SELECT \(CanalConfigurado.columnas) FROM canal WHERE nombre = ? AND tipo = ?",
                    tramo.desde, tramo.tipo.rawValue
                ) { CanalConfigurado(fila: $0, filtros: FiltrosDeCanal()) }.compactMap { $0 }
            } else {
                // One bound each way, each there only when it bounds: a plain range of the
                // primary key, whatever plan PostgreSQL keeps for the prepared page.
                let abajo = desde == nil ? "nombre >= ?2" : "nombre > ?2"
                let arriba = tramo.hasta == nil ? "" : "AND nombre < ?4"
                canales = try db.rows(
                    """
                    SELECT \(CanalConfigurado.columnas) FROM canal
                    WHERE tipo = ?1 AND activo = 1 AND \(abajo) \(arriba)
                    ORDER BY nombre LIMIT ?3
                    """,
                    arguments: [tramo.tipo.rawValue, desde ?? tramo.desde, limite]
                        + (tramo.hasta.map { [$0] } ?? [])
                ) { CanalConfigurado(fila: $0, filtros: FiltrosDeCanal()) }.compactMap { $0 }
            }
            guard let primero = canales.first?.nombre, let ultimo = canales.last?.nombre else {
                return []
            }
            var filtros: [String: FiltrosDeCanal] = [:]
            try db.forEachRow(
                """
                SELECT canal, clase, valor FROM canal_filtro WHERE canal >= ? AND canal <= ?
                ORDER BY canal, valor
                """, primero, ultimo
            ) { fila in
                ConsultasDeAvisos.anotar(
                    &filtros, canal: fila.string("canal"), clase: fila.string("clase"),
                    valor: fila.string("valor"))
            }
            var detras: Set<String> = []
            if tramo.aviso.ejecucion != nil || tramo.aviso.seguimiento != nil {
                try db.forEachRow(
                    """
                    SELECT DISTINCT p.desde FROM difusion p JOIN difusion t ON t.id = ?
                    WHERE p.unico = 1 AND p.estado = 'pendiente' AND p.tipo = t.tipo
                      AND p.orden = t.orden AND p.orden <> 0 AND p.aviso_id < t.aviso_id
                      AND p.desde >= ? AND p.desde <= ?
                    """, tramo.id, primero, ultimo
                ) { detras.insert($0.string("desde")) }
            }
            return canales.map { canal in
                var canal = canal
                canal.filtros = filtros[canal.nombre] ?? FiltrosDeCanal()
                return DispositivoDeTramo(canal: canal, detras: detras.contains(canal.nombre))
            }
        }
    }

    @discardableResult
    public func avanzar(
        _ avance: AvanceDeTramo, arrendatario: String, ahora: Double, arriendo: Double
    ) throws -> Bool {
        try queue.writeConcurrente { db -> Bool in
            let tramo = avance.tramo
            let sigue = avance.final == nil && avance.reprogramar == nil
            try db.execute(
                """
                UPDATE difusion SET cursor = ?, entregadas = entregadas + ?,
                    fallidas = fallidas + ?, retiradas = retiradas + ?,
                    estado = ?, proximo_intento = coalesce(?, proximo_intento),
                    intentos = intentos + ?, ultimo_error = coalesce(?, ultimo_error),
                    arrendatario = ?, arrendado_hasta = ?
                WHERE id = ? AND arrendatario = ? AND estado = 'pendiente'
                """, avance.cursor, avance.entregadas, avance.fallidas, avance.retirados.count,
                (avance.final ?? .pendiente).rawValue, avance.reprogramar, sigue ? 0 : 1,
                avance.error, sigue ? arrendatario : nil, sigue ? ahora + arriendo : nil,
                tramo.id, arrendatario)
            guard db.changes == 1 else { return false }
            if !avance.retirados.isEmpty {
                let lista = listaDeTextos(avance.retirados)
                let tipos = db.dialecto.textos(de: "?2")
                try db.execute(
                    """
                    DELETE FROM canal WHERE nombre IN (\(db.dialecto.textos(de: "?1")))
                      AND tipo IN (\(tipos))
                    """, lista, listaDeTextos(ConsultasDeDifusion.tipos.map(\.rawValue)))
                try db.execute(
                    """
                    UPDATE difusion SET estado = 'descartada', ultimo_error = 'dispositivo retirado',
                        arrendatario = NULL, arrendado_hasta = NULL
                    WHERE unico = 1 AND estado = 'pendiente'
                      AND desde IN (\(db.dialecto.textos(de: "?1"))) AND tipo IN (\(tipos))
                    """, lista, listaDeTextos(ConsultasDeDifusion.tipos.map(\.rawValue)))
            }
            for reintento in avance.reintentos {
                try db.executeLater(
                    """
                    INSERT INTO difusion (aviso_id, tipo, orden, unico, desde, estado, intentos,
                        proximo_intento, ultimo_error)
                    SELECT aviso_id, tipo, orden, 1, ?, 'pendiente', ?, ?, ? FROM difusion
                    WHERE id = ?
                    """,
                    arguments: [
                        reintento.dispositivo, reintento.intentado ? 1 : 0, reintento.cuando,
                        reintento.error, tramo.id,
                    ])
            }
            return true
        }
    }

    public func recuentoDeDifusion(aviso: Int?) throws -> RecuentoDeDifusion {
        try queue.read { db in
            var recuento = RecuentoDeDifusion()
            try db.forEachRow(
                """
                SELECT estado, count(*) AS n, sum(entregadas) AS e, sum(fallidas) AS f,
                    sum(retiradas) AS r
                FROM difusion WHERE CAST(? AS BIGINT) IS NULL OR aviso_id = ? GROUP BY estado
                """, aviso, aviso
            ) { fila in
                guard let estado = EstadoDeEntrega(rawValue: fila.string("estado")) else { return }
                recuento.tramos[estado] = fila.int("n")
                recuento.entregadas += fila.int("e")
                recuento.fallidas += fila.int("f")
                recuento.retiradas += fila.int("r")
            }
            return recuento
        }
    }
}

/// The fan-out's statements outside the generic repository (the outbox's enqueue writes the
/// shards too).
enum ConsultasDeDifusion {
    /// The device types that are fanned out by shards.
    static var tipos: [TipoDeCanal] { TipoDeCanal.allCases.filter(\.esDispositivo) }

    /// Writes the fan-out of notice `aviso` for every provider with an active device, inside
    /// the caller's transaction: one shard from the provider's first device to its last,
    /// which its first claim cuts (`cortar`). The goal's transaction reads one index entry
    /// per provider: cutting a million devices into hundreds of shards here read the whole
    /// index, 0.3 s on PostgreSQL, before anyone heard of the goal. Devices' own filters are
    /// applied as each shard is streamed.
    static func repartir(
        _ db: some BaseSQL, aviso: Int, orden: Int, vence: Double, permitido: Bool
    ) throws {
        for tipo in tipos {
            guard
                let desde = try db.row(
                    "SELECT nombre FROM canal WHERE tipo = ? AND activo = 1 ORDER BY nombre LIMIT 1",
                    tipo.rawValue, map: { $0.string("nombre") })
            else { continue }
            try db.executeLater(
                """
                INSERT INTO difusion (aviso_id, tipo, orden, unico, desde, hasta, estado,
                    proximo_intento, ultimo_error)
                VALUES (?, ?, ?, 0, ?, NULL, ?, ?, ?)
                """,
                arguments: [
                    aviso, tipo.rawValue, orden, desde, permitido ? "pendiente" : "descartada",
                    vence, permitido ? nil : "avisos de gol desactivados",
                ])
        }
    }

    /// Cuts the shard `id` just claimed, never worked (no cursor), after its
    /// `TramoReclamado.tamanoMaximo`-th device, in the claim's transaction: the rest becomes a
    /// pending shard of its own, claimable at once by any dispatcher, and cut in turn by its
    /// own first claim. A shard costs its claim one walk of 10,000 index entries.
    /// - Returns: the shard's new upper bound, or `nil` when it holds no more than that.
    static func cortar(
        _ db: some BaseSQL, id: Int, tipo: String, desde: String, hasta: String?
    ) throws -> String? {
        let arriba = hasta == nil ? "" : "AND nombre < ?4"
        guard
            let corte = try db.row(
                """
                SELECT nombre FROM canal WHERE tipo = ?1 AND activo = 1 AND nombre >= ?2 \(arriba)
                ORDER BY nombre LIMIT 1 OFFSET ?3
                """,
                arguments: [tipo, desde, TramoReclamado.tamanoMaximo] + (hasta.map { [$0] } ?? []),
                map: { $0.string("nombre") })
        else { return nil }
        // The rest first: it takes the bound this shard had.
        try db.execute(
            """
            INSERT INTO difusion (aviso_id, tipo, orden, unico, desde, hasta, estado,
                proximo_intento, ultimo_error)
            SELECT aviso_id, tipo, orden, 0, ?, hasta, estado, proximo_intento, ultimo_error
            FROM difusion WHERE id = ?
            """, corte, id)
        try db.execute("UPDATE difusion SET hasta = ? WHERE id = ?", corte, id)
        return corte
    }

    /// A shard a claim may lease: pending, due, not leased (or its lease ran out), and nothing
    /// earlier of its run ahead of it — for a shard, any shard of an earlier notice; for one
    /// device's retry, that device's earlier retries. Parameters: ?3 due by, ?4 now, ?5 first
    /// attempts only.
    static let reclamable = """
        d.estado = 'pendiente' AND d.proximo_intento <= ?3
          AND (d.arrendado_hasta IS NULL OR d.arrendado_hasta < ?4)
          AND (?5 = 0 OR d.intentos = 0)
          AND (d.orden = 0 OR NOT EXISTS (
              SELECT 1 FROM difusion p
              WHERE p.tipo = d.tipo AND p.orden = d.orden AND p.estado = 'pendiente'
                AND p.aviso_id < d.aviso_id AND p.unico = d.unico
                AND (d.unico = 0 OR p.desde = d.desde)))
        """
}

/// A JSON array of texts, for `Dialecto.textos(de:)`.
func listaDeTextos(_ textos: [String]) -> String {
    "["
        + textos.map { "\"" + $0.unicodeScalars.map(escapado).joined() + "\"" }.joined(
            separator: ",") + "]"
}

private func escapado(_ escalar: Unicode.Scalar) -> String {
    switch escalar {
    case "\"": "\\\""
    case "\\": "\\\\"
    case _ where escalar.value < 0x20:
        "\\u" + String(repeating: "0", count: 4 - String(escalar.value, radix: 16).count)
            + String(escalar.value, radix: 16)
    default: String(escalar)
    }
}
