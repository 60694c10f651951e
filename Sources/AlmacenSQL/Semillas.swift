import Persistencia
import Torneo

/// The default matches of `seeds/`, loaded into a fresh database and by `--reiniciar-datos`.
public enum Semillas {
    /// Marks a database whose seeds were loaded, so they load once even if a crash interrupted
    /// the first start between migrating and seeding.
    public static let claveCargadas = "semillas_cargadas"

    /// The load itself, inside the caller's transaction (and its lock, on PostgreSQL).
    public static func cargarDentro(_ db: some BaseSQL) throws {
        try db.execute("DELETE FROM partido")
        try db.execute("DELETE FROM jugador")
        try db.execute("DELETE FROM equipo")
        for fichero in RecursosIncrustados.semillas where fichero.nombre.hasSuffix(".sql") {
            try db.executeScript(fichero.texto)
        }
        // The seed gives its rows their ids; PostgreSQL's identity columns must then start
        // after them (SQLite takes max(id) + 1 by itself).
        if db.dialecto == .postgresql {
            for tabla in ["equipo", "jugador", "partido", "evento"] {
                try db.executeScript(
                    "SELECT setval(pg_get_serial_sequence('\(tabla)', 'id'), "
                        + "coalesce((SELECT max(id) FROM \(tabla)), 0) + 1, false)")
            }
        }
        try db.execute(ClaveDeAjuste.guardar, claveCargadas, "1")
        try RegistroDeCambios.anotar(.partidos, en: db)
    }

    public static func cargadas(en db: some BaseSQL) throws -> Bool {
        try db.scalarString("SELECT valor FROM ajuste WHERE clave = ?", claveCargadas) != nil
    }

    /// The scheme of attachments that ship inside the binary (`semilla:gol.gif`).
    public static let esquemaDeAdjuntos = "semilla:"

    /// The bytes of an embedded seed file (`gol.gif`), or `nil` when there is no such file.
    public static func fichero(_ nombre: String) -> [UInt8]? {
        RecursosIncrustados.semillas.first { $0.nombre == nombre && !$0.nombre.hasSuffix(".sql") }?
            .bytes
    }
}
