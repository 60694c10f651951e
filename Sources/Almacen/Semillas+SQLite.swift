import AlmacenSQL

extension Semillas {
    /// Replaces every match, team and player (and, through cascades, their runs) with the seed.
    /// Settings and the log are kept: they are the user's, not sample data.
    public static func cargar(en db: Database) throws {
        try db.transaction { try cargarDentro(db) }
    }

    /// Loads the seed only if no process did yet: check and load in one write transaction, so
    /// N processes opening a new file seed it once and never wipe what another one wrote.
    public static func cargarSiFaltan(en db: Database) throws {
        if try cargadas(en: db) { return }
        try db.transaction {
            if try cargadas(en: db) { return }
            try cargarDentro(db)
        }
    }
}
