import Foundation
import Testing

@testable import Almacen

@Suite("Migrator")
struct MigratorTests {
    @Test func unaBaseEnMemoriaLlegaALaUltimaVersion() throws {
        let db = try Database(path: ":memory:")
        let migrator = Migrator()
        let aplicadas = try migrator.migrate(db)
        #expect(aplicadas == migrator.migrations.map(\.version))
        #expect(try migrator.currentVersion(db) == migrator.latestVersion)
        let tablas = try db.rows(
            "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"
        ) {
            $0.string(0)
        }
        for tabla in ["ajuste", "equipo", "evento", "jugador", "partido", "registro"] {
            #expect(tablas.contains(tabla))
        }
    }

    @Test func lasMigracionesIncrustadasEstanEnOrdenYEmpiezanEnUno() {
        let versiones = Migration.embedded.map(\.version)
        #expect(versiones.first == 1)
        #expect(versiones == Array(1...versiones.count))
    }

    @Test func reabrirUnFicheroNoMigraNadaDosVeces() throws {
        let carpeta = CarpetaTemporal()
        let ruta = carpeta.fichero("m.sqlite3")
        _ = try Almacen.abrir(ruta: ruta)
        let db = try Database(path: ruta)
        #expect(try Migrator().migrate(db) == [])
        let partidos = try db.scalarInt("SELECT count(*) FROM partido")
        _ = try Almacen.abrir(ruta: ruta)
        #expect(try db.scalarInt("SELECT count(*) FROM partido") == partidos)
    }

    @Test func unaMigracionQueFallaNoDejaNadaAMedias() throws {
        let db = try Database(path: ":memory:")
        let migrator = Migrator(migrations: [
            Migration(version: 1, name: "0001_a.sql", sql: "CREATE TABLE a (x);"),
            Migration(
                version: 2, name: "0002_b.sql",
                sql: "CREATE TABLE b (x); INSERT INTO nada VALUES (1);"),
        ])
        #expect(throws: SQLiteError.self) { try migrator.migrate(db) }
        #expect(try migrator.currentVersion(db) == 1)
        #expect(try db.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = 'b'") == 0)
    }

    /// A newer marcador's database is refused and left byte-for-byte as it was.
    @Test func unaBaseDeUnaVersionMasNuevaSeRechazaIntacta() throws {
        let carpeta = CarpetaTemporal()
        let ruta = carpeta.fichero("futura.sqlite3")
        do {
            let db = try Database(path: ruta)
            try db.executeScript("CREATE TABLE cosa (x); PRAGMA user_version = 999;")
        }
        let antes = try Data(contentsOf: URL(fileURLWithPath: ruta))
        let error = #expect(throws: MigrationError.self) { _ = try Almacen.abrir(ruta: ruta) }
        #expect(error == .superseded(database: 999, known: Migrator().latestVersion))
        let despues = try Data(contentsOf: URL(fileURLWithPath: ruta))
        #expect(antes == despues)
        #expect(!FileManager.default.fileExists(atPath: ruta + "-wal"))
    }
}
