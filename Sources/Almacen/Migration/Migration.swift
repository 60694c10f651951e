/// One schema step: `migrations/NNNN_name.sql`, applied once, in order, in its own transaction.
public struct Migration: Sendable, Hashable {
    public let version: Int
    public let name: String
    public let sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// The migrations compiled into this binary, ordered by version.
    public static let embedded: [Migration] = RecursosIncrustados.migraciones.compactMap { file in
        guard file.nombre.hasSuffix(".sql"),
            let version = Int(file.nombre.prefix { $0.isNumber })
        else { return nil }
        return Migration(version: version, name: file.nombre, sql: file.texto)
    }.sorted { $0.version < $1.version }
}
