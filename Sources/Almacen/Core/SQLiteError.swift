import CSQLite

/// Everything SQLite reports: its result code, its message and the statement that failed.
///
/// Tests assert on `code` and `sql`; the message wording varies across SQLite versions.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    public var code: ResultCode
    public var message: String
    public var sql: String?
    /// The operating system's errno behind an I/O error (`ENOSPC` for a full disk), 0 if none.
    /// See https://www.sqlite.org/c3ref/system_errno.html
    public var systemErrno: Int32

    public init(
        code: ResultCode, message: String? = nil, sql: String? = nil, systemErrno: Int32 = 0
    ) {
        self.code = code
        self.message = message ?? String(cString: sqlite3_errstr(code.rawValue))
        self.sql = sql
        self.systemErrno = systemErrno
    }

    public var description: String {
        if let sql {
            return "SQLite error \(code.rawValue) with statement `\(sql)`: \(message)"
        }
        return "SQLite error \(code.rawValue): \(message)"
    }
}
