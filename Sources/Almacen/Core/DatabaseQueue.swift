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
    public var dialecto: Dialecto { .sqlite }
    /// The in-process observers of this queue's commits, by channel (`escuchar`).
    private let observadores = Mutex<Observadores>(Observadores())

    private struct Observadores {
        var siguiente = 0
        var lista: [Int: (canal: CanalDeNotificacion, alLlegar: @Sendable (String) -> Void)] = [:]
    }

    /// Wraps an open connection; the queue owns it from now on.
    public init(_ database: sending Database) {
        path = database.path
        // What the opening wrote (migrations, seeds) was before anyone could listen.
        _ = database.tomarEscrituras()
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

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction, rolled back if it throws. After the
    /// commit, this process's observers of what it wrote are told (outside the lock).
    public func write<T: Sendable>(_ body: (borrowing Database) throws -> T) throws -> T {
        let (resultado, escritas) = try database.withLock {
            (database: inout sending Database) -> (T, Set<String>) in
            try database.begin(.immediate)
            let resultado: T
            do {
                resultado = try body(database)
            } catch {
                database.rollback()
                _ = database.tomarEscrituras()
                throw error
            }
            do {
                try database.commit()
            } catch {
                _ = database.tomarEscrituras()
                throw error
            }
            return (resultado, database.tomarEscrituras())
        }
        if !escritas.isEmpty { avisar(escritas) }
        return resultado
    }

    /// The table whose rows each channel announces.
    private static let tablas: [CanalDeNotificacion: String] = [
        .entregas: "entrega", .cambios: "cambio",
    ]

    private func avisar(_ escritas: Set<String>) {
        let avisar = observadores.withLock { observadores in
            observadores.lista.values.filter { escritas.contains(Self.tablas[$0.canal] ?? "") }
        }
        for observador in avisar { observador.alLlegar("") }
    }
}

/// A running watch of the write-ahead log: every commit of any process appends to it.
struct EscuchaDelDiario: Escucha {
    let vigilante: VigilanteDeFichero
    func parar() { vigilante.parar() }
}

extension DatabaseQueue {
    /// SQLite has no notifications, so a commit is heard two ways: this process's own, as each
    /// commits, when it wrote the channel's table (`escucharEsteProceso`); and any process's,
    /// because every commit writes to the file's `-wal`, by a watch of it (inotify). So `servir`
    /// streams another process's minute at once, and a waiting dispatcher (`avisos vigilar`) is
    /// woken by a goal another process committed instead of finding it at its next poll. A
    /// dispatcher is woken by its own claims and outcomes too: it then claims once more and
    /// finds nothing, which writes nothing, so the wake-ups stop there. Stop requests
    /// (`parar`) come by signal.
    public func escuchar(
        _ canal: CanalDeNotificacion, _ alLlegar: @escaping @Sendable (String) -> Void
    ) -> (any Escucha)? {
        guard let propia = escucharEsteProceso(canal, alLlegar) else { return nil }
        guard path != ":memory:", !path.isEmpty,
            let diario = VigilanteDeFichero(path + "-wal", alCambiar: { alLlegar("") })
        else { return propia }
        return Escuchas(partes: [propia, EscuchaDelDiario(vigilante: diario)])
    }

    /// This process's own commits only, told as each commits (GRDB's `TransactionObserver`
    /// idea): exactly the commits in which a statement that may write the channel's table
    /// changed rows, none of another process.
    /// For a dispatcher that only serves what its own process enqueues (`jugar`), the watch of
    /// the log would wake it at every minute of its own match for nothing.
    public func escucharEsteProceso(
        _ canal: CanalDeNotificacion, _ alLlegar: @escaping @Sendable (String) -> Void
    ) -> (any Escucha)? {
        guard Self.tablas[canal] != nil else { return nil }
        let clave = observadores.withLock { observadores -> Int in
            observadores.siguiente += 1
            observadores.lista[observadores.siguiente] = (canal, alLlegar)
            return observadores.siguiente
        }
        return EscuchaPropia { [weak self] in
            _ = self?.observadores.withLock { $0.lista.removeValue(forKey: clave) }
        }
    }
}

/// An in-process observer, removed when stopped.
struct EscuchaPropia: Escucha {
    let quitar: @Sendable () -> Void
    func parar() { quitar() }
}

/// Several watches stopped together.
struct Escuchas: Escucha {
    let partes: [any Escucha]
    func parar() { for parte in partes { parte.parar() } }
}
