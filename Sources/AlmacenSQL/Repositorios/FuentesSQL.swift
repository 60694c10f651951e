import Persistencia
import Torneo

/// Live feeds on a SQL store (directo.md). A source is polled by one process at a time: its
/// row is leased like a delivery (`arrendatario`, `arrendado_hasta`), and a poll's outcome —
/// the matches it changed, their snapshots, the notices with their deliveries, the source's
/// validators and next due time — is written in one transaction that first checks the lease is
/// still the poller's (a poller stopped past its lease writes nothing).
public struct FuentesSQL<Cola: ColaSQL>: Fuentes {
    public let queue: Cola

    public init(_ queue: Cola) { self.queue = queue }

    public func anadir(_ fuente: FuenteConfigurada) throws -> Bool {
        try queue.write { db in
            try db.execute(
                """
                INSERT INTO fuente (nombre, url, formato, clave, cada) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (nombre) DO NOTHING
                """, fuente.nombre, fuente.url, fuente.formato, fuente.clave, fuente.cada)
            return db.changes == 1
        }
    }

    public func quitar(_ nombre: String) throws -> Bool {
        try queue.write { db in
            // Its notices stay (their deliveries are the outbox's); the matches stay too.
            try db.execute(
                """
                UPDATE aviso SET seguimiento_id = NULL WHERE seguimiento_id IN (
                    SELECT s.id FROM seguimiento s JOIN fuente f ON f.id = s.fuente_id
                    WHERE f.nombre = ?)
                """, nombre)
            try db.execute("DELETE FROM fuente WHERE nombre = ?", nombre)
            return db.changes == 1
        }
    }

    static var columnas: String {
        """
        f.id, f.nombre, f.url, f.formato, f.clave, f.cada, f.etag, f.modificado,
        f.proximo_sondeo, f.ultimo_sondeo, f.ultimo_estado, f.fallos_seguidos, f.sondeos,
        (SELECT count(*) FROM seguimiento s WHERE s.fuente_id = f.id) AS partidos
        """
    }

    static func estado(_ fila: some FilaSQL) -> EstadoDeFuente {
        EstadoDeFuente(
            id: fila.int("id"),
            configurada: FuenteConfigurada(
                nombre: fila.string("nombre"), url: fila.string("url"),
                formato: fila.string("formato"), clave: fila.optionalString("clave"),
                cada: fila.double("cada")),
            ultimoSondeo: fila.optionalDouble("ultimo_sondeo"),
            ultimoEstado: fila.optionalString("ultimo_estado"),
            fallosSeguidos: fila.int("fallos_seguidos"), sondeos: fila.int("sondeos"),
            proximoSondeo: fila.double("proximo_sondeo"), partidos: fila.int("partidos"))
    }

    public func todas() throws -> [EstadoDeFuente] {
        try queue.read { db in
            try db.rows("SELECT \(Self.columnas) FROM fuente f ORDER BY f.nombre") {
                Self.estado($0)
            }
        }
    }

    public func arrendarDebidas(arrendatario: String, ahora: Double, arriendo: Double) throws
        -> [FuenteArrendada]
    {
        try queue.writeConcurrente { db in
            let ids = try db.rows(
                """
                UPDATE fuente SET arrendatario = ?1, arrendado_hasta = ?2
                WHERE proximo_sondeo <= ?3 AND (arrendado_hasta IS NULL OR arrendado_hasta < ?3)
                RETURNING id
                """, arrendatario, ahora + arriendo, ahora
            ) { $0.int("id") }
            return try ids.sorted().map { id in
                let (estado, etag, modificado) = try db.row(
                    "SELECT \(Self.columnas) FROM fuente f WHERE f.id = ?", id
                ) {
                    (
                        Self.estado($0), $0.optionalString("etag"),
                        $0.optionalString("modificado")
                    )
                }!
                var fotos: [String: (foto: String, partido: Int)] = [:]
                try db.forEachRow(
                    "SELECT clave_externa, foto, partido_id FROM seguimiento WHERE fuente_id = ?",
                    id
                ) { fila in
                    fotos[fila.string("clave_externa")] = (
                        fila.string("foto"), fila.int("partido_id")
                    )
                }
                return FuenteArrendada(
                    estado: estado, etag: etag, modificado: modificado, fotos: fotos)
            }
        }
    }

    public func proximoSondeo() throws -> Double? {
        try queue.read { db in
            try db.row(
                """
                SELECT min(CASE WHEN coalesce(arrendado_hasta, 0) > proximo_sondeo
                    THEN arrendado_hasta ELSE proximo_sondeo END) AS vence FROM fuente
                """
            ) { $0.optionalDouble("vence") } ?? nil
        }
    }

    public func registrar(_ sondeo: SondeoHecho, arrendatario: String, ahora: Double) throws
        -> Bool
    {
        try queue.write { db in
            // The fence and the source's row in one statement: a poller whose lease ran out
            // (and was taken) writes nothing of this poll.
            try db.execute(
                """
                UPDATE fuente SET etag = CASE WHEN ?1 = 1 THEN ?2 ELSE etag END,
                    modificado = CASE WHEN ?1 = 1 THEN ?3 ELSE modificado END,
                    proximo_sondeo = ?4, ultimo_sondeo = ?5, ultimo_estado = ?6,
                    fallos_seguidos = CASE WHEN ?7 = 1 THEN fallos_seguidos + 1 ELSE 0 END,
                    sondeos = sondeos + 1, arrendatario = NULL, arrendado_hasta = NULL
                WHERE id = ?8 AND arrendatario = ?9 AND arrendado_hasta >= ?5
                """, !sondeo.fallido, sondeo.etag, sondeo.modificado, sondeo.proximo, ahora,
                sondeo.estado, sondeo.fallido, sondeo.fuente, arrendatario)
            guard db.changes == 1 else { return false }
            for partido in sondeo.partidos {
                try Self.guardar(partido, fuente: sondeo.fuente, db, ahora: ahora)
            }
            if !sondeo.partidos.isEmpty { try RegistroDeCambios.anotar(.partidos, en: db) }
            return true
        }
    }

    /// One changed match: stored (created the first time, its result, state and script kept
    /// up to date after), its snapshot, and its notices with their deliveries.
    private static func guardar(
        _ sondeado: PartidoSondeado, fuente: Int, _ db: some BaseSQL, ahora: Double
    ) throws {
        let entrada = sondeado.entrada
        let partido: Int
        if let existente = try db.scalarInt(
            "SELECT id FROM partido WHERE clave = ?", entrada.clave)
        {
            partido = existente
            try db.execute(
                """
                UPDATE partido SET ft_local = ?, ft_visitante = ?, et_local = ?, et_visitante = ?,
                    penaltis_local = ?, penaltis_visitante = ?,
                    prorroga = CASE WHEN ? = 1 THEN 1 ELSE prorroga END,
                    con_guion = CASE WHEN ? = 1 THEN 1 ELSE con_guion END
                WHERE id = ?
                """, entrada.finalDelPartido?.local, entrada.finalDelPartido?.visitante,
                entrada.trasLaProrroga?.local, entrada.trasLaProrroga?.visitante,
                entrada.penaltis?.local, entrada.penaltis?.visitante, entrada.tieneProrroga,
                entrada.goles != nil, partido)
            if let goles = entrada.goles {
                try db.execute("DELETE FROM evento WHERE partido_id = ?", partido)
                try ImportacionSQL<Cola>.insertarGuion(
                    goles, rojas: entrada.rojas, cambios: entrada.cambios, partido: partido, db)
            }
        } else {
            partido = try ImportacionSQL<Cola>.insertar(entrada, db)
        }
        try db.execute(
            "UPDATE partido SET directo = ?, minuto_directo = ?, anadido_directo = ? WHERE id = ?",
            sondeado.directo.rawValue, sondeado.minuto, sondeado.anadido, partido)
        let seguimiento = try db.scalarInt(
            """
            INSERT INTO seguimiento (fuente_id, clave_externa, partido_id, foto) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (fuente_id, clave_externa) DO UPDATE SET foto = ?4, partido_id = ?3
            RETURNING id
            """, fuente, sondeado.claveExterna, partido, sondeado.foto)!
        let avisos = sondeado.avisos.map { $0.deSeguimiento(seguimiento, partido: partido) }
        try ConsultasDeAvisos.encolar(
            db, avisos: avisos, ejecucion: nil, canalesPropios: [], ahora: ahora,
            seguimiento: seguimiento)
    }

    public func arrendadas() throws -> [(fuente: Int, arrendatario: String)] {
        try queue.read { db in
            try db.rows("SELECT id, arrendatario FROM fuente WHERE arrendatario IS NOT NULL") {
                ($0.int("id"), $0.string("arrendatario"))
            }
        }
    }

    public func soltar(fuente: Int, arrendatario: String) throws {
        try queue.writeConcurrente { db in
            try db.execute(
                """
                UPDATE fuente SET arrendatario = NULL, arrendado_hasta = NULL
                WHERE id = ? AND arrendatario = ?
                """, fuente, arrendatario)
        }
    }
}
