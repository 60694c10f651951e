import CSQLite

/// The physical limit for our schema: the same SQL statements issued by a bare loop over the
/// SQLite C API, prepared once, no Swift layers, no engine, no dispatcher.
final class CSQLiteMinimo {
    let db: OpaquePointer
    private var cache: [String: OpaquePointer] = [:]

    init(_ ruta: String) {
        var db: OpaquePointer?
        sqlite3_open_v2(ruta, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        self.db = db!
        sqlite3_busy_timeout(self.db, 5000)
        exec("PRAGMA journal_mode = WAL")
        exec("PRAGMA synchronous = NORMAL")
        exec("PRAGMA foreign_keys = ON")
    }

    deinit {
        for s in cache.values { sqlite3_finalize(s) }
        sqlite3_close_v2(db)
    }

    func exec(_ sql: String) { sqlite3_exec(db, sql, nil, nil, nil) }

    enum Valor {
        case i(Int)
        case d(Double)
        case t(String)
        case nulo
    }

    /// Runs `sql` with `valores`, returning the first column of each row as Int.
    @discardableResult
    func run(_ sql: String, _ valores: [Valor] = []) -> [Int] {
        var s = cache[sql]
        if s == nil {
            sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &s, nil)
            cache[sql] = s
        }
        let st = s!
        sqlite3_reset(st)
        for (i, v) in valores.enumerated() {
            let n = Int32(i + 1)
            switch v {
            case .i(let x): sqlite3_bind_int64(st, n, Int64(x))
            case .d(let x): sqlite3_bind_double(st, n, x)
            case .t(let x):
                sqlite3_bind_text(st, n, x, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            case .nulo: sqlite3_bind_null(st, n)
            }
        }
        var filas: [Int] = []
        while sqlite3_step(st) == SQLITE_ROW { filas.append(Int(sqlite3_column_int64(st, 0))) }
        return filas
    }
}
