import AlmacenSQL
import ApoyoDePruebas
import Foundation
import Testing

@testable import Almacen

@Suite("Database")
struct DatabaseTests {
    @Test func enlazaYLeeCadaTipo() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n)")
        let texto = "Sofía «¡Gol!» 🏟️"
        try db.execute(
            "INSERT INTO t VALUES (?, ?, ?, ?, ?)", 42, 2.5, texto, [UInt8]([0, 1, 255]),
            Optional<Int>.none)
        let fila = try db.row("SELECT i, r, s, b, n FROM t") { fila in
            (fila.int(0), fila.double(1), fila.string(2), fila.blob(3), fila.isNull(4))
        }
        let leida = try #require(fila)
        #expect(leida.0 == 42)
        #expect(leida.1 == 2.5)
        #expect(leida.2 == texto)
        #expect(leida.3 == [0, 1, 255])
        #expect(leida.4)
    }

    /// A value that looks like SQL stays a value: binding never interpolates.
    @Test func losValoresNuncaSeInterpolan() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t (s TEXT)")
        let malicioso = "x'); DROP TABLE t; --"
        try db.execute("INSERT INTO t VALUES (?)", malicioso)
        #expect(try db.scalarString("SELECT s FROM t") == malicioso)
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 1)
    }

    @Test func unFalloDentroDeLaTransaccionLaDeshaceEntera() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT NOT NULL)")
        let sql = "INSERT INTO t (id, s) VALUES (?, ?)"
        let error = #expect(throws: SQLiteError.self) {
            try db.transaction {
                try db.execute(sql, 1, "uno")
                try db.execute(sql, 2, "dos")
                try db.execute(sql, 1, "repetido")
            }
        }
        #expect(error?.code.primario == .constraint)
        #expect(error?.sql == sql)
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 0)
    }

    @Test func laTransaccionSeConfirmaSiNoHayError() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)")
        try db.transaction { try db.execute("INSERT INTO t VALUES (1)") }
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 1)
    }

    @Test func elErrorDescribeCodigoYSentencia() throws {
        let db = try Database(path: ":memory:")
        let error = #expect(throws: SQLiteError.self) { try db.execute("SELECT * FROM no_existe") }
        #expect(error?.code == .error)
        #expect(error?.sql == "SELECT * FROM no_existe")
        #expect(
            error?.description.hasPrefix("SQLite error 1 with statement `SELECT * FROM no_existe`:")
                == true)
    }

    @Test func unFicheroQueNoEsUnaBaseDeDatosFallaAlAbrir() throws {
        let carpeta = CarpetaTemporal()
        let ruta = carpeta.fichero("ruido.db")
        try ruidoAleatorio(8192).write(to: ruta)
        let error = #expect(throws: SQLiteError.self) { _ = try Database(path: ruta) }
        #expect(error?.code.primario == .notadb)
    }
}

func ruidoAleatorio(_ n: Int) -> [UInt8] {
    var azar = Azar(para: "ruido de la base")
    return azar.bytes(n)
}

extension Array where Element == UInt8 {
    func write(to ruta: String) throws {
        try Data(self).write(to: URL(fileURLWithPath: ruta))
    }
}

/// The statement cache's key and the lookup of columns by name, which trade hashing for
/// sampling and a cursor (issue 25): they must still tell every text and every column apart.
@Suite("Caché de sentencias y columnas")
struct CacheDeSentenciasTests {
    /// Two texts of the same length that differ only between the sampled words share a
    /// bucket, never a statement.
    @Test func textosQueSoloDifierenFueraDeLaMuestraSonSentenciasDistintas() throws {
        // Bytes 8–10 lie before the second sampled word (at a quarter of the text).
        let relleno = String(repeating: " ", count: 100)
        let uno = "SELECT 0+1" + relleno + " AS v"
        let dos = "SELECT 0+2" + relleno + " AS v"
        #expect(uno.utf8.count == dos.utf8.count)
        #expect(StatementKey(uno).hashValue == StatementKey(dos).hashValue, "the collision path")
        #expect(StatementKey(uno) != StatementKey(dos))
        let db = try Database(path: ":memory:")
        #expect(try db.scalarInt(uno) == 1)
        #expect(try db.scalarInt(dos) == 2)
        #expect(try db.statement(uno) !== db.statement(dos))
        // The same text from other storage is the same statement.
        let copia = String(decoding: Array(uno.utf8), as: UTF8.self)
        #expect(try db.statement(copia) === db.statement(uno))
    }

    @Test func textosCortosYVaciosTambienSeDistinguen() {
        let claves = ["", "a", "SELECT", "SELECT 1", "SELECT 2"].map(StatementKey.init)
        #expect(Set(claves).count == claves.count)
        #expect(StatementKey("SELECT 1") == StatementKey("SELECT" + " 1"))
        #expect(StatementKey("SELECT 1").hashValue == StatementKey("SELECT" + " 1").hashValue)
    }

    @Test func lasColumnasSeEncuentranEnCualquierOrdenYLaPrimeraDeUnNombreRepetidoGana() {
        let columnas = ColumnNames(["id", "minuto", nil, "id", "jugador"])
        #expect(columnas.posicion(de: "id") == 0)
        #expect(columnas.posicion(de: "minuto") == 1)
        #expect(columnas.posicion(de: "jugador") == 4)
        // After the last column, and out of order.
        #expect(columnas.posicion(de: "id") == 0)
        #expect(columnas.posicion(de: "jugador") == 4)
        #expect(columnas.posicion(de: "minuto") == 1)
        #expect(columnas.posicion(de: "equipo") == nil)
        #expect(ColumnNames([]).posicion(de: "id") == nil)
    }

    @Test func unaFilaSeLeePorNombreEnCualquierOrden() throws {
        let db = try Database(path: ":memory:")
        let sql = "SELECT 1 AS a, 2 AS b, 3 AS a, 4 AS c"
        for _ in 0..<2 {
            let leidos = try db.row(sql) { [$0.int("c"), $0.int("a"), $0.int("b"), $0.int("a")] }
            #expect(leidos == [4, 1, 2, 1])
        }
    }

    /// Text is bound from its own bytes with their length: the empty text is '' (a null
    /// pointer would bind NULL) and a NUL inside a text is kept, not where the text ends.
    @Test func elTextoVacioNoEsNuloYUnNulInternoNoLoCorta() throws {
        let db = try Database(path: ":memory:")
        let vacio = try db.row("SELECT ? IS NULL, length(?)", "", "") { ($0.int(0), $0.int(1)) }
        #expect(vacio?.0 == 0)
        #expect(vacio?.1 == 0)
        #expect(try db.scalarInt("SELECT length(CAST(? AS BLOB))", "a\u{0}b") == 3)
        #expect(try db.scalarString("SELECT ?", "Sofía\u{0}🏟️") == "Sofía\u{0}🏟️")
    }
}
