import AlmacenSQL

/// Brings a database to the schema this binary knows, recording progress in `PRAGMA user_version`.
///
/// As GRDB does, foreign keys are turned off around the migrations (a table rebuild — create,
/// copy, drop, rename — must never cascade-delete what hangs from the old table), each
/// migration runs in `BEGIN IMMEDIATE … COMMIT` with its version bump and a
/// `PRAGMA foreign_key_check`, and foreign keys are turned back on afterwards. A crash leaves the
/// database at the previous version, never in between. A database already past the newest
/// known version was written by a newer `marcador` and is refused untouched: guessing how to
/// "repair" it would lose the newer program's data.
public struct Migrator: Sendable {
    public let migrations: [Migration]
    /// Run instead of the steps on an empty database, when it ends where they end.
    public let esquema: Esquema?

    /// - Parameter esquema: the embedded snapshot unless told otherwise; it is used only with
    ///   the embedded migrations and when its version is their last one.
    public init(migrations: [Migration] = Migration.embedded, esquema: Esquema? = .incrustado) {
        precondition(
            zip(migrations, migrations.dropFirst()).allSatisfy { $0.version < $1.version },
            "migrations must have strictly increasing versions")
        self.migrations = migrations
        let vale = esquema?.version == migrations.last?.version && migrations == Migration.embedded
        self.esquema = vale ? esquema : nil
    }

    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Fails without writing anything when the database is newer than this binary.
    public func checkNotSuperseded(_ db: Database) throws {
        let current = try currentVersion(db)
        if current > latestVersion {
            throw MigrationError.superseded(database: current, known: latestVersion)
        }
    }

    public func currentVersion(_ db: Database) throws -> Int {
        try db.scalarInt("PRAGMA user_version") ?? 0
    }

    /// Applies the missing migrations; returns the versions it applied.
    ///
    /// `PRAGMA foreign_keys` is a no-op inside a transaction, so it is switched between them.
    /// See https://www.sqlite.org/pragma.html#pragma_foreign_keys
    @discardableResult
    public func migrate(_ db: Database) throws -> [Int] {
        try checkNotSuperseded(db)
        guard try currentVersion(db) < latestVersion else { return [] }
        let foreignKeys = try db.scalarInt("PRAGMA foreign_keys") == 1
        try db.execute("PRAGMA foreign_keys = OFF")
        defer { if foreignKeys { try? db.execute("PRAGMA foreign_keys = ON") } }
        if let esquema, try desdeElEsquema(esquema, db) { return migrations.map(\.version) }
        var applied: [Int] = []
        for migration in migrations where try migration.version > currentVersion(db) {
            try db.transaction {
                // Re-read inside the write lock: another process may have migrated meanwhile.
                let current = try currentVersion(db)
                if current > latestVersion {
                    throw MigrationError.superseded(database: current, known: latestVersion)
                }
                guard current < migration.version else { return }
                try db.executeScript(migration.sql)
                let violations = try db.rows("PRAGMA foreign_key_check") { $0.string(0) }
                if let table = violations.first {
                    throw MigrationError.foreignKeyViolation(
                        migration: migration.name, table: table)
                }
                // PRAGMA takes no bound parameters; the version is an Int from our own file name.
                try db.executeScript("PRAGMA user_version = \(migration.version)")
                applied.append(migration.version)
            }
        }
        return applied
    }
}

extension Migrator {
    /// A database with nothing in it gets the whole schema in one transaction; `false` (and
    /// nothing written) when it is not empty by the time the write lock is held.
    private func desdeElEsquema(_ esquema: Esquema, _ db: Database) throws -> Bool {
        try db.transaction {
            guard try currentVersion(db) == 0,
                try db.scalarInt("SELECT count(*) FROM sqlite_schema") == 0
            else { return false }
            try db.executeScript(esquema.sql)
            return true
        }
    }
}
