import AlmacenSQL
import Persistencia
import Sistema
import Synchronization

/// The one connection a process uses, held by a mutex so any thread may use it, one at a time.
///
/// A CLI process does little concurrent database work; one connection behind a lock is simpler
/// than a pool and keeps the prepared-statement cache warm. The connection lives inside the
/// `Mutex` (GRDB's `DatabaseQueue` shape): nothing outside can reach it but through `read` and
/// `write`, whose closures do not escape, so it is `Sendable` without any unchecked promise.
/// SQLite allows a connection opened in multi-thread mode (`SQLITE_OPEN_NOMUTEX`) to move
/// between threads as long as no two use it at once (https://www.sqlite.org/threadsafe.html).
public final class DatabaseQueue: ColaSQL {
    private let database: Mutex<Database>
    public let path: String

    /// Wraps an open connection; the queue owns it from now on.
    public init(_ database: sending Database) {
        path = database.path
        self.database = Mutex(database)
    }

    /// Runs `body` with exclusive use of the connection, in one read transaction: every query
    /// it makes sees the same snapshot, whatever other processes commit meanwhile.
    public func read<T: Sendable>(_ body: (borrowing Database) throws -> T) throws -> T {
        try database.withLock { (database: inout sending Database) in
            try database.begin(.deferred)
            let resultado: T
            do {
                resultado = try body(database)
            } catch {
                database.rollback()
                throw error
            }
            try database.commit()
            return resultado
        }
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction, rolled back if it throws.
    public func write<T: Sendable>(_ body: (borrowing Database) throws -> T) throws -> T {
        try database.withLock { (database: inout sending Database) in
            try database.begin(.immediate)
            let resultado: T
            do {
                resultado = try body(database)
            } catch {
                database.rollback()
                throw error
            }
            try database.commit()
            return resultado
        }
    }
}

/// A running watch of the write-ahead log: every commit of any process appends to it.
struct EscuchaDelDiario: Escucha {
    let vigilante: VigilanteDeFichero
    func parar() { vigilante.parar() }
}

extension DatabaseQueue {
    /// SQLite has no notifications, but every commit, whoever makes it, writes to the file's
    /// `-wal`: `cambios` and `entregas` are a watch of it (inotify), so `servir` streams another
    /// process's minute at once, and a waiting dispatcher (`avisos vigilar`) is woken by a goal
    /// another process committed instead of finding it at its next poll (issue 40). A dispatcher
    /// is woken by its own claims and outcomes too: it then claims once more and finds nothing,
    /// which writes nothing, so the wake-ups stop there. Stop requests (`parar`) come by signal.
    public func escuchar(
        _ canal: CanalDeNotificacion, _ alLlegar: @escaping @Sendable (String) -> Void
    ) -> (any Escucha)? {
        guard canal == .cambios || canal == .entregas, path != ":memory:", !path.isEmpty else {
            return nil
        }
        return VigilanteDeFichero(path + "-wal") { alLlegar("") }.map(EscuchaDelDiario.init)
    }
}
