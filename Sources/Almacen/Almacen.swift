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
        if let inmutable = soloLectura(ruta) {
            return try abrirParaLeer(ruta, inmutable: inmutable, migrator: migrator)
        }
        try crearPrivado(ruta)
        try comprobarFicheros(ruta)
        let db = try Database(path: ruta)
        try migrator.checkNotSuperseded(db)
        try comprobarQueEsDeMarcador(db)
        try configurar(db)
        try migrator.migrate(db)
        try marcarComoDeMarcador(db)
        if reiniciarDatos {
            try Semillas.cargar(en: db)
        } else {
            try Semillas.cargarSiFaltan(en: db)
        }
        if try Inicios.faltan(db) { try db.transaction { try Inicios.completar(db) } }
        return DatabaseQueue(db)
    }

    /// Whether the database at `ruta` exists and cannot be written (a read-only file system,
    /// or a file without write permission), and then whether it can never change while open
    /// (the file system itself is read-only); `nil` for a database marcador may write.
    static func soloLectura(_ ruta: String) -> Bool? {
        guard ruta != ":memory:", !ruta.isEmpty, !ruta.hasPrefix("file:") else { return nil }
        var info = stat()
        guard lstat(ruta, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        var sistema = statvfs()
        let sistemaDeSoloLectura =
            statvfs(ruta, &sistema) == 0 && sistema.f_flag & UInt(ST_RDONLY) != 0
        if sistemaDeSoloLectura { return true }
        return access(ruta, W_OK) != 0 ? false : nil
    }

    /// A database that cannot be written is still read (issue 41: `partidos` on a read-only
    /// file system exited 74): no WAL switch, no migration, no seed, no mark; every write
    /// fails with SQLite's «solo lectura», exit 74. One that needs a migration cannot be read
    /// by this binary, and says so. On a read-only file system the file is opened immutable,
    /// unless a `-wal` holds commits not yet checkpointed (SQLite then reads through it).
    static func abrirParaLeer(_ ruta: String, inmutable: Bool, migrator: Migrator) throws
        -> DatabaseQueue
    {
        try comprobarFicheros(ruta)
        var diario = stat()
        let conDiario = stat(ruta + "-wal", &diario) == 0 && diario.st_size > 0
        let db = try Database(path: ruta, readOnly: true, inmutable: inmutable && !conDiario)
        try migrator.checkNotSuperseded(db)
        try comprobarQueEsDeMarcador(db)
        if try migrator.currentVersion(db) < migrator.latestVersion {
            throw SQLiteError(
                code: .readonly,
                message: "la base de datos es de una versión anterior y hay que migrarla")
        }
        try db.execute("PRAGMA foreign_keys = ON")
        return DatabaseQueue(db)
    }

    /// What marcador writes in the file's header (`PRAGMA application_id`, «MRCD»): a SQLite
    /// file of another program is recognised and refused, never migrated.
    /// See https://www.sqlite.org/fileformat.html#application_id
    public static let idDeAplicacion: Int32 = 0x4D52_4344

    /// Refuses a SQLite file that is not marcador's: not ours by its header, and holding tables
    /// of its own (an empty file, or one an earlier marcador wrote before the header had the
    /// mark, is ours).
    static func comprobarQueEsDeMarcador(_ db: Database) throws {
        // One statement, one snapshot: another process may be migrating the file right now,
        // and its tables and its version arrive in the same commit.
        let (id, version, tablas) =
            try db.row(
                """
                SELECT (SELECT application_id FROM pragma_application_id) AS id,
                    (SELECT user_version FROM pragma_user_version) AS version,
                    (SELECT count(*) FROM sqlite_schema) AS tablas
                """
            ) { ($0.int("id"), $0.int("version"), $0.int("tablas")) } ?? (0, 0, 0)
        guard id != Int(idDeAplicacion) else { return }
        if id != 0 || (version == 0 && tablas > 0) {
            throw FicheroAjeno.deOtroPrograma
        }
    }

    /// Writes the mark once (a new database, or one an earlier marcador wrote).
    static func marcarComoDeMarcador(_ db: Database) throws {
        guard try db.scalarInt("PRAGMA application_id") != Int(idDeAplicacion) else { return }
        try db.executeScript("PRAGMA application_id = \(idDeAplicacion)")
    }

    /// The database and its `-wal` and `-shm` must be this user's own and writable by nobody
    /// else: a file planted by another user (or left 0666) could be read or changed behind
    /// marcador's back, and it holds webhook secrets (safety.md).
    static func comprobarFicheros(_ ruta: String) throws {
        guard ruta != ":memory:", !ruta.isEmpty, !ruta.hasPrefix("file:") else { return }
        for fichero in [ruta, ruta + "-wal", ruta + "-shm"] {
            var info = stat()
            guard lstat(fichero, &info) == 0 else { continue }
            if info.st_uid != getuid() {
                throw FicheroAjeno.deOtroUsuario(fichero: fichero, uid: Int(info.st_uid))
            }
            if info.st_mode & 0o022 != 0 {
                throw FicheroAjeno.escribiblePorOtros(
                    fichero: fichero, permisos: Int(info.st_mode & 0o777))
            }
        }
    }

    /// An in-memory database with the full schema and the seed data: what unit tests start from.
    public static func enMemoria(conSemillas: Bool = true) throws -> DatabaseQueue {
        let db = try Database(path: ":memory:")
        try configurar(db)
        try Migrator().migrate(db)
        try marcarComoDeMarcador(db)
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

/// A database file marcador refuses to use, and why (exit 74, nothing written).
public enum FicheroAjeno: Error, Sendable, Equatable {
    /// Owned by another user.
    case deOtroUsuario(fichero: String, uid: Int)
    /// Others may write it (group or world write permission).
    case escribiblePorOtros(fichero: String, permisos: Int)
    /// A SQLite database of another program.
    case deOtroPrograma
}
