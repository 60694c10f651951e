import AlmacenSQL
import Persistencia

/// A SQLite database as a store.
public typealias TiendaSQLite = TiendaSQL<DatabaseQueue>

/// The runs of a SQLite database.
public typealias EjecucionesSQLite = EjecucionesSQL<DatabaseQueue>

/// The log of a SQLite database.
public typealias RegistroSQLite = RegistroSQL<DatabaseQueue>

/// The change log of a SQLite database.
public typealias CambiosSQLite = CambiosSQL<DatabaseQueue>

/// The settings and matches of a SQLite database (the embedded default).
public typealias PartidosSQLite = PartidosSQL<DatabaseQueue>

/// Imports into a SQLite database.
public typealias ImportacionSQLite = ImportacionSQL<DatabaseQueue>

/// Pruning of a SQLite database.
public typealias MantenimientoSQLite = MantenimientoSQL<DatabaseQueue>

/// The outbox of a SQLite database (the embedded default).
public typealias BuzonSQLite = BuzonSQL<DatabaseQueue>

/// The chronicle of a run on a SQLite database.
public typealias CronicaSQLite = CronicaSQL<DatabaseQueue>

extension TiendaSQL where Cola == DatabaseQueue {
    public init(_ queue: DatabaseQueue) { self.init(queue, descripcion: queue.path) }
}
