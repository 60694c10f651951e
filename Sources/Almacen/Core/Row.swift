import AlmacenSQL
import CSQLite

/// The current row of a stepping statement; valid only until the next step.
/// Reading a `Row` after its statement stepped again reads the new row: map rows straight away.
public struct Row: FilaSQL {
    let handle: OpaquePointer
    unowned let statement: Statement

    init(statement: Statement) {
        handle = statement.handle
        self.statement = statement
    }

    public func posicion(de nombre: String) -> Int? { statement.posicion(de: nombre) }

    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    public func isNull(_ i: Int) -> Bool {
        sqlite3_column_type(handle, Int32(i)) == SQLITE_NULL
    }

    public func int(_ i: Int) -> Int { Int(sqlite3_column_int64(handle, Int32(i))) }

    public func optionalInt(_ i: Int) -> Int? { isNull(i) ? nil : int(i) }

    public func double(_ i: Int) -> Double { sqlite3_column_double(handle, Int32(i)) }

    public func bool(_ i: Int) -> Bool { int(i) != 0 }

    public func string(_ i: Int) -> String {
        guard let texto = sqlite3_column_text(handle, Int32(i)) else {
            precondition(isNull(i) == false, "column \(i) is NULL where a value is required")
            return ""  // an empty text (SQLite gives no pointer for it)
        }
        let longitud = Int(sqlite3_column_bytes(handle, Int32(i)))
        return String(decoding: UnsafeBufferPointer(start: texto, count: longitud), as: UTF8.self)
    }

    public func optionalString(_ i: Int) -> String? { isNull(i) ? nil : string(i) }

    public func blob(_ i: Int) -> [UInt8] {
        let longitud = Int(sqlite3_column_bytes(handle, Int32(i)))
        guard longitud > 0, let datos = sqlite3_column_blob(handle, Int32(i)) else { return [] }
        return Array(UnsafeRawBufferPointer(start: datos, count: longitud))
    }

    public func value(_ i: Int) -> DatabaseValue {
        switch sqlite3_column_type(handle, Int32(i)) {
        case SQLITE_INTEGER: .integer(sqlite3_column_int64(handle, Int32(i)))
        case SQLITE_FLOAT: .real(double(i))
        case SQLITE_TEXT: .text(string(i))
        case SQLITE_BLOB: .blob(blob(i))
        default: .null
        }
    }
}
