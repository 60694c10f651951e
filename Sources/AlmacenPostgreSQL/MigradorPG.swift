import AlmacenSQL

/// Brings a PostgreSQL database to the schema this binary knows (`migrations/postgresql/`,
/// numbered and named as SQLite's, step for step: architecture.md), each step in its own
/// transaction under an advisory lock, so processes starting together migrate once. A database
/// written by a newer marcador is refused before anything is written.
public struct MigradorPG: Sendable {
    public let migraciones: [Migration]

    public init(migraciones: [Migration] = MigradorPG.incrustadas) {
        self.migraciones = migraciones
    }

    public static let incrustadas: [Migration] = RecursosIncrustados.migraciones.compactMap {
        fichero in
        guard fichero.nombre.hasSuffix(".sql"),
            let version = Int(fichero.nombre.prefix { $0.isNumber })
        else { return nil }
        return Migration(version: version, name: fichero.nombre, sql: fichero.texto)
    }.sorted { $0.version < $1.version }

    public var ultimaVersion: Int { migraciones.last?.version ?? 0 }

    /// The lock migrations and seeding take (keys: marcador's, then this lock's).
    static let cerrojo = Dialecto.postgresql.cerrojoDeSemillas!

    /// The database's schema version, read without writing (0 for an empty database).
    func version(_ conexion: ConexionPG) throws -> Int {
        guard
            try conexion.scalarInt(
                "SELECT CAST(to_regclass('marcador_esquema') IS NOT NULL AS integer)") == 1
        else { return 0 }
        return try conexion.scalarInt("SELECT coalesce(max(version), 0) FROM marcador_esquema") ?? 0
    }

    /// Applies what is missing, each step in its own transaction under the migration lock. An
    /// up-to-date database costs two reads and no write (a read-only one still opens), and a
    /// newer one is refused before anything is written.
    @discardableResult
    public func migrar(_ conexion: ConexionPG) throws -> [Int] {
        let leida = try version(conexion)
        if leida > ultimaVersion {
            throw MigrationError.superseded(database: leida, known: ultimaVersion)
        }
        var aplicadas: [Int] = []
        for migracion in migraciones where migracion.version > leida {
            try conexion.executeScript("BEGIN")
            do {
                try conexion.executeScript(Self.cerrojo)
                try conexion.executeScript(
                    "CREATE TABLE IF NOT EXISTS marcador_esquema (version bigint NOT NULL)")
                let actual =
                    try conexion.scalarInt(
                        "SELECT coalesce(max(version), 0) FROM marcador_esquema") ?? 0
                if actual > ultimaVersion {
                    throw MigrationError.superseded(database: actual, known: ultimaVersion)
                }
                if actual < migracion.version {
                    try conexion.executeScript(migracion.sql)
                    try conexion.execute("DELETE FROM marcador_esquema")
                    try conexion.execute(
                        "INSERT INTO marcador_esquema (version) VALUES (?)", migracion.version)
                    aplicadas.append(migracion.version)
                }
                try conexion.executeScript("COMMIT")
            } catch {
                try? conexion.executeScript("ROLLBACK")
                throw error
            }
        }
        return aplicadas
    }
}
