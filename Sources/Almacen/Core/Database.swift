import AlmacenSQL
import CSQLite
import Sistema

#if canImport(Glibc)
    import Glibc
#endif

/// One SQLite connection. Not thread-safe by itself: owners keep it behind a lock or an actor.
///
/// Every value goes through a bound parameter; SQL text is never built from data.
public final class Database: BaseSQL {
    public var dialecto: Dialecto { .sqlite }

    let handle: OpaquePointer
    /// The file this connection opened (`:memory:` for an in-memory database).
    public let path: String
    private var statements: [StatementKey: Statement] = [:]
    private var transactionDepth = 0

    /// Opens (and creates, unless `readOnly`) the database at `path`.
    ///
    /// Opening is lazy in SQLite: a file that is not a database is only detected at the first
    /// read, which `Database` does right away so callers get the error here.
    /// See https://www.sqlite.org/c3ref/open.html
    /// - Parameter inmutable: the file cannot change while it is open (it lies on a read-only
    ///   file system): SQLite reads it without the `-shm` it could not create there.
    ///   See https://www.sqlite.org/uri.html#uriimmutable
    public init(
        path: String, readOnly: Bool = false, inmutable: Bool = false,
        busyTimeoutMilliseconds: Int32 = 5_000
    ) throws(SQLiteError) {
        var handle: OpaquePointer?
        let flags =
            (readOnly || inmutable
                ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
            // Never open a database through a symlink (a shared folder could redirect it).
            | (path == ":memory:" || path.isEmpty ? 0 : SQLITE_OPEN_NOFOLLOW)
            | (inmutable ? SQLITE_OPEN_URI : 0)
        let nombre = inmutable ? Self.uriInmutable(path) : path
        let code = sqlite3_open_v2(nombre, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) }
            sqlite3_close_v2(handle)
            throw SQLiteError(code: ResultCode(rawValue: code), message: message)
        }
        self.handle = handle
        self.path = path
        aprenderEscrituras()
        // SQLite's own busy timeout sleeps where a signal cannot reach it; this handler waits
        // the same time in short naps and gives up once the process is stopping (delivery.md).
        sqlite3_busy_handler(
            handle,
            { contexto, veces in
                let limite = Int(bitPattern: contexto)
                guard Int(veces) * Database.siesta < limite, !Interrupcion.sinGracia else {
                    return 0
                }
                usleep(useconds_t(Database.siesta * 1000))
                return 1
            }, UnsafeMutableRawPointer(bitPattern: Int(busyTimeoutMilliseconds)))
        // Touch the schema so a file of random bytes fails now, not at some later query.
        _ = try scalarInt("PRAGMA schema_version")
    }

    /// `file:` + the path with every byte that is not plain percent-encoded +
    /// `?immutable=1`.
    static func uriInmutable(_ path: String) -> String {
        var uri = "file:"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "."),
                UInt8(ascii: "-"), UInt8(ascii: "_"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                uri += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return uri + "?immutable=1"
    }

    /// Milliseconds of each nap while another connection holds the lock.
    static let siesta = 2

    /// What `trazar` calls, kept alive while tracing.
    private var traza: Traza?

    /// The statements a caller runs, as `marcador-bench` compares them with its C baseline.
    private final class Traza {
        let alEjecutar: @Sendable (String) -> Void
        init(_ alEjecutar: @escaping @Sendable (String) -> Void) { self.alEjecutar = alEjecutar }
    }

    /// Calls `alEjecutar` with the SQL text of every statement this connection starts (not
    /// those its triggers run), until called with `nil`. For the bench's check that a baseline
    /// runs exactly marcador's statements; nothing in the product traces.
    /// `@Sendable`: the connection runs on whatever thread holds its queue.
    public func trazar(_ alEjecutar: (@Sendable (String) -> Void)?) {
        traza = alEjecutar.map(Traza.init)
        guard let traza else {
            sqlite3_trace_v2(handle, 0, nil, nil)
            return
        }
        sqlite3_trace_v2(
            handle, UInt32(SQLITE_TRACE_STMT),
            { _, contexto, _, texto in
                // A trigger's start comes as a comment (`-- TRIGGER …`): not a statement run.
                guard let contexto, let texto else { return 0 }
                let sql = String(cString: texto.assumingMemoryBound(to: CChar.self))
                if !sql.hasPrefix("--") {
                    Unmanaged<Traza>.fromOpaque(contexto).takeUnretainedValue().alEjecutar(sql)
                }
                return 0
            }, Unmanaged.passUnretained(traza).toOpaque())
    }

    /// The tables this connection's statements wrote since they were last taken, for the
    /// in-process observer of commits (`DatabaseQueue.escuchar`).
    private let escrituras = Escrituras()

    /// What the authorizer saw a statement being compiled to write, and what was written.
    final class Escrituras {
        /// Filled while a statement is prepared: the tables it (or a trigger it fires) may
        /// insert into, update or delete from.
        var alPreparar: Set<String>?
        var tablas: Set<String> = []
    }

    /// SQLite's update hook is silent for WITHOUT ROWID tables (`entrega` is one), so what a
    /// statement may write is learnt once, as it is prepared, from the authorizer, which sees
    /// trigger bodies too; the statement then names those tables each time it changes rows.
    /// See https://www.sqlite.org/c3ref/set_authorizer.html
    private func aprenderEscrituras() {
        sqlite3_set_authorizer(
            handle,
            { contexto, accion, tabla, _, _, _ in
                guard let contexto, let tabla,
                    accion == SQLITE_INSERT || accion == SQLITE_UPDATE || accion == SQLITE_DELETE
                else { return SQLITE_OK }
                let escrituras = Unmanaged<Escrituras>.fromOpaque(contexto).takeUnretainedValue()
                escrituras.alPreparar?.insert(String(cString: tabla))
                return SQLITE_OK
            }, Unmanaged.passUnretained(escrituras).toOpaque())
    }

    /// Prepares `sql`, telling which tables it may write.
    func preparar(_ sql: String) throws(SQLiteError) -> (OpaquePointer, Set<String>) {
        escrituras.alPreparar = []
        defer { escrituras.alPreparar = nil }
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(
            self.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else { throw error(code, sql: sql) }
        return (handle, escrituras.alPreparar ?? [])
    }

    /// A statement that may write `tablas` changed rows.
    func anotarEscritura(_ tablas: Set<String>) { escrituras.tablas.formUnion(tablas) }

    /// The tables written since the last call.
    public func tomarEscrituras() -> Set<String> {
        guard !escrituras.tablas.isEmpty else { return [] }
        defer { escrituras.tablas = [] }
        return escrituras.tablas
    }

    deinit {
        sqlite3_set_authorizer(handle, nil, nil)
        sqlite3_trace_v2(handle, 0, nil, nil)
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    func error(_ code: Int32, sql: String?) -> SQLiteError {
        SQLiteError(
            code: ResultCode(rawValue: sqlite3_extended_errcode(handle)),
            message: String(cString: sqlite3_errmsg(handle)),
            sql: sql, systemErrno: sqlite3_system_errno(handle))
    }

    /// A cached prepared statement for `sql` (prepared once per connection).
    public func statement(_ sql: String) throws(SQLiteError) -> Statement {
        let key = StatementKey(sql)
        if let cached = statements[key] { return cached }
        let statement = try Statement(database: self, sql: sql)
        statements[key] = statement
        return statement
    }

    /// Runs one statement with bound `arguments`, discarding any rows.
    public func execute(_ sql: String, _ arguments: any DatabaseValueConvertible...)
        throws(SQLiteError)
    {
        try run(sql, arguments)
    }

    /// No round trip to save in a file: the write runs now, like `execute`.
    public func executeLater(_ sql: String, arguments: [any DatabaseValueConvertible])
        throws(SQLiteError)
    {
        try run(sql, arguments)
    }

    private func run(_ sql: String, _ arguments: [any DatabaseValueConvertible])
        throws(SQLiteError)
    {
        let statement = try statement(sql)
        try statement.bind(arguments)
        defer { sqlite3_reset(statement.handle) }
        while try statement.step() {}
    }

    /// Runs a script of several statements without arguments (migrations, seeds).
    ///
    /// See https://www.sqlite.org/c3ref/exec.html
    public func executeScript(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) }
            sqlite3_free(message)
            throw SQLiteError(
                code: ResultCode(rawValue: sqlite3_extended_errcode(handle)), message: text,
                sql: sql, systemErrno: sqlite3_system_errno(handle))
        }
    }

    /// Maps every row of a query.
    public func rows<T>(
        _ sql: String, _ arguments: any DatabaseValueConvertible...,
        map: (Row) throws -> T
    ) throws -> [T] {
        try rows(sql, arguments: arguments, map: map)
    }

    /// Maps every row of a query whose arguments were gathered in an array.
    public func rows<T>(
        _ sql: String, arguments: [any DatabaseValueConvertible],
        map: (Row) throws -> T
    ) throws -> [T] {
        let statement = try statement(sql)
        try statement.bind(arguments)
        defer { sqlite3_reset(statement.handle) }
        var result: [T] = []
        while try statement.step() {
            result.append(try map(Row(statement: statement)))
        }
        return result
    }

    /// Calls `body` with every row of a query, without collecting them.
    public func forEachRow(
        _ sql: String, _ arguments: any DatabaseValueConvertible...,
        body: (Row) throws -> Void
    ) throws {
        try forEachRow(sql, arguments: arguments, body: body)
    }

    public func forEachRow(
        _ sql: String, arguments: [any DatabaseValueConvertible], body: (Row) throws -> Void
    ) throws {
        let statement = try statement(sql)
        try statement.bind(arguments)
        defer { sqlite3_reset(statement.handle) }
        while try statement.step() { try body(Row(statement: statement)) }
    }

    /// The first row of a query, mapped, or `nil` when there is none.
    public func row<T>(
        _ sql: String, _ arguments: any DatabaseValueConvertible...,
        map: (Row) throws -> T
    ) throws -> T? {
        try row(sql, arguments: arguments, map: map)
    }

    /// The first row of a query whose arguments were gathered in an array: one step, no list.
    public func row<T>(
        _ sql: String, arguments: [any DatabaseValueConvertible], map: (Row) throws -> T
    ) throws -> T? {
        let statement = try statement(sql)
        try statement.bind(arguments)
        defer { sqlite3_reset(statement.handle) }
        guard try statement.step() else { return nil }
        return try map(Row(statement: statement))
    }

    /// The first column of the first row as an integer (`nil` when no row or NULL).
    public func scalarInt(_ sql: String, _ arguments: any DatabaseValueConvertible...)
        throws(SQLiteError) -> Int?
    {
        let statement = try statement(sql)
        try statement.bind(arguments)
        defer { sqlite3_reset(statement.handle) }
        guard try statement.step() else { return nil }
        let row = Row(statement: statement)
        return row.optionalInt(0)
    }

    /// The first column of the first row as text (`nil` when no row or NULL).
    public func scalarString(_ sql: String, _ arguments: any DatabaseValueConvertible...)
        throws(SQLiteError) -> String?
    {
        let statement = try statement(sql)
        try statement.bind(arguments)
        defer { sqlite3_reset(statement.handle) }
        guard try statement.step() else { return nil }
        return Row(statement: statement).optionalString(0)
    }

    public var lastInsertedRowID: Int { Int(sqlite3_last_insert_rowid(handle)) }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back if it throws.
    ///
    /// IMMEDIATE takes the write lock up front, so two writers wait on `busy_timeout` instead of
    /// failing with SQLITE_BUSY halfway through. Nested calls join the outer transaction.
    /// See https://www.sqlite.org/lang_transaction.html
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        if transactionDepth > 0 {
            transactionDepth += 1
            defer { transactionDepth -= 1 }
            return try body()
        }
        try execute("BEGIN IMMEDIATE")
        transactionDepth = 1
        defer { transactionDepth = 0 }
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 {
                try? execute("ROLLBACK")
            }
            throw error
        }
    }

    /// How a transaction takes SQLite's locks.
    /// See https://www.sqlite.org/lang_transaction.html
    public enum Modo: String, Sendable {
        /// Reads only: its queries see one snapshot (in WAL mode, without blocking writers).
        case deferred = "BEGIN DEFERRED"
        /// Takes the write lock up front.
        case immediate = "BEGIN IMMEDIATE"
    }

    /// Opens a transaction that `finish` ends: the queue's half of `transaction`, split in two
    /// so that the caller's closure runs between them without being handed to this type.
    func begin(_ modo: Modo) throws(SQLiteError) {
        precondition(transactionDepth == 0, "a queue's transaction never nests")
        try execute(modo.rawValue)
        transactionDepth = 1
    }

    /// Commits the transaction `begin` opened; if the commit fails, rolls back.
    func commit() throws(SQLiteError) {
        defer { transactionDepth = 0 }
        do {
            try execute("COMMIT")
        } catch {
            rollback()
            throw error
        }
    }

    /// Rolls back the transaction `begin` opened (if SQLite has not already).
    func rollback() {
        transactionDepth = 0
        if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
    }

    /// `PRAGMA data_version`: changes whenever another connection commits, so a reader can tell
    /// cheaply whether it must look again. See https://www.sqlite.org/pragma.html#pragma_data_version
    public func dataVersion() throws(SQLiteError) -> Int {
        try scalarInt("PRAGMA data_version") ?? 0
    }
}
