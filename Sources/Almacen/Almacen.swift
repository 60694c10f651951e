/// Opens marcador's database: checks it, switches it to WAL, migrates it and seeds it once.
public enum Almacen {
    /// Opens (creating if needed) the database at `ruta`, ready for use.
    ///
    /// The order matters for "refused untouched": reading the version only reads, and it comes
    /// before the first write (switching to WAL rewrites the header).
    /// - Parameter reiniciarDatos: reload the seed matches after migrating.
    /// - Throws: `SQLiteError` for files SQLite cannot use, `MigrationError.superseded` for a
    ///   database written by a newer marcador.
    public static func abrir(
        ruta: String, reiniciarDatos: Bool = false, migrator: Migrator = Migrator()
    ) throws -> DatabaseQueue {
        let db = try Database(path: ruta)
        try migrator.checkNotSuperseded(db)
        try configurar(db)
        try migrator.migrate(db)
        if try reiniciarDatos || !Semillas.cargadas(en: db) {
            try Semillas.cargar(en: db, carpeta: Semillas.carpeta(paraLaBase: ruta))
        }
        return DatabaseQueue(db)
    }

    /// An in-memory database with the full schema and the seed data: what unit tests start from.
    public static func enMemoria(conSemillas: Bool = true) throws -> DatabaseQueue {
        let db = try Database(path: ":memory:")
        try configurar(db)
        try Migrator().migrate(db)
        if conSemillas { try Semillas.cargar(en: db) }
        return DatabaseQueue(db)
    }

    static func configurar(_ db: Database) throws {
        if db.path != ":memory:" && !db.path.isEmpty {
            // journal_mode returns the resulting mode as a row.
            _ = try db.scalarString("PRAGMA journal_mode = WAL")
            // NORMAL is durable in WAL mode up to the last checkpointed commit and much faster
            // than FULL; a power cut may lose the newest commits, never corrupt the file.
            try db.execute("PRAGMA synchronous = NORMAL")
        }
        try db.execute("PRAGMA foreign_keys = ON")
    }
}
