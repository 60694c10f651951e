import CSQLite

/// Everything SQLite reports: its result code, its message and the statement that failed.
///
/// Tests assert on `code` and `sql`; the message wording varies across SQLite versions.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    public var code: ResultCode
    public var message: String
    public var sql: String?

    public init(code: ResultCode, message: String? = nil, sql: String? = nil) {
        self.code = code
        self.message = message ?? String(cString: sqlite3_errstr(code.rawValue))
        self.sql = sql
    }

    public var description: String {
        if let sql {
            return "SQLite error \(code.rawValue) with statement `\(sql)`: \(message)"
        }
        return "SQLite error \(code.rawValue): \(message)"
    }
}
