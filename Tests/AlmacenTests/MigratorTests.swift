import AlmacenPostgreSQL
import AlmacenSQL
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

    /// `migrations/esquema.sql` builds exactly what the steps build: every table, index and
    /// trigger with the same text, the same rows, the same version. When this fails after a new
    /// migration, `make esquema` regenerates it.
    @Test func elEsquemaConstruyeLoMismoQueLasMigraciones() throws {
        let conEsquema = Migrator()
        #expect(conEsquema.esquema?.version == conEsquema.latestVersion)
        let pasoAPaso = try Database(path: ":memory:")
        try Migrator(esquema: nil).migrate(pasoAPaso)
        let deGolpe = try Database(path: ":memory:")
        #expect(try conEsquema.migrate(deGolpe) == conEsquema.migrations.map(\.version))
        func retrato(_ db: Database) throws -> [String] {
            let objetos = try db.rows(
                "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name"
            ) { "\($0.string(0)) \($0.string(1)) \($0.string(2)) \($0.optionalString(3) ?? "")" }
            let tablas = try db.rows(
                "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"
            ) { $0.string(0) }
            let filas = try tablas.flatMap { tabla in
                let columnas = try db.rows("SELECT name FROM pragma_table_info(?)", tabla) {
                    "quote(\($0.string(0)))"
                }
                return try db.rows(
                    "SELECT \(columnas.joined(separator: " || ',' || ")) FROM \(tabla) ORDER BY 1"
                ) { "\(tabla): \($0.string(0))" }
            }
            return objetos + filas + ["version \(try db.scalarInt("PRAGMA user_version") ?? -1)"]
        }
        #expect(try retrato(deGolpe) == retrato(pasoAPaso))
        let registro = "canal: 'registro','registro',1,'{}',NULL,NULL,0.0,NULL"
        #expect(try retrato(deGolpe).contains(registro))
    }

    /// Only an empty database takes the snapshot; one with anything in it goes step by step.
    @Test func unaBaseConAlgoDentroNoTomaElEsquema() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE ajena (x)")
        try Migrator().migrate(db)
        #expect(try db.scalarInt("PRAGMA user_version") == Migrator().latestVersion)
        #expect(try db.scalarInt("SELECT count(*) FROM ajena") == 0)
        #expect(try db.scalarInt("SELECT count(*) FROM canal") == 1)
    }

    @Test func lasMigracionesIncrustadasEstanEnOrdenYEmpiezanEnUno() {
        let versiones = Migration.embedded.map(\.version)
        #expect(versiones.first == 1)
        #expect(versiones == Array(1...versiones.count))
    }

    /// architecture.md: one history per store, numbered and named alike — step N is the same
    /// change on both, even where one store's schema has nothing to do for it.
    @Test func lasDosTiendasCuentanLaMismaHistoria() {
        let sqlite = Migration.embedded.map(\.name)
        let postgresql = MigradorPG.incrustadas.map(\.name)
        #expect(sqlite == postgresql)
        #expect(MigradorPG().ultimaVersion == Migrator().latestVersion)
    }

    /// A database built while SQLite numbered the prune step 0014 (it is 0016 now, as on
    /// PostgreSQL) reaches the last version keeping its prune row.
    @Test func unaBaseDeLaHistoriaAntiguaLlegaALaUltimaVersion() throws {
        let db = try Database(path: ":memory:")
        try Migrator(migrations: Migration.embedded.filter { $0.version <= 13 }).migrate(db)
        try db.executeScript(
            """
            CREATE TABLE poda (id INTEGER PRIMARY KEY CHECK (id = 1), ultima REAL NOT NULL);
            INSERT INTO poda (id, ultima) VALUES (1, 1234.5);
            PRAGMA user_version = 14;
            """)
        #expect(try Migrator().migrate(db) == Array(15...Migrator().latestVersion))
        #expect(try db.scalarInt("PRAGMA user_version") == Migrator().latestVersion)
        #expect(try db.scalarString("SELECT CAST(ultima AS TEXT) FROM poda") == "1234.5")
        #expect(try db.scalarInt("SELECT count(*) FROM poda") == 1)
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

    /// The standard table rebuild (create, copy, drop, rename) on a table other tables hang
    /// from with ON DELETE CASCADE: with foreign keys off during migrations, every row stays.
    @Test func reconstruirUnaTablaNoBorraLoQueCuelgaDeElla() throws {
        let db = try Database(path: ":memory:")
        try db.execute("PRAGMA foreign_keys = ON")
        let actuales = Migrator()
        try actuales.migrate(db)
        try Semillas.cargarDentro(db)
        try db.executeScript(
            """
            INSERT INTO ejecucion (id, partido_id, codigo, duracion, estado) VALUES (1, 1, 'a', 90, 'terminado');
            INSERT INTO aviso (id, ejecucion_id, partido_id, identificador, titulo, cuerpo, minuto,
                jugador, equipo, marcador_local, marcador_visitante, creado)
                VALUES (1, 1, 1, 'gol-10-Ana', '¡Gol!', 'x', 10, 'Ana', 'Rayo FC', 1, 0, 0);
            INSERT INTO entrega (aviso_id, canal, ejecucion_id, proximo_intento)
                VALUES (1, 'registro', 1, 0);
            """)
        func cuantas() throws -> [Int] {
            try ["evento", "ejecucion", "aviso", "entrega", "partido"].map {
                try db.scalarInt("SELECT count(*) FROM \($0)") ?? -1
            }
        }
        let antes = try cuantas()
        let reconstruccion = Migration(
            version: actuales.latestVersion + 1, name: "9999_reconstruir.sql",
            sql: """
                CREATE TABLE partido_nuevo (
                    id INTEGER PRIMARY KEY,
                    local_id INTEGER NOT NULL REFERENCES equipo (id),
                    visitante_id INTEGER NOT NULL REFERENCES equipo (id),
                    competicion TEXT, prorroga INTEGER NOT NULL DEFAULT 0, ronda TEXT, fecha TEXT,
                    hora TEXT, grupo TEXT, estadio TEXT, ft_local INTEGER, ft_visitante INTEGER,
                    et_local INTEGER, et_visitante INTEGER, penaltis_local INTEGER,
                    penaltis_visitante INTEGER, con_guion INTEGER NOT NULL DEFAULT 1, clave TEXT,
                    inicio INTEGER, directo TEXT, minuto_directo INTEGER, anadido_directo INTEGER
                );
                INSERT INTO partido_nuevo SELECT * FROM partido;
                DROP TABLE partido;
                ALTER TABLE partido_nuevo RENAME TO partido;
                """)
        let aplicadas = try Migrator(migrations: actuales.migrations + [reconstruccion]).migrate(db)
        #expect(aplicadas == [reconstruccion.version])
        #expect(try cuantas() == antes)
        #expect(antes == [14, 1, 1, 1, 3])
        // …and foreign keys are on again afterwards.
        #expect(try db.scalarInt("PRAGMA foreign_keys") == 1)
    }

    /// A database seeded before red cards existed gets the seeds' card in partido 2 from
    /// migration 20, once; one whose partido 2 is something else gets none.
    @Test(arguments: [true, false])
    func laRojaDeLasSemillasLlegaConSuMigracion(sembrada: Bool) throws {
        let db = try Database(path: ":memory:")
        let actuales = Migrator()
        try Migrator(migrations: actuales.migrations.filter { $0.version <= 19 }).migrate(db)
        try db.executeScript(
            """
            INSERT INTO equipo (id, nombre) VALUES (3, 'Águilas CF'), (4, 'Cigüeñas FC'), (5, 'Otro');
            INSERT INTO jugador (id, nombre, equipo_id) VALUES (9, 'Björn', 4);
            INSERT INTO partido (id, local_id, visitante_id) VALUES (2, 3, \(sembrada ? 4 : 5));
            INSERT INTO evento (partido_id, orden, minuto, jugador_id, lado, en_propia_puerta)
                VALUES (2, 4, 67, 9, 'local', 1);
            """)
        try actuales.migrate(db)
        try actuales.migrate(db)
        let rojas = try db.rows(
            "SELECT minuto, orden, doble_amarilla, lado FROM evento WHERE tipo = 'roja'"
        ) { fila in
            "\(fila.int("minuto")) \(fila.int("orden")) \(fila.int("doble_amarilla")) \(fila.string("lado"))"
        }
        #expect(rojas == (sembrada ? ["78 5 1 visitante"] : []))
    }

    /// A migration that would leave a dangling reference is refused before it commits.
    @Test func unaMigracionQueRompeUnaReferenciaNoSeAplica() throws {
        let db = try Database(path: ":memory:")
        let migrator = Migrator(migrations: [
            Migration(
                version: 1, name: "0001_a.sql",
                sql: """
                    CREATE TABLE padre (id INTEGER PRIMARY KEY);
                    CREATE TABLE hijo (padre_id INTEGER REFERENCES padre (id));
                    INSERT INTO hijo VALUES (7);
                    """)
        ])
        #expect(throws: MigrationError.foreignKeyViolation(migration: "0001_a.sql", table: "hijo"))
        {
            try migrator.migrate(db)
        }
        #expect(try migrator.currentVersion(db) == 0)
    }
}
