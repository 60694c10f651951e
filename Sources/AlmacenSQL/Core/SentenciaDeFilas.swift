import Persistencia

/// One statement that writes many rows at once (`INSERT … VALUES (…), (…)`, `DELETE … IN
/// (…)`), for a batch of a million rows.
///
/// A row's statement costs a store nearly as much as the row itself (SQLite: a bind, a step
/// and a reset; PostgreSQL: a message each way), so the rows go `filasPorSentencia` at a time,
/// and the rest in halving sizes (256, 128, … 1): a dozen texts at most, each built once and
/// prepared once per connection.
struct SentenciaDeFilas {
    /// Rows a statement writes at most: 512 rows of 8 columns stay far below SQLite's 32,766
    /// parameters and PostgreSQL's 65,535.
    static let filasPorSentencia = 512

    private let columnas: Int
    private let texto: (Int) -> String
    private var hechos: [Int: String] = [:]

    /// - Parameter texto: the statement for that many rows.
    init(columnas: Int, texto: @escaping (Int) -> String) {
        self.columnas = columnas
        self.texto = texto
    }

    /// `VALUES (?, ?), (?, ?)` for `filas` rows of `columnas` parameters.
    static func valores(filas: Int, columnas: Int) -> String {
        let fila = "(" + Array(repeating: "?", count: columnas).joined(separator: ", ") + ")"
        return "VALUES " + Array(repeating: fila, count: filas).joined(separator: ", ")
    }

    /// `(?, ?, ?)` for a list of `filas` values.
    static func lista(filas: Int) -> String {
        "(" + Array(repeating: "?", count: filas).joined(separator: ", ") + ")"
    }

    /// Writes `valores`, `columnas` to a row, deferred (`executeLater`): inside the caller's
    /// transaction, pipelined on PostgreSQL.
    mutating func ejecutar(_ db: some BaseSQL, _ valores: [any DatabaseValueConvertible]) throws {
        precondition(valores.count % columnas == 0, "a row short of its columns")
        var hecho = 0
        var filas = Self.filasPorSentencia
        while hecho < valores.count {
            let quedan = (valores.count - hecho) / columnas
            while filas > quedan { filas /= 2 }
            let sql: String
            if let hecha = hechos[filas] {
                sql = hecha
            } else {
                sql = texto(filas)
                hechos[filas] = sql
            }
            let fin = hecho + filas * columnas
            try db.executeLater(
                sql,
                arguments: hecho == 0 && fin == valores.count
                    ? valores : Array(valores[hecho..<fin]))
            hecho = fin
        }
    }
}
