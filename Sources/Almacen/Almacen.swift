import AlmacenSQL
import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens marcador's database: checks it, switches it to WAL, migrates it and seeds it once.
public enum Almacen {
    /// Opens (creating if needed) the database at `ruta`, ready for use.
    ///
    /// The order matters for "refused untouched": reading the version only reads, and it comes
    /// before the first write (switching to WAL rewrites the header). Creating, migrating and
    /// seeding are safe when several processes open a brand-new file at the same instant: the
    /// file is created 0600 without following symlinks, each migration and the seed check run
    /// under SQLite's write lock, so the seed is loaded exactly once and never over what
    /// another process already wrote.
    /// - Parameter reiniciarDatos: reload the seed matches after migrating.
    /// - Throws: `SQLiteError` for files SQLite cannot use, `MigrationError.superseded` for a
    ///   database written by a newer marcador.
    public static func abrir(
        ruta: String, reiniciarDatos: Bool = false, migrator: Migrator = Migrator()
    ) throws -> DatabaseQueue {
        try crearPrivado(ruta)
        let db = try Database(path: ruta)
        try migrator.checkNotSuperseded(db)
        try configurar(db)
        try migrator.migrate(db)
        if reiniciarDatos {
            try Semillas.cargar(en: db)
        } else {
            try Semillas.cargarSiFaltan(en: db)
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
            try ponerEnWAL(db)
            // NORMAL is durable in WAL mode up to the last checkpointed commit and much faster
            // than FULL; a power cut may lose the newest commits, never corrupt the file.
            try db.execute("PRAGMA synchronous = NORMAL")
        }
        try db.execute("PRAGMA foreign_keys = ON")
    }

    /// Switching to WAL needs a moment alone with the file; a process opening the same new
    /// file at the same instant may hold it, so a busy answer is retried for a while.
    /// See https://www.sqlite.org/wal.html#activating_and_configuring_wal_mode
    private static func ponerEnWAL(_ db: Database) throws {
        for intento in 1...500 {
            do {
                // journal_mode returns the resulting mode as a row.
                if try db.scalarString("PRAGMA journal_mode = WAL") == "wal" { return }
            } catch {
                guard error.code.primario == .busy, intento < 500 else { throw error }
            }
            usleep(10_000)
        }
        throw SQLiteError(code: .busy)
    }

    /// Creates an empty database file readable by its owner only (it holds webhook URLs with
    /// their tokens), refusing to create or follow a symlink. `-wal` and `-shm` take the
    /// database's mode from SQLite. An existing file is left as it is.
    static func crearPrivado(_ ruta: String) throws(SQLiteError) {
        guard ruta != ":memory:", !ruta.isEmpty, !ruta.hasPrefix("file:") else { return }
        let descriptor = open(ruta, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            fchmod(descriptor, 0o600)
            close(descriptor)
            return
        }
        if errno == EEXIST {
            var info = stat()
            if lstat(ruta, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK {
                throw SQLiteError(
                    code: .cantopen, message: "es un enlace simbólico", systemErrno: ELOOP)
            }
            return
        }
        // Let SQLite report the failure in its own terms (missing folder, read-only…).
    }
}
