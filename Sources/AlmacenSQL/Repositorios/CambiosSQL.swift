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
                SELECT c.id, c.clase, c.partido_id, c.ejecucion_id, c.estado, c.minuto,
                    c.goles_local, c.goles_visitante, c.mano_local, c.mano_visitante, c.duracion,
                    c.imagen, a.id IS NOT NULL, \(ConsultasDeAvisos.columnas(de: "a")),
                    c.ultimo_aviso
                FROM cambio c LEFT JOIN aviso a ON a.id = c.aviso_id
                WHERE c.id > ? ORDER BY c.id LIMIT ?
                """, id, limite
            ) { fila in
                var cambio = Cambio(
                    id: fila.int(0), clase: Cambio.Clase(rawValue: fila.string(1)) ?? .partidos,
                    partidoId: fila.optionalInt(2), imagen: fila.optionalString(11))
                if cambio.clase == .partido, let ejecucion = fila.optionalInt(3) {
                    cambio.instantanea = Cambio.Instantanea(
                        ejecucion: ejecucion,
                        estado: EjecucionGuardada.Estado(rawValue: fila.string(4)) ?? .cancelado,
                        minuto: fila.int(5),
                        goles: Marcador(local: fila.int(6), visitante: fila.int(7)),
                        golesAMano: Marcador(local: fila.int(8), visitante: fila.int(9)),
                        duracion: fila.int(10),
                        ultimoAviso: fila.optionalString(27) ?? "ninguno")
                }
                if fila.bool(12) { cambio.aviso = ConsultasDeAvisos.aviso(fila, desde: 13).0 }
                return cambio
            }
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
                    INSERT INTO cambio (clase, partido_id, aviso_id, imagen)
                    SELECT 'notificacion', nullif(CAST(?1 AS BIGINT), 0), id, CAST(?4 AS TEXT)
                    FROM aviso
                    WHERE identificador = ?2
                      AND (ejecucion_id = ?3 OR (ejecucion_id IS NULL AND CAST(?3 AS BIGINT) IS NULL))
                    ORDER BY id DESC LIMIT 1
                    """, aviso.partidoId, aviso.identificador, aviso.ejecucion, aviso.adjuntoLocal)
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
