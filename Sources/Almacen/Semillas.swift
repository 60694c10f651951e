/// The default matches of `seeds/`, loaded into a fresh database and by `--reiniciar-datos`.
public enum Semillas {
    /// Marks a database whose seeds were loaded, so they load once even if a crash interrupted
    /// the first start between migrating and seeding.
    static let claveCargadas = "semillas_cargadas"

    /// Replaces every match, team and player (and, through cascades, their runs) with the seed.
    /// Settings and the log are kept: they are the user's, not sample data.
    public static func cargar(en db: Database) throws {
        try db.transaction {
            try db.execute("DELETE FROM partido")
            try db.execute("DELETE FROM jugador")
            try db.execute("DELETE FROM equipo")
            for fichero in RecursosIncrustados.semillas where fichero.nombre.hasSuffix(".sql") {
                try db.executeScript(fichero.texto)
            }
            try db.execute(
                "INSERT OR REPLACE INTO ajuste (clave, valor) VALUES (?, '1')", claveCargadas)
        }
    }

    static func cargadas(en db: Database) throws -> Bool {
        try db.scalarString("SELECT valor FROM ajuste WHERE clave = ?", claveCargadas) != nil
    }
}
