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
