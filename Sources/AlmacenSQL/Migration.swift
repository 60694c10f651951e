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

extension MigrationError: ErrorDeTienda {
    public var explicacion: String { mensaje(para: "marcador") }

    public func mensaje(para ruta: String) -> String {
        switch self {
        case .superseded(let version, let conocida):
            "La base de datos «\(ruta)» es de una versión más nueva de marcador "
                + "(esquema \(version); esta versión conoce hasta el \(conocida)). "
                + "Actualiza marcador; no se ha modificado nada."
        case .foreignKeyViolation(let nombre, let tabla):
            "La migración \(nombre) dejaría datos incoherentes en la tabla \(tabla); "
                + "no se ha aplicado."
        }
    }
}
