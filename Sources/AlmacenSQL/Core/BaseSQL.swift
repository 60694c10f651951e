import Persistencia
import Sistema
import Torneo

/// A connection to a SQL store, as the repositories use it: SQLite's `Database` and
/// PostgreSQL's `ConexionPG` (module AlmacenPostgreSQL) both conform, so every repository's
/// queries and rules have one home whatever the store.
///
/// Statements use `?` (or `?N`) placeholders and the SQL both stores understand; where they
/// differ (the current time, a list parameter, row locks for claims), the text comes from
/// `dialecto`. Repositories are generic over the store, so SQLite's path keeps its direct calls.
public protocol BaseSQL: AnyObject {
    associatedtype Fila: FilaSQL

    var dialecto: Dialecto { get }

    func execute(_ sql: String, _ arguments: any DatabaseValueConvertible...) throws

    /// A write inside a transaction whose outcome nothing reads (neither rows nor `changes`):
    /// the store may send it with the transaction's next request instead of on its own, and
    /// throws its error there (at the latest at commit). Outside a transaction it runs now.
    func executeLater(_ sql: String, arguments: [any DatabaseValueConvertible]) throws

    /// Several statements at once, without parameters (migrations, seeds).
    func executeScript(_ sql: String) throws

    func rows<T>(
        _ sql: String, arguments: [any DatabaseValueConvertible], map: (Fila) throws -> T
    ) throws -> [T]

    func forEachRow(
        _ sql: String, arguments: [any DatabaseValueConvertible], body: (Fila) throws -> Void
    ) throws

    /// The first row of a query, mapped, or `nil` when there is none.
    func row<T>(
        _ sql: String, arguments: [any DatabaseValueConvertible], map: (Fila) throws -> T
    ) throws -> T?

    /// Rows the last `execute` inserted, updated or deleted.
    var changes: Int { get }
}

extension BaseSQL {
    public func executeLater(_ sql: String, _ arguments: any DatabaseValueConvertible...) throws {
        try executeLater(sql, arguments: arguments)
    }

    public func rows<T>(
        _ sql: String, _ arguments: any DatabaseValueConvertible..., map: (Fila) throws -> T
    ) throws -> [T] {
        try rows(sql, arguments: arguments, map: map)
    }

    public func forEachRow(
        _ sql: String, _ arguments: any DatabaseValueConvertible..., body: (Fila) throws -> Void
    ) throws {
        try forEachRow(sql, arguments: arguments, body: body)
    }

    /// Where the store has no shortcut: all the rows, the first one kept.
    public func row<T>(
        _ sql: String, arguments: [any DatabaseValueConvertible], map: (Fila) throws -> T
    ) throws -> T? {
        try rows(sql, arguments: arguments, map: map).first
    }

    /// The first row of a query, mapped, or `nil` when there is none.
    public func row<T>(
        _ sql: String, _ arguments: any DatabaseValueConvertible..., map: (Fila) throws -> T
    ) throws -> T? {
        try row(sql, arguments: arguments, map: map)
    }

    public func scalarInt(_ sql: String, _ arguments: any DatabaseValueConvertible...) throws
        -> Int?
    {
        try row(sql, arguments: arguments) { $0.optionalInt(0) } ?? nil
    }

    public func scalarString(_ sql: String, _ arguments: any DatabaseValueConvertible...) throws
        -> String?
    {
        try row(sql, arguments: arguments) { $0.optionalString(0) } ?? nil
    }
}

/// One row of a result. Repositories read it by column name (`fila.int("minuto")`), through
/// one mapper per record type; the positional accessors are the drivers' primitives.
///
/// A NULL where the record needs a value is a bug in a query or the schema, never data to
/// paper over: the name accessors trap on it instead of reading 0 or "".
public protocol FilaSQL {
    /// The position of the column named `nombre` in this result, `nil` when there is none.
    func posicion(de nombre: String) -> Int?
    func isNull(_ i: Int) -> Bool
    func int(_ i: Int) -> Int
    func double(_ i: Int) -> Double
    /// The text of column `i`; traps on NULL.
    func string(_ i: Int) -> String
}

extension FilaSQL {
    public func optionalInt(_ i: Int) -> Int? { isNull(i) ? nil : int(i) }
    public func optionalString(_ i: Int) -> String? { isNull(i) ? nil : string(i) }
    public func bool(_ i: Int) -> Bool { int(i) != 0 }

    /// The position of `nombre`; a query without that column is a programming error.
    public func indice(_ nombre: String) -> Int {
        guard let i = posicion(de: nombre) else {
            preconditionFailure("the query has no column «\(nombre)»")
        }
        return i
    }

    private func conValor(_ nombre: String) -> Int {
        let i = indice(nombre)
        precondition(!isNull(i), "column «\(nombre)» is NULL where a value is required")
        return i
    }

    public func int(_ nombre: String) -> Int { int(conValor(nombre)) }
    public func double(_ nombre: String) -> Double { double(conValor(nombre)) }
    public func string(_ nombre: String) -> String { string(conValor(nombre)) }
    public func bool(_ nombre: String) -> Bool { int(conValor(nombre)) != 0 }

    /// A name or a text made of names (a notice's title and body), as every output may show
    /// it whatever wrote the row: control characters escaped, cut to the import's length
    /// (`TextoSeguro.mostrable`, issue 41).
    public func nombre(_ nombre: String) -> String { TextoSeguro.mostrable(string(nombre)) }
    public func nombre(_ i: Int) -> String { TextoSeguro.mostrable(string(i)) }
    /// A text made of several names (a notice's identifier, title or body).
    public func texto(_ nombre: String) -> String {
        TextoSeguro.mostrable(string(nombre), caracteres: 1_000)
    }
    public func nombreOpcional(_ nombre: String) -> String? {
        optionalString(nombre).map { TextoSeguro.mostrable($0) }
    }
    public func nombreOpcional(_ i: Int) -> String? {
        optionalString(i).map { TextoSeguro.mostrable($0) }
    }

    public func optionalInt(_ nombre: String) -> Int? { optionalInt(indice(nombre)) }
    public func optionalString(_ nombre: String) -> String? { optionalString(indice(nombre)) }
    public func optionalDouble(_ nombre: String) -> Double? {
        let i = indice(nombre)
        return isNull(i) ? nil : double(i)
    }
    public func optionalBool(_ nombre: String) -> Bool? {
        optionalInt(indice(nombre)).map { $0 != 0 }
    }
}

/// A store's connection shared by a process: reads, and write transactions, one at a time.
public protocol ColaSQL: Sendable {
    associatedtype Base: BaseSQL

    /// The SQL its connections speak, known without opening a transaction.
    var dialecto: Dialecto { get }

    func read<T: Sendable>(_ body: (borrowing Base) throws -> T) throws -> T

    /// Runs `body` in a transaction, rolled back if it throws. On SQLite every write holds the
    /// database's one write lock; on PostgreSQL every `write` holds the store's write lock
    /// (`ColaPG`), and whatever appends to the change log also takes the log's own lock until
    /// it commits (migration 0009), so change ids follow commit order.
    func write<T: Sendable>(_ body: (borrowing Base) throws -> T) throws -> T

    /// A write that touches only rows it locks itself (the outbox's claims and outcomes, a
    /// run's minute): on PostgreSQL it does not wait for other writers, so dispatchers on
    /// several machines work side by side and one match's clock never waits for another's
    /// writes; on SQLite it is `write`.
    func writeConcurrente<T: Sendable>(_ body: (borrowing Base) throws -> T) throws -> T

    /// A concurrent write whose statements each keep their meaning when run twice (an outbox
    /// claim that hands back its own lease again, an outcome keyed by the lease holder): on
    /// PostgreSQL each statement commits on its own, one round trip with no request id, and
    /// after a lost reply the body simply runs again; on SQLite it is `write`.
    func writeIdempotente<T: Sendable>(_ body: (borrowing Base) throws -> T) throws -> T

    /// Calls `alLlegar` with each notification of `canal` until the returned value is stopped;
    /// `nil` where the store has no notifications (SQLite: its readers poll).
    func escuchar(_ canal: CanalDeNotificacion, _ alLlegar: @escaping @Sendable (String) -> Void)
        -> (any Escucha)?

    /// Only this process's commits (`Tienda.escucharEsteProceso`).
    func escucharEsteProceso(
        _ canal: CanalDeNotificacion, _ alLlegar: @escaping @Sendable (String) -> Void
    ) -> (any Escucha)?

    /// The store's clock (unix seconds): this machine's for a file every process on it shares,
    /// the server's for a database several machines share.
    func ahora() -> Double
}

extension ColaSQL {
    public func ahora() -> Double { segundosUnix() }

    public func writeConcurrente<T: Sendable>(_ body: (borrowing Base) throws -> T) throws -> T {
        try write(body)
    }

    public func writeIdempotente<T: Sendable>(_ body: (borrowing Base) throws -> T) throws -> T {
        try write(body)
    }

    public func escuchar(
        _ canal: CanalDeNotificacion, _ alLlegar: @escaping @Sendable (String) -> Void
    ) -> (any Escucha)? { nil }

    public func escucharEsteProceso(
        _ canal: CanalDeNotificacion, _ alLlegar: @escaping @Sendable (String) -> Void
    ) -> (any Escucha)? { escuchar(canal, alLlegar) }
}

/// Where the two stores' SQL differs.
public enum Dialecto: Sendable, Hashable {
    case sqlite
    case postgresql

    /// The current instant as text, `2026-12-01T01:02:03.456Z` (what the stores keep).
    public var ahora: String {
        switch self {
        case .sqlite: "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
        case .postgresql:
            "to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
        }
    }

    /// The instant `dias` days before the unix time `segundos` (two SQL expressions), as text.
    public func diasAntes(de segundos: String, _ dias: String) -> String {
        switch self {
        case .sqlite:
            "strftime('%Y-%m-%dT%H:%M:%fZ', \(segundos), 'unixepoch', '-' || \(dias) || ' days')"
        case .postgresql:
            "to_char(to_timestamp(CAST(\(segundos) AS double precision)) AT TIME ZONE 'UTC' "
                + "- CAST(\(dias) AS integer) * interval '1 day', "
                + "'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
        }
    }

    /// Seconds since the instant in `columna` (text as `ahora` writes it), `NULL` for `NULL`.
    public func segundosDesde(_ columna: String) -> String {
        switch self {
        case .sqlite: "(julianday('now') - julianday(\(columna))) * 86400.0"
        case .postgresql:
            "extract(epoch FROM clock_timestamp() - CAST(\(columna) AS timestamptz))"
        }
    }

    /// A subquery of the integers in a JSON array parameter (`[1,2,3]`).
    public func enteros(de parametro: String) -> String {
        switch self {
        case .sqlite: "SELECT value FROM json_each(\(parametro))"
        // In FROM, not in the select list: a function scan is computed once and hashed, where
        // a set-returning select list was parsed again for every row of the outer table (16 ms
        // for a batch of 256 outcomes, issue 25).
        case .postgresql:
            "SELECT CAST(t.v AS bigint) FROM json_array_elements_text(CAST(\(parametro) AS json)) AS t(v)"
        }
    }

    /// A subquery of the texts in a JSON array parameter (`["a","b"]`).
    public func textos(de parametro: String) -> String {
        switch self {
        case .sqlite: "SELECT value FROM json_each(\(parametro))"
        case .postgresql:
            "SELECT t.v FROM json_array_elements_text(CAST(\(parametro) AS json)) AS t(v)"
        }
    }

    /// What loading the seed takes first, so that it never runs beside another process's first
    /// seeding (PostgreSQL's seeding lock; SQLite's write lock is already held).
    public var cerrojoDeSemillas: String? {
        switch self {
        case .sqlite: nil
        case .postgresql: "SELECT pg_advisory_xact_lock(4242, 2)"
        }
    }
}
