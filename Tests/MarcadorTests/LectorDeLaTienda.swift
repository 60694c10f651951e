import Almacen
import AlmacenPostgreSQL
import AlmacenSQL
import ApoyoDePruebas
import Foundation

/// Reads a test makes of the store under the binary, SQLite or PostgreSQL alike, on one
/// connection kept open. A test that polls keeps one: opening a connection for every poll made
/// the race matrix start a PostgreSQL backend every few milliseconds, CPU taken from the very
/// processes it was racing.
struct LectorDeLaTienda: Sendable {
    private enum Cola: Sendable {
        case sqlite(DatabaseQueue)
        case postgresql(ColaPG)
    }

    private let cola: Cola

    init(db: String) throws {
        cola =
            AlmacenPG.esURL(db)
            ? .postgresql(try ColaPG(url: db)) : .sqlite(try DatabaseQueue(Database(path: db)))
    }

    /// One integer (0 when the query yields none).
    func entero(_ sql: String) async throws -> Int {
        try await leer { try $0.scalarInt(sql) } ?? 0
    }

    /// The runs of a match, oldest first: how each ended and when it began and ended.
    func ejecuciones(_ partido: Int) async throws -> [(
        estado: String, empezada: String, acabada: String?
    )] {
        let sql =
            "SELECT estado, empezada, acabada FROM ejecucion WHERE partido_id = \(partido) ORDER BY empezada, id"
        let filas = try await leer { base in
            try base.rows(sql) {
                [$0.string("estado"), $0.string("empezada"), $0.optionalString("acabada")]
            }
        }
        return filas.map { ($0[0] ?? "", $0[1] ?? "", $0[2]) }
    }

    private func leer<T: Sendable>(
        _ cuerpo: @escaping @Sendable (borrowing any BaseSQL) throws -> T
    ) async throws -> T {
        let cola = self.cola
        return try await fueraDelPool {
            switch cola {
            case .sqlite(let sqlite): try sqlite.read { try cuerpo($0) }
            case .postgresql(let postgresql): try postgresql.read { try cuerpo($0) }
            }
        }
    }
}
