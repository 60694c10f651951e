import AlmacenSQL
import Persistencia
import Synchronization

/// A process's connection to the PostgreSQL store, serialized behind a lock like SQLite's
/// `DatabaseQueue`.
///
/// `write` holds one advisory lock until it commits, so the store's writers (runs, settings,
/// imports, the change log) follow one another exactly as on SQLite, and run control stays one
/// transaction; `writeConcurrente` (the outbox's claims and outcomes, which lock their own rows
/// with `FOR UPDATE SKIP LOCKED`) does not take it. A transaction that loses a race (40001,
/// 40P01) runs again; a broken connection is opened again once.
public final class ColaPG: ColaSQL {
    public typealias Base = ConexionPG

    public let url: String
    private let conexion: Mutex<ConexionPG>

    /// The advisory lock `write` takes (two keys: marcador's, then this lock's).
    static let ordenDeEscritura: (Int32, Int32) = (4242, 0)

    public init(url: String) throws {
        self.url = url
        conexion = Mutex(try ConexionPG(url: url))
    }

    public func read<T: Sendable>(_ body: (borrowing ConexionPG) throws -> T) throws -> T {
        try conexion.withLock { conexion in
            do {
                return try body(conexion)
            } catch let error as ErrorPG where error.sinConexion {
                conexion = try ConexionPG(url: url)
                return try body(conexion)
            }
        }
    }

    public func write<T: Sendable>(_ body: (borrowing ConexionPG) throws -> T) throws -> T {
        try transaccion(ordenada: true, body)
    }

    public func writeConcurrente<T: Sendable>(_ body: (borrowing ConexionPG) throws -> T) throws
        -> T
    {
        try transaccion(ordenada: false, body)
    }

    /// LISTEN on a connection of its own, on a thread of its own (`OyentePG`).
    public func escuchar(
        _ canal: CanalDeNotificacion, _ alLlegar: @escaping @Sendable (String) -> Void
    ) -> (any Escucha)? {
        OyentePG(url: url, canal: canal.rawValue, alLlegar: alLlegar)
    }

    private func transaccion<T: Sendable>(
        ordenada: Bool, _ body: (borrowing ConexionPG) throws -> T
    )
        throws -> T
    {
        try conexion.withLock { conexion in
            var intento = 0
            while true {
                intento += 1
                do {
                    try conexion.executeScript("BEGIN")
                    if ordenada {
                        try conexion.executeScript(
                            "SELECT pg_advisory_xact_lock(\(Self.ordenDeEscritura.0), \(Self.ordenDeEscritura.1))"
                        )
                    }
                    let resultado = try body(conexion)
                    try conexion.executeScript("COMMIT")
                    return resultado
                } catch let error as ErrorPG where error.sinConexion && intento == 1 {
                    conexion = try ConexionPG(url: url)
                } catch let error as ErrorPG where error.reintentable && intento < 10 {
                    try? conexion.executeScript("ROLLBACK")
                } catch {
                    if conexion.enTransaccion { try? conexion.executeScript("ROLLBACK") }
                    throw error
                }
            }
        }
    }
}
