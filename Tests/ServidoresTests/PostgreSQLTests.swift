import Almacen
import AlmacenPostgreSQL
import ApoyoDePruebas
import ContratoDeTienda
import Foundation
import Motor
import Persistencia
import Sistema
import Synchronization
import Testing
import Torneo

/// One case at a time, and the migration of each new database on a thread of its own: the
/// store's calls block on the server, and the cooperative pool they run on (one thread per
/// core) is shared with suites that time real processes.
@Suite(
    "Contrato de la tienda · PostgreSQL", .serialized,
    .enabled(if: ServidorPostgres.falta == nil, Comment(rawValue: ServidorPostgres.falta ?? "")))
struct ContratoPostgreSQLTests {
    @Test(arguments: ContratoDeTienda.allCases)
    func contrato(_ caso: ContratoDeTienda) async throws {
        let url = try await ServidorPostgres.compartido().baseNueva()
        let cola = try await fueraDelPool { try AlmacenPG.abrir(url: url) }
        try await caso.comprobar(TiendaPG(cola))
    }
}

/// What only PostgreSQL's concurrent claims can show.
@Suite(
    "Reclamos simultáneos · PostgreSQL", .serialized,
    .enabled(if: ServidorPostgres.falta == nil, Comment(rawValue: ServidorPostgres.falta ?? "")))
struct ReclamosSimultaneosPostgreSQLTests {
    /// The routine prune claimed from six connections at the same instant (six processes
    /// starting together): one of them prunes, the row lock makes the others see its claim.
    @Test func seisConexionesYUnaSolaPoda() async throws {
        let url = try await ServidorPostgres.compartido().baseNueva()
        try await fueraDelPool {
            let tiendas = try (0..<6).map { _ in TiendaPG(try AlmacenPG.abrir(url: url)) }
            let ahora = tiendas[0].ahora()
            for ronda in 0..<3 {
                let ganadores = Mutex(0)
                DispatchQueue.concurrentPerform(iterations: tiendas.count) { i in
                    let toca = try? tiendas[i].mantenimiento.tocaPodar(
                        ahora: ahora + Double(ronda) * 60, intervalo: 60)
                    if toca == true { ganadores.withLock { $0 += 1 } }
                }
                #expect(ganadores.withLock { $0 } == 1, "ronda \(ronda)")
            }
        }
    }

    /// A claim beside another one skips the rows that one has locked and may come back empty
    /// with work left (round 3: three `avisos enviar` ended with 44 of 20,000 pending): the
    /// drain's check still sees those rows, so it claims again instead of ending.
    @MainActor
    @Test func unReclamoVacioJuntoAOtroNoDaPorTerminadaLaCola() async throws {
        let url = try await ServidorPostgres.compartido().baseNueva()
        let tienda = TiendaPG(try await fueraDelPool { try AlmacenPG.abrir(url: url) })
        let otra = try await fueraDelPool { try AlmacenPG.abrir(url: url) }
        _ = try await ContratoDeTienda.jugarPartidoUno(tienda)
        let ahora = segundosUnix()
        let reclamo = ContratoDeTienda.reclamo("uno", ahora: ahora)
        let (vacio, quedan) = try otra.writeConcurrente { db in
            // Another claim's transaction, holding the row locks of every delivery.
            _ = try db.rows("SELECT aviso_id FROM entrega WHERE canal = 'registro' FOR UPDATE") {
                $0.int(0)
            }
            return (
                try tienda.buzon.reclamar(reclamo).isEmpty,
                try tienda.buzon.quedanReclamables(reclamo)
            )
        }
        #expect(vacio)
        #expect(quedan)
        // The locks gone, the same claim takes the whole run, in order; then nothing is left.
        let lote = try tienda.buzon.reclamar(reclamo)
        #expect(lote.map(\.aviso.identificador) == ContratoDeTienda.partidoUno)
        #expect(try !tienda.buzon.quedanReclamables(ContratoDeTienda.reclamo("dos", ahora: ahora)))
    }
}

/// A transaction's opening and a statement's first PREPARE travel in one pipeline with the
/// statement (issue 25): what fails there fails exactly as it would one request at a time.
@Suite(
    "Tubería de la conexión · PostgreSQL", .serialized,
    .enabled(if: ServidorPostgres.falta == nil, Comment(rawValue: ServidorPostgres.falta ?? "")))
struct TuberiaPostgreSQLTests {
    @Test func unaSentenciaQueFallaAlEstrenarseVuelveAEjecutarse() async throws {
        let url = try await ServidorPostgres.compartido().baseNueva()
        try await fueraDelPool {
            let cola = try AlmacenPG.abrir(url: url)
            try cola.read { try $0.executeScript("CREATE TABLE t (n bigint PRIMARY KEY)") }
            // What another session sees of this one's connection between two calls: its
            // backend (the same one throughout: failures here never cost the connection) and
            // whether a transaction is left open.
            let otra = try AlmacenPG.abrir(url: url)
            let sesion = {
                let pid = try cola.read { try $0.scalarInt("SELECT pg_backend_pid()") }
                let estado = try otra.read { db in
                    try db.row("SELECT state FROM pg_stat_activity WHERE pid = ?", pid) {
                        $0.string("state")
                    }
                }
                return "\(pid ?? 0) \(estado ?? "")"
            }
            let inicial = try sesion()
            #expect(inicial.hasSuffix(" idle"))
            let insertar = "INSERT INTO t (n) VALUES (?)"
            try cola.write { try $0.execute(insertar, 1) }
            // Prepared and run in a new transaction at once; the run breaks the key, the
            // transaction rolls back, and the statement stays prepared under its name.
            #expect(throws: ErrorPG.self) { try cola.write { try $0.execute(insertar, 1) } }
            try cola.write { try $0.execute(insertar, 2) }
            // A statement that does not even prepare fails alone: the next one runs.
            #expect(throws: ErrorPG.self) {
                try cola.write { try $0.execute("INSERT INTO falta (n) VALUES (?)", 3) }
            }
            try cola.write { db in
                try db.execute(insertar, 3)
                try db.execute("INSERT INTO t (n) SELECT n + 10 FROM t WHERE n = ?", 3)
            }
            // A body that throws before sending anything leaves no opening behind.
            #expect(throws: CancellationError.self) {
                try cola.write { _ in throw CancellationError() }
            }
            let filas = try cola.read { try $0.rows("SELECT n FROM t ORDER BY n") { $0.int(0) } }
            #expect(filas == [1, 2, 3, 13])
            // …and no transaction is left open between calls, on the same connection.
            #expect(try sesion() == inicial)
        }
    }
    /// The session's settings (the idle-in-transaction timeout that frees a paused client's
    /// locks, generic plans, no JIT) travel in the startup packet, costing no request; a URL
    /// with options of its own keeps them and gets ours by a request once connected.
    @Test func losAjustesDeLaSesionLleganConLaConexion() async throws {
        let url = try await ServidorPostgres.compartido().baseNueva()
        try await fueraDelPool {
            let conOpciones = url + "&options=-c%20statement_timeout%3D4321"
            for (direccion, viajes) in [(url, 0), (conOpciones, 1)] {
                let conexion = try ConexionPG(url: direccion)
                #expect(conexion.roundTrips == viajes, "\(direccion)")
                let ajustes = try conexion.rows(
                    """
                    SELECT current_setting('client_min_messages'),
                        current_setting('idle_in_transaction_session_timeout'),
                        current_setting('plan_cache_mode'), current_setting('jit')
                    """
                ) { [$0.string(0), $0.string(1), $0.string(2), $0.string(3)] }
                #expect(ajustes == [["warning", "10s", "force_generic_plan", "off"]])
            }
            let propia = try ConexionPG(url: conOpciones).scalarString(
                "SELECT current_setting('statement_timeout')")
            #expect(propia == "4321ms")
        }
    }

    /// A write nothing reads travels with the transaction's next request (issue 25: the
    /// notices' deliveries, a minute's «último aviso», log lines): it is done before what
    /// follows it, its failure fails the transaction where it is sent, and outside a
    /// transaction it is done when the call returns.
    @Test func unaEscrituraAplazadaViajaConLaSiguientePeticion() async throws {
        let url = try await ServidorPostgres.compartido().baseNueva()
        try await fueraDelPool {
            let cola = try AlmacenPG.abrir(url: url)
            let otra = try AlmacenPG.abrir(url: url)
            try cola.write { try $0.executeScript("CREATE TABLE t (n bigint PRIMARY KEY)") }
            func filas() throws -> [Int] {
                try otra.read { try $0.rows("SELECT n FROM t ORDER BY n") { $0.int(0) } }
            }
            let insertar = "INSERT INTO t (n) VALUES (?)"
            let viajes = { try cola.read { $0.roundTrips } }
            // Held back, then sent before the read that follows it, which sees it: the
            // opening, both writes and the read in one round trip, the commit in another.
            var antes = try viajes()
            let vistas = try cola.write { db in
                try db.executeLater(insertar, 1)
                try db.executeLater(insertar, 2)
                return try db.scalarInt("SELECT count(*) FROM t")
            }
            #expect(vistas == 2)
            #expect(try viajes() - antes == 2)
            // Held back until the commit, which carries it: one round trip in all.
            antes = try viajes()
            try cola.writeConcurrente { db in try db.executeLater(insertar, 3) }
            #expect(try viajes() - antes == 1)
            #expect(try filas() == [1, 2, 3])
            // A held-back write that fails: the commit it travels with fails with its error,
            // and nothing of the transaction stays, the earlier statement's row included.
            do {
                try cola.write { db in
                    try db.execute(insertar, 4)
                    try db.executeLater(insertar, 1)
                }
                Issue.record("una clave repetida aplazada no hizo fallar la transacción")
            } catch let error as ErrorPG {
                #expect(error.estado == "23505")
                #expect(error.sql == insertar)
            }
            #expect(try filas() == [1, 2, 3])
            // …and the connection goes on, with no transaction left open.
            #expect(try cola.read { try $0.scalarInt("SELECT count(*) FROM t") } == 3)
            // A failure thrown at the next statement of the body: the body stops there.
            var despues = false
            #expect(throws: ErrorPG.self) {
                try cola.write { db in
                    try db.executeLater(insertar, 2)
                    _ = try db.scalarInt("SELECT count(*) FROM t")
                    despues = true
                }
            }
            #expect(!despues)
            // Outside a transaction: done when the call returns.
            try cola.read { db in try db.executeLater(insertar, 5) }
            #expect(try filas() == [1, 2, 3, 5])
        }
    }

    /// A short-lived process runs each statement a few times: planning it for its parameters
    /// each time (PostgreSQL's default for the first five runs) was half the server's time.
    @Test func cadaSentenciaSePlaneaUnaVezEnLaConexion() async throws {
        let url = try await ServidorPostgres.compartido().baseNueva()
        try await fueraDelPool {
            let cola = try AlmacenPG.abrir(url: url)
            try cola.write { db in
                try db.executeScript("CREATE TABLE t (n bigint PRIMARY KEY, dato text)")
                for n in 1...3 { try db.execute("INSERT INTO t (n, dato) VALUES (?, ?)", n, "x") }
            }
            for n in 1...3 {
                _ = try cola.read { try $0.scalarInt("SELECT count(*) FROM t WHERE n >= ?", n) }
            }
            let planes = try cola.read { db in
                try db.rows(
                    "SELECT generic_plans, custom_plans FROM pg_prepared_statements "
                        + "WHERE statement IN ('INSERT INTO t (n, dato) VALUES ($1, $2)', "
                        + "'SELECT count(*) FROM t WHERE n >= $1')"
                ) { ($0.int(0), $0.int(1)) }
            }
            // Three runs each, every one on the one generic plan (none planned for its values).
            #expect(planes.count == 2)
            for (genericos, aMedida) in planes {
                #expect(genericos == 3 && aMedida == 0, "\(planes)")
            }
        }
    }

    /// A generic plan's cost is a guess for any value; the outbox's check guessed past
    /// `jit_above_cost` and compiling it took most of its 700 ms. No statement is compiled.
    @Test func ningunaSentenciaSeCompilaConJIT() async throws {
        let url = try await ServidorPostgres.compartido().baseNueva()
        try await fueraDelPool {
            let cola = try AlmacenPG.abrir(url: url)
            let plan = try cola.read { db in
                try db.rows(
                    "EXPLAIN SELECT sum(a.n * b.n) FROM generate_series(1, 3000) AS a(n), "
                        + "generate_series(1, 3000) AS b(n)"
                ) { $0.string(0) }
            }
            #expect(plan.contains { $0.contains("generate_series") }, "\(plan)")
            #expect(!plan.contains { $0.hasPrefix("JIT") }, "\(plan)")
        }
    }
}

/// The change log's rule lives in the schema for every writer (migration 0017): a change gets
/// its number from the column's default, which rings `marcador_cambios` once per transaction
/// that appends, and a run's UPDATE appends only when a shown column changed.
@Suite(
    "Registro de cambios · PostgreSQL", .serialized,
    .enabled(if: ServidorPostgres.falta == nil, Comment(rawValue: ServidorPostgres.falta ?? "")))
struct CambiosPostgreSQLTests {
    @Test func cadaTransaccionQueAnotaSuenaUnaVez() async throws {
        let url = try await ServidorPostgres.compartido().baseNueva()
        let cola = try await fueraDelPool { try AlmacenPG.abrir(url: url) }
        let cargas = Mutex<[String]>([])
        let escucha = cola.escuchar(.cambios) { carga in cargas.withLock { $0.append(carga) } }
        defer { escucha?.parar() }
        // The listener's LISTEN is in effect once its session sits idle after it.
        let escuchando = try await sondearQue(limite: .seconds(20)) {
            try await fueraDelPool {
                try cola.read {
                    try $0.scalarInt(
                        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                            + " AND state = 'idle' AND query = 'LISTEN marcador_cambios'")
                }
            } == 1
        }
        #expect(escuchando)
        let (antes, despues) = try await fueraDelPool {
            let antes = try cola.read { try $0.scalarInt("SELECT count(*) FROM cambio") }
            // Nothing appended: no ring. Three rows in one transaction: one ring.
            try cola.write {
                try $0.execute("INSERT INTO cambio (clase) SELECT 'ajustes' WHERE false")
            }
            try cola.write {
                try $0.execute(
                    "INSERT INTO cambio (clase) SELECT 'ajustes' FROM generate_series(1, 3)")
            }
            // A run's UPDATE that leaves every shown column as it was appends nothing; one that
            // moves the minute appends that minute, and rings.
            try cola.write { db in
                try db.execute(
                    "INSERT INTO ejecucion (partido_id, codigo, duracion, estado) VALUES (1, 'c', 90, 'en_juego')"
                )
                try db.execute(
                    "UPDATE ejecucion SET minuto = minuto, latido = 'x' WHERE codigo = 'c'")
            }
            try cola.write {
                try $0.execute("UPDATE ejecucion SET minuto = minuto WHERE codigo = 'c'")
            }
            try cola.write { try $0.execute("UPDATE ejecucion SET minuto = 7 WHERE codigo = 'c'") }
            // Rings arrive in commit order: once this one is here, every earlier one is too.
            try cola.write { try $0.execute("SELECT pg_notify('marcador_cambios', 'fin')") }
            let despues = try cola.read { try $0.scalarInt("SELECT count(*) FROM cambio") }
            return (antes, despues)
        }
        let llego = await sondearQue(limite: .seconds(20)) { cargas.withLock { $0.last == "fin" } }
        #expect(llego)
        // The three rows, the run's first change (its INSERT) and minute 7.
        #expect((despues ?? 0) - (antes ?? 0) == 5)
        #expect(cargas.withLock { $0 } == ["", "", "", "fin"])
        let minutos = try await fueraDelPool {
            try cola.read { db in
                try db.rows(
                    "SELECT c.minuto FROM cambio c JOIN ejecucion e ON e.id = c.ejecucion_id"
                        + " WHERE e.codigo = 'c' ORDER BY c.id"
                ) { $0.int(0) }
            }
        }
        #expect(minutos == [0, 7])
    }
}
