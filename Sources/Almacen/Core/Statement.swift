import AlmacenSQL
import CSQLite

/// A prepared statement. Owned by its `Database`, which caches it by SQL text and finalizes it.
///
/// See https://www.sqlite.org/c3ref/stmt.html
public final class Statement {
    let handle: OpaquePointer
    public let sql: String
    unowned let database: Database

    /// The tables this statement (or a trigger it fires) may write.
    let escribe: Set<String>

    init(database: Database, sql: String) throws(SQLiteError) {
        (handle, escribe) = try database.preparar(sql)
        self.sql = sql
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    /// The result columns' names, read once from the prepared statement (they never change).
    private lazy var columnas = ColumnNames(
        (0..<sqlite3_column_count(handle)).map { i in
            sqlite3_column_name(handle, i).map { String(cString: $0) }
        })

    /// The position of the result column named `nombre` (as written after `AS`, or the column's
    /// own name), `nil` when there is none.
    func posicion(de nombre: String) -> Int? { columnas.posicion(de: nombre) }

    /// Binds `arguments` to the statement's parameters, in order.
    ///
    /// See https://www.sqlite.org/c3ref/bind_blob.html
    func bind(_ arguments: [any DatabaseValueConvertible]) throws(SQLiteError) {
        // Every use ends in a reset (the callers' `defer`) and binds every parameter below, so
        // neither a second reset nor clearing the old values is needed (issue 25: both ran
        // before every statement); a statement somehow left running is still reset.
        if sqlite3_stmt_busy(handle) != 0 { sqlite3_reset(handle) }
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard expected == arguments.count else {
            preconditionFailure("\(sql) expects \(expected) arguments, got \(arguments.count)")
        }
        for (offset, argument) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch argument.databaseValue {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let value): code = sqlite3_bind_int64(handle, index, value)
            case .real(let value): code = sqlite3_bind_double(handle, index, value)
            case .text(var value):
                // From the string's own bytes with their length: passed as a C string, each
                // text was first copied into a new NUL-terminated array.
                code = value.withUTF8 { bytes in
                    // Never a null pointer, which SQLite would bind as NULL, not as ''.
                    let inicio = bytes.baseAddress ?? textoVacio.utf8Start
                    return sqlite3_bind_text64(
                        handle, index, UnsafeRawPointer(inicio).assumingMemoryBound(to: CChar.self),
                        sqlite3_uint64(bytes.count), sqliteTransient, UInt8(SQLITE_UTF8))
                }
            case .blob(let value):
                code = value.withUnsafeBytes { bytes in
                    sqlite3_bind_blob64(
                        handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                        sqlite3_uint64(bytes.count), sqliteTransient)
                }
            }
            guard code == SQLITE_OK else { throw database.error(code, sql: sql) }
        }
    }

    /// Steps once: `true` while there is a row to read.
    func step() throws(SQLiteError) -> Bool {
        guard !escribe.isEmpty else { return try paso() }
        let antes = sqlite3_total_changes64(database.handle)
        let hayFila = try paso()
        if sqlite3_total_changes64(database.handle) != antes { database.anotarEscritura(escribe) }
        return hayFila
    }

    private func paso() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            sqlite3_reset(handle)
            throw database.error(code, sql: sql)
        }
    }
}

private let textoVacio: StaticString = ""

/// `sqliteTransient` is a macro casting -1 to a destructor; Swift cannot import it directly.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
