import Persistencia
import Torneo

/// `Cambios` over a SQL store: the `cambio` table, written by triggers for runs (migration
/// 0009), here for settings, lists and notices.
public struct CambiosSQL<Cola: ColaSQL>: Cambios {
    public let queue: Cola

    public init(_ queue: Cola) { self.queue = queue }

    public func ultimo() throws -> Int {
        // `sqlite_sequence` holds the last id handed out, even after pruning; max(id) is the
        // same and needs no knowledge of AUTOINCREMENT's bookkeeping.
        try queue.read { db in try db.scalarInt("SELECT coalesce(max(id), 0) FROM cambio") ?? 0 }
    }

    public func primero() throws -> Int? {
        try queue.read { db in try db.scalarInt("SELECT min(id) FROM cambio") }
    }

    public func desde(_ id: Int, limite: Int) throws -> [Cambio] {
        try queue.read { db in
            try db.rows(
                """
                SELECT \(Cambio.columnas)
                FROM cambio c LEFT JOIN aviso a ON a.id = c.aviso_id
                WHERE c.id > ? ORDER BY c.id LIMIT ?
                """, id, limite
            ) { try Cambio(fila: $0) }
        }
    }

    /// The local copy of a notified attachment, for the server to send.
    public func imagen(de id: Int) throws -> String? {
        try queue.read { db in
            try db.scalarString(
                "SELECT imagen FROM cambio WHERE id = ? AND clase = 'notificacion'", id)
        }
    }

    public func notificar(_ avisos: [AvisoDeGol]) throws {
        guard !avisos.isEmpty else { return }
        try queue.write { db in
            for aviso in avisos {
                // A test notice has no run; of the same identifier, the newest is the one.
                try db.execute(
                    """
                    INSERT INTO cambio (clase, partido_id, aviso_id, imagen, silencioso)
                    SELECT 'notificacion', nullif(CAST(?1 AS BIGINT), 0), id, CAST(?4 AS TEXT),
                        CAST(?6 AS BIGINT)
                    FROM aviso
                    WHERE identificador = ?2 AND tipo = ?5 AND coalesce(partido_id, 0) = ?1
                      AND (ejecucion_id = ?3 OR (ejecucion_id IS NULL AND CAST(?3 AS BIGINT) IS NULL))
                    ORDER BY id DESC LIMIT 1
                    """, aviso.partidoId, aviso.identificador, aviso.ejecucion, aviso.adjuntoLocal,
                    aviso.tipo.rawValue, aviso.tranquilo ? 1 : 0)
            }
        }
    }
}

/// The change log's plumbing shared by every repository that appends to it.
enum RegistroDeCambios {
    /// How many changes are kept (pruned by `MantenimientoSQL`).
    static let conservados = 20_000

    /// Records a change that has no row of its own to describe it, in the caller's transaction.
    static func anotar(_ clase: Cambio.Clase, en db: some BaseSQL) throws {
        try db.execute("INSERT INTO cambio (clase) VALUES (?)", clase.rawValue)
    }
}
