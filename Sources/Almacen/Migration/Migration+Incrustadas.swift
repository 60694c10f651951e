import AlmacenSQL

extension Migration {
    /// The migrations compiled into this binary, ordered by version.
    public static let embedded: [Migration] = RecursosIncrustados.migraciones.compactMap { file in
        guard file.nombre.hasSuffix(".sql"),
            let version = Int(file.nombre.prefix { $0.isNumber })
        else { return nil }
        return Migration(version: version, name: file.nombre, sql: file.texto)
    }.sorted { $0.version < $1.version }
}

/// The whole schema at one version in a single script: `migrations/esquema.sql`, generated from
/// the migrations by `make esquema` (a test checks it builds exactly what they build). A brand-new
/// database runs it instead of replaying every step, table rebuilds included.
public struct Esquema: Sendable, Hashable {
    public let version: Int
    public let sql: String

    /// The snapshot compiled into this binary, if there is one; its version is the one its
    /// `PRAGMA user_version = N;` line sets.
    public static let incrustado: Esquema? = {
        let prefijo = "PRAGMA user_version = "
        guard
            let fichero = RecursosIncrustados.migraciones.first(where: {
                $0.nombre == "esquema.sql"
            }),
            let linea = fichero.texto.split(separator: "\n").first(where: {
                $0.hasPrefix(prefijo)
            }),
            let version = Int(linea.dropFirst(prefijo.count).prefix { $0.isNumber })
        else { return nil }
        return Esquema(version: version, sql: fichero.texto)
    }()
}
