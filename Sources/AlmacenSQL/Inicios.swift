import Torneo

/// The kick-off instants of matches imported before the store kept them (version 12): filled
/// once, when a store is opened, by both stores.
public enum Inicios {
    /// Whether some match still lacks its instant (one index probe: the usual answer is no).
    public static func faltan(_ db: some BaseSQL) throws -> Bool {
        try db.scalarInt(
            "SELECT count(*) FROM (SELECT 1 FROM partido WHERE inicio IS NULL AND fecha IS NOT NULL LIMIT 1) AS t"
        ) != 0
    }

    /// Fills them in, inside the caller's write transaction. A date that is not on the
    /// calendar (written by hand, or by a version that did not check) stays without one and
    /// lists among the undated matches.
    public static func completar(_ db: some BaseSQL) throws {
        let pendientes = try db.rows(
            "SELECT id, fecha, hora FROM partido WHERE inicio IS NULL AND fecha IS NOT NULL"
        ) { ($0.int("id"), $0.optionalString("fecha"), $0.optionalString("hora")) }
        for (id, fecha, hora) in pendientes {
            guard let saque = Saque(fecha: fecha, hora: hora) else { continue }
            try db.execute("UPDATE partido SET inicio = ? WHERE id = ?", saque.segundos, id)
        }
    }
}
