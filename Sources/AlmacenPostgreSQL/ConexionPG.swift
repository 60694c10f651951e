import AlmacenSQL
import CPostgres

#if canImport(Glibc)
    import Glibc
#endif

/// What PostgreSQL reported: its SQLSTATE (`40001`, `23505`…), its message, the statement.
public struct ErrorPG: Error, Sendable, CustomStringConvertible {
    public var estado: String
    public var mensaje: String
    public var sql: String?

    public var description: String {
        "PostgreSQL \(estado): \(mensaje)" + (sql.map { " (`\($0)`)" } ?? "")
    }

    /// A transaction that lost a race (serialization failure, deadlock): worth running again.
    var reintentable: Bool { estado == "40001" || estado == "40P01" }
    /// The server cannot be reached or the connection broke.
    public var sinConexion: Bool { estado.hasPrefix("08") || estado.isEmpty }
}

/// libpq's functions, loaded once.
enum LibPQ {
    static let api: marcador_pq_api? = {
        var api = marcador_pq_api()
        return marcador_pq_cargar(&api) == 0 ? api : nil
    }()
}

/// One libpq connection speaking the repositories' SQL: `?`/`?N` placeholders become `$N`,
/// each statement is prepared once per connection, parameters travel as text and the server
/// infers their types (the SQL casts where it cannot).
///
/// Not thread-safe: `ColaPG` serializes its use.
public final class ConexionPG: BaseSQL {
    public typealias Fila = FilaPG

    public var dialecto: Dialecto { .postgresql }
    let api: marcador_pq_api
    let conexion: OpaquePointer
    private var preparadas: [String: String] = [:]
    public private(set) var changes = 0

    /// Connects to `url` (`postgresql://…`, or any libpq connection string).
    public init(url: String) throws {
        guard let api = LibPQ.api else {
            throw ErrorPG(estado: "", mensaje: "falta libpq (Debian: libpq5)")
        }
        self.api = api
        guard let conexion = api.connectdb(url) else {
            throw ErrorPG(estado: "08000", mensaje: "sin memoria para conectar")
        }
        self.conexion = conexion
        guard api.status(conexion) == CONNECTION_OK else {
            let mensaje = api.error_message(conexion).map { String(cString: $0) } ?? ""
            // No PQfinish here: every stored property is set, so deinit runs and finishes it.
            throw ErrorPG(
                estado: "08001",
                mensaje: mensaje.trimmingCharacters(while: { $0 == "\n" || $0 == " " }))
        }
        var copia = api
        marcador_pq_callar(&copia, conexion)
        try executeScript("SET client_min_messages = warning")
    }

    deinit { api.finish(conexion) }

    public func execute(_ sql: String, _ arguments: any DatabaseValueConvertible...) throws {
        try ejecutar(sql, arguments) { _ in }
    }

    public func executeScript(_ sql: String) throws {
        guard let resultado = api.exec(conexion, sql) else { throw errorDeConexion(sql) }
        defer { api.clear(resultado) }
        try comprobar(resultado, sql)
    }

    public func rows<T>(
        _ sql: String, arguments: [any DatabaseValueConvertible], map: (FilaPG) throws -> T
    ) throws -> [T] {
        var filas: [T] = []
        try ejecutar(sql, arguments) { resultado in
            let n = api.ntuples(resultado)
            filas.reserveCapacity(Int(n))
            let columnas = Self.columnas(api, resultado)
            for i in 0..<n {
                filas.append(
                    try map(FilaPG(api: api, resultado: resultado, fila: i, columnas: columnas)))
            }
        }
        return filas
    }

    public func forEachRow(
        _ sql: String, arguments: [any DatabaseValueConvertible], body: (FilaPG) throws -> Void
    ) throws {
        try ejecutar(sql, arguments) { resultado in
            let columnas = Self.columnas(api, resultado)
            for i in 0..<api.ntuples(resultado) {
                try body(FilaPG(api: api, resultado: resultado, fila: i, columnas: columnas))
            }
        }
    }

    /// Column names to positions, once per result (the server folds unquoted names to
    /// lower case, as the repositories write them).
    static func columnas(_ api: marcador_pq_api, _ resultado: OpaquePointer) -> [String: Int] {
        var columnas: [String: Int] = [:]
        for i in 0..<api.nfields(resultado) {
            if let nombre = api.fname(resultado, i) {
                let texto = String(cString: nombre)
                if columnas[texto] == nil { columnas[texto] = Int(i) }
            }
        }
        return columnas
    }

    /// Whether a transaction is open (and usable).
    var enTransaccion: Bool { api.transaction_status(conexion) != PQTRANS_IDLE }

    private func ejecutar(
        _ sql: String, _ argumentos: [any DatabaseValueConvertible],
        _ leer: (OpaquePointer) throws -> Void
    ) throws {
        let nombre = try preparada(sql, parametros: argumentos.count)
        let textos: [String?] = argumentos.map { Self.texto($0.databaseValue) }
        let resultado = try withArrayOfOptionalCStrings(textos) { punteros in
            guard
                let resultado = api.exec_prepared(
                    conexion, nombre, Int32(punteros.count), punteros, nil, nil, 0)
            else { throw errorDeConexion(sql) }
            return resultado
        }
        defer { api.clear(resultado) }
        try comprobar(resultado, sql)
        changes = api.cmd_tuples(resultado).flatMap { Int(String(cString: $0)) } ?? 0
        try leer(resultado)
    }

    private func preparada(_ sql: String, parametros: Int) throws -> String {
        if let nombre = preparadas[sql] { return nombre }
        let nombre = "m\(preparadas.count)"
        let traducido = Self.traducir(sql)
        guard let resultado = api.prepare(conexion, nombre, traducido, Int32(parametros), nil)
        else { throw errorDeConexion(sql) }
        defer { api.clear(resultado) }
        try comprobar(resultado, sql)
        preparadas[sql] = nombre
        return nombre
    }

    private func comprobar(_ resultado: OpaquePointer, _ sql: String) throws(ErrorPG) {
        switch api.result_status(resultado) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return
        default:
            let estado =
                api.result_error_field(resultado, Int32(UInt8(ascii: "C")))
                .map { String(cString: $0) } ?? ""
            let mensaje =
                api.result_error_field(resultado, Int32(UInt8(ascii: "M")))
                .map { String(cString: $0) }
                ?? api.result_error_message(resultado).map { String(cString: $0) } ?? ""
            throw ErrorPG(estado: estado, mensaje: mensaje, sql: sql)
        }
    }

    private func errorDeConexion(_ sql: String?) -> ErrorPG {
        ErrorPG(
            estado: "08006",
            mensaje: api.error_message(conexion).map { String(cString: $0) } ?? "", sql: sql)
    }

    /// A parameter as PostgreSQL's text input for its inferred type; `nil` is SQL NULL.
    static func texto(_ valor: DatabaseValue) -> String? {
        switch valor {
        case .null: nil
        case .integer(let n): String(n)
        case .real(let x): x.isFinite ? String(x) : nil
        case .text(let t): t
        case .blob(let bytes):
            "\\x" + bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
    }

    /// `?` and `?N` placeholders as PostgreSQL's `$N`, outside quotes and comments.
    static func traducir(_ sql: String) -> String {
        var salida = ""
        salida.reserveCapacity(sql.utf8.count + 16)
        var siguiente = 1
        var enComillas = false
        var caracteres = sql.unicodeScalars.makeIterator()
        var pendiente: Unicode.Scalar?
        while let c = pendiente ?? caracteres.next() {
            pendiente = nil
            if c == "'" { enComillas.toggle() }
            guard c == "?", !enComillas else {
                salida.unicodeScalars.append(c)
                continue
            }
            var numero = ""
            while let d = caracteres.next() {
                if d.properties.numericType != nil && d.isASCII {
                    numero.unicodeScalars.append(d)
                } else {
                    pendiente = d
                    break
                }
            }
            if numero.isEmpty {
                salida += "$\(siguiente)"
                siguiente += 1
            } else {
                salida += "$" + numero
            }
        }
        return salida
    }
}

/// One row of a libpq result. Values arrive as text; booleans as `t`/`f`.
public struct FilaPG: FilaSQL {
    let api: marcador_pq_api
    let resultado: OpaquePointer
    let fila: Int32
    let columnas: [String: Int]

    public func posicion(de nombre: String) -> Int? { columnas[nombre] }

    public func isNull(_ i: Int) -> Bool { api.getisnull(resultado, fila, Int32(i)) == 1 }

    public func int(_ i: Int) -> Int {
        guard let texto = api.getvalue(resultado, fila, Int32(i)) else { return 0 }
        switch texto.pointee {
        case CChar(UInt8(ascii: "t")): return 1
        case CChar(UInt8(ascii: "f")): return 0
        default: return strtol(texto, nil, 10)
        }
    }

    public func double(_ i: Int) -> Double {
        guard let texto = api.getvalue(resultado, fila, Int32(i)) else { return 0 }
        return strtod(texto, nil)
    }

    public func string(_ i: Int) -> String {
        precondition(!isNull(i), "column \(i) is NULL where a value is required")
        guard let texto = api.getvalue(resultado, fila, Int32(i)) else { return "" }
        let longitud = Int(api.getlength(resultado, fila, Int32(i)))
        return texto.withMemoryRebound(to: UInt8.self, capacity: longitud) {
            String(decoding: UnsafeBufferPointer(start: $0, count: longitud), as: UTF8.self)
        }
    }
}

/// Calls `body` with a C array of the strings (`NULL` for `nil`), valid during the call.
func withArrayOfOptionalCStrings<R>(
    _ textos: [String?], _ body: ([UnsafePointer<CChar>?]) throws -> R
) rethrows -> R {
    let copias = textos.map { $0.map { strdup($0) } ?? nil }
    defer { for copia in copias { free(copia) } }
    return try body(copias.map { $0.map { UnsafePointer($0) } })
}

extension String {
    func trimmingCharacters(while recortar: (Character) -> Bool) -> String {
        String(drop(while: recortar).reversed().drop(while: recortar).reversed())
    }
}
