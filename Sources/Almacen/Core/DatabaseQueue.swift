import AlmacenSQL
import Synchronization

/// The one connection a process uses, serialized behind a lock so any task may use it.
///
/// A CLI process does little concurrent database work; one connection with a lock is simpler
/// than a pool and keeps the prepared-statement cache warm.
///
/// `@unchecked Sendable` proof: `database` is private and only touched inside `lock.withLock`,
/// so at most one thread uses the connection at a time, and the closures given to `read` and
/// `write` are not escaping, so no reference to it outlives the lock. SQLite allows a
/// connection opened in multi-thread mode (`SQLITE_OPEN_NOMUTEX`) to move between threads as
/// long as no two use it at once (https://www.sqlite.org/threadsafe.html).
public final class DatabaseQueue: ColaSQL, @unchecked Sendable {
    private let lock = Mutex(())
    private let database: Database
    public let path: String

    /// Wraps an open connection; the queue owns it from now on.
    public init(_ database: Database) {
        self.database = database
        path = database.path
    }

    /// Runs `body` with exclusive use of the connection, outside any transaction.
    public func read<T: Sendable>(_ body: (Database) throws -> T) throws -> T {
        try lock.withLock { _ in try body(database) }
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction, rolled back if it throws.
    public func write<T: Sendable>(_ body: (Database) throws -> T) throws -> T {
        try lock.withLock { _ in try database.transaction { try body(database) } }
    }
}
