import Persistencia
import Torneo

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
}

public enum MigrationError: Error, Sendable, Equatable {
    case superseded(database: Int, known: Int)
    case foreignKeyViolation(migration: String, table: String)
}
