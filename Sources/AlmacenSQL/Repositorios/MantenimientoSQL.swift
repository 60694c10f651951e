import Persistencia
import Torneo

/// Pruning on a SQL store, in one write transaction.
public struct MantenimientoSQL<Cola: ColaSQL>: Mantenimiento {
    public let queue: Cola

    public init(_ queue: Cola) { self.queue = queue }

    @discardableResult
    public func podar(ahora: Double, caducidad: Double = 600, margen: Double = 3_600) throws
        -> Poda
    {
        try queue.write { db in
            let ajustes = try ClaveDeAjuste.ajustes(db)
            var poda = Poda()
            try db.execute(
                """
                DELETE FROM registro WHERE momento < \(db.dialecto.diasAntes(de: "?1", "?2"))
                """, ahora, ajustes.diasDeRegistro)
            poda.lineasDeRegistro += db.changes
            try db.execute(
                "DELETE FROM registro WHERE id <= (SELECT max(id) FROM registro) - ?",
                ajustes.lineasDeRegistro)
            poda.lineasDeRegistro += db.changes
            // A delivery nobody took before its notice's time-to-live (its channel works on no
            // dispatcher's machine, or none ran) expires like any other: never pending forever.
            try db.execute(
                """
                UPDATE entrega SET estado = 'caducada', ultimo_error = ?1
                WHERE estado = 'pendiente' AND (arrendado_hasta IS NULL OR arrendado_hasta < ?2)
                  AND aviso_id IN (SELECT id FROM aviso WHERE creado < ?3)
                """, "ningún despachador la entregó a tiempo", ahora, ahora - caducidad)
            poda.caducadas = db.changes
            // Notices whose deliveries are all settled (dead letters stay: the user may
            // re-queue them) and that are past any use.
            let viejos = """
                SELECT a.id FROM aviso a WHERE a.creado < ?1
                  AND NOT EXISTS (SELECT 1 FROM entrega e WHERE e.aviso_id = a.id
                                  AND e.estado IN ('pendiente', 'fallida'))
                """
            let limite = ahora - caducidad - margen
            try db.execute(
                """
                INSERT INTO entrega_podada (estado, cuantas)
                SELECT estado, count(*) FROM entrega WHERE aviso_id IN (\(viejos)) GROUP BY estado
                ON CONFLICT (estado) DO UPDATE SET cuantas = entrega_podada.cuantas + excluded.cuantas
                """, limite)
            try db.execute("DELETE FROM aviso WHERE id IN (\(viejos))", limite)
            poda.avisos = db.changes
            // The screen's changes: a page away longer than this many changes reloads instead
            // of replaying (`reinicio`).
            try db.execute(
                "DELETE FROM cambio WHERE id <= (SELECT max(id) FROM cambio) - ?",
                RegistroDeCambios.conservados)
            return poda
        }
    }

    /// One statement in autocommit: run again after a lost reply it finds the row it wrote
    /// and answers false, which only defers the prune by one interval.
    public func tocaPodar(ahora: Double, intervalo: Double) throws -> Bool {
        try queue.writeIdempotente { db in
            try db.execute(
                "UPDATE poda SET ultima = ?1 WHERE id = 1 AND (ultima <= ?2 OR ultima > ?1)",
                ahora, ahora - intervalo)
            return db.changes == 1
        }
    }
}
