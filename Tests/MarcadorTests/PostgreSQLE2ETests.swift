import Almacen
import AlmacenPostgreSQL
import ApoyoDePruebas
import Foundation
import Motor
import Synchronization
import Testing
import Torneo

#if canImport(Glibc)
    import Glibc
#endif

/// postgresql.md through the built binary on a real PostgreSQL server: every command on the same
/// contract as SQLite, and the races of real processes that only a shared server allows.
/// Serialized: each test runs several real processes against one server, and the suites beside
/// it time real processes on the same two cores.
@Suite(
    "PostgreSQL (binario)", .serialized,
    .enabled(if: ServidorPostgres.falta == nil, "PostgreSQL: \(ServidorPostgres.falta ?? "")"))
struct PostgreSQLE2ETests {
    /// A scenario on a brand-new database of its own.
    func escenario() async throws -> Escenario {
        Escenario(db: try await ServidorPostgres.compartido().baseNueva())
    }

    func consultar<T: Sendable>(
        _ escenario: Escenario, _ sql: String, _ leer: @escaping @Sendable (FilaPG) -> T
    ) async throws -> [T] {
        let url = escenario.db
        return try await fueraDelPool {
            try ColaPG(url: url).read { try $0.rows(sql) { leer($0) } }
        }
    }

    func entregas(_ escenario: Escenario) async throws -> [String: Int] {
        let filas = try await consultar(
            escenario, "SELECT estado, count(*) FROM entrega GROUP BY 1"
        ) { ($0.string(0), $0.int(1)) }
        return Dictionary(uniqueKeysWithValues: filas)
    }

    /// `ejecuciones` finished runs of partido 1 with `porEjecucion` notices each, queued through
    /// the store's own run log, as `jugar` queues them.
    func encolar(_ ejecuciones: Int, porEjecucion: Int, en escenario: Escenario) async throws {
        let url = escenario.db
        try await fueraDelPool {
            try Self.encolar(ejecuciones, porEjecucion: porEjecucion, url: url)
        }
    }

    static func encolar(_ ejecuciones: Int, porEjecucion: Int, url: String) throws {
        let tienda = TiendaPG(try AlmacenPG.abrir(url: url))
        let partido = try #require(try tienda.partidos.partido(id: 1))
        for n in 0..<ejecuciones {
            let cronica = tienda.ejecuciones.cronica(
                partido: 1, duracionFija: false, canalesPropios: [], propietario: .actual)
            try cronica.empezar(partido: partido, duracion: 90, msPorMinuto: 0, codigo: "pg\(n)")
            let avisos = (0..<porEjecucion).map { i in
                AvisoDeGol(
                    gol: Gol(
                        minuto: MinutoDeJuego(1 + i % 90),
                        jugador: Jugador("Jugador \(n)-\(i)", de: partido.local), lado: .local),
                    en: partido, marcador: Marcador(local: i + 1, visitante: 0))
            }
            _ = try cronica.registrar(
                minuto: 1, goles: .cero, avisos: avisos, ultimoAviso: { _ in "" })
            _ = try cronica.terminar(minuto: 90)
        }
    }

    @Test func partidosJugarEImportarComoEnSQLite() async throws {
        let escenario = try await escenario()
        let partidos = try await escenario.marcador("partidos")
        #expect(partidos.codigo == 0)
        #expect(partidos.salida.contains("Rayo FC"))
        #expect(partidos.salida.contains("Dragones del Norte"))
        #expect(try await escenario.marcador("avisos", "activar").codigo == 0)
        let jugado = try await escenario.marcador("jugar", "1", "--ms-por-minuto", "0")
        #expect(jugado.codigo == 0)
        #expect(jugado.salida.contains("Gol: Luis (Rayo FC), minuto 35. Rayo FC 2-1 Toros\n"))
        #expect(jugado.salida.hasSuffix("Partido terminado: Rayo FC 3-2 Toros (90 minutos).\n"))
        for gol in NucleoE2ETests.partidoUno {
            #expect(jugado.error.contains("notificación «¡Gol!» enviada: \(gol)"))
        }
        // The log channel and the terminal banner of the `jugar` that played it.
        let canales = try await consultar(
            escenario, "SELECT canal, estado, count(*) FROM entrega GROUP BY 1, 2 ORDER BY 1"
        ) { "\($0.string(0)) \($0.string(1)) \($0.int(2))" }
        #expect(canales == ["registro entregada 5", "terminal entregada 5"])
        let importado = try await escenario.marcador(
            "importar", ImportarE2ETests.datos + "/worldcup-2018.json")
        #expect(importado.codigo == 0)
        #expect(
            importado.salida.hasPrefix(
                "World Cup 2018 («worldcup-2018.json»): 64 partidos, 169 goles · nuevos 64,"))
        let lista = try await escenario.marcador(
            "partidos", "--competicion", "world cup 2018", "--json")
        let json = try JSONSerialization.jsonObject(with: Data(lista.salida.utf8)) as? [Any]
        #expect(json?.count == 64)
        let tabla = try await escenario.marcador(
            "clasificacion", "--competicion", "World Cup 2018", "--grupo", "A")
        #expect(tabla.codigo == 0)
        #expect(tabla.salida.contains("Uruguay"))
        // The password never reaches a message, even where the database is named.
        let malo = try await escenario.marcadorSinDB([
            "--db", "postgresql://nadie:secreto@/nada?host=/nonexistent", "partidos",
        ])
        #expect(malo.codigo == 74)
        #expect(
            malo.error.hasPrefix(
                "marcador: Base de datos «postgresql://nadie:***@/nada?host=/nonexistent»: "
                    + "no se puede conectar con el servidor PostgreSQL ("))
        #expect(!malo.error.contains("secreto"))
        #expect(malo.sinTrazaDeFallo)
        // Nor as a `password` parameter, nor in a malformed URL (an `@` in the password).
        for url in [
            "postgresql://nadie@/nada?host=/nonexistent&password=secreto",
            "postgresql://nadie@/nada?PASSWORD=secreto&host=/nonexistent",
            "postgresql://nadie:sec@reto@/nada?host=/nonexistent",
            "postgresql://nadie:secreto@[::1/nada",
        ] {
            let otro = try await escenario.marcadorSinDB(["--db", url, "partidos"])
            #expect(otro.codigo == 74, "\(url)")
            #expect(
                !otro.error.contains("secreto") && !otro.error.contains("reto@"), "\(otro.error)")
            #expect(otro.sinTrazaDeFallo)
        }
    }

    @Test func trasUnSIGKILLSeReanudaSinRepetirGoles() async throws {
        let escenario = try await escenario()
        _ = try await escenario.marcador("avisos", "activar")
        // Killed once the child reported minute 15, with 75 minutes of 100 ms still to go.
        let proceso = try escenario.lanzar("jugar", "1", "--ms-por-minuto", "100")
        #expect(await proceso.esperarTexto("minuto 15 con", enSalida: true))
        proceso.senal(SIGKILL)
        #expect(await proceso.esperar().senal == SIGKILL)
        let lista = try await escenario.marcador("partidos", "--json").salida
        let json = try JSONSerialization.jsonObject(with: Data(lista.utf8)) as? [[String: Any]]
        let uno = try #require(json?.first { ($0["id"] as? Int) == 1 })
        let minuto = try #require(uno["minuto"] as? Int)
        #expect(uno["estadoTexto"] as? String == "Interrumpido en el minuto \(minuto)")
        let reanudado = try await escenario.marcador(
            "jugar", "1", "--reanudar", "--ms-por-minuto", "0")
        #expect(reanudado.codigo == 0)
        #expect(reanudado.salida.contains("desde el minuto \(minuto)"))
        #expect(!reanudado.salida.contains("minuto 10."))
        #expect(reanudado.salida.hasSuffix("Partido terminado: Rayo FC 3-2 Toros (90 minutos).\n"))
        // Five goals, five notices, each once: none repeated by the resumed run.
        let avisos = try await consultar(escenario, "SELECT identificador FROM aviso ORDER BY id") {
            $0.string(0)
        }
        #expect(
            avisos == ["gol-10-Ana", "gol-10-Iván", "gol-35-Luis", "gol-35-Sofía", "gol-60-Marta"])
        #expect(try await escenario.marcador("jugar", "1", "--reanudar").codigo == 64)
    }

    /// 10,000 notices on two channels (the real default `registro` and a webhook), drained by
    /// three `avisos enviar` started together: each delivered exactly once per channel.
    @Test func tresDespachadoresVacianDiezMilAvisosUnaVezPorCanal() async throws {
        let receptor = try ReceptorHTTP(porDefecto: .init(codigo: 200))
        defer { receptor.cerrar() }
        let escenario = try await escenario()
        _ = try await escenario.marcador("avisos", "activar")
        _ = try await escenario.marcador(
            "avisos", "canales", "añadir", "webhook", "--url", receptor.url)
        try await encolar(100, porEjecucion: 100, en: escenario)
        // At the lowest priority: the suites running beside this one time real processes on
        // the same two cores, and 20,000 deliveries would otherwise starve them.
        let despachadores = try (0..<3).map { _ in
            try Proceso(
                ["-n", "19", Binario.ruta, "--db", escenario.db, "avisos", "enviar"],
                carpeta: escenario.carpeta, ejecutable: "/usr/bin/nice")
        }
        var entregadasPorProceso: [Int] = []
        for despachador in despachadores {
            let resultado = await despachador.esperar(limite: 300)
            #expect(resultado.codigo == 0, "\(resultado.error)")
            let cifra = resultado.salida.split(separator: ",").first?.split(separator: " ").last
            entregadasPorProceso.append(cifra.flatMap { Int($0) } ?? 0)
        }
        #expect(entregadasPorProceso.reduce(0, +) == 20_000)
        #expect(entregadasPorProceso.filter { $0 > 0 }.count >= 2, "\(entregadasPorProceso)")
        let claves = receptor.peticiones.map { $0.cabeceras["idempotency-key"] ?? "" }
        #expect(claves.count == 10_000)
        #expect(Set(claves).count == 10_000)
        #expect(try await entregas(escenario) == ["entregada": 20_000])
        let lineas = try await consultar(
            escenario,
            """
            SELECT count(*), count(DISTINCT linea) FROM registro
            WHERE linea LIKE 'notificación «¡Gol!» enviada: Jugador %'
            """
        ) { [$0.int(0), $0.int(1)] }
        #expect(lineas == [[10_000, 10_000]])
        // Whichever dispatcher took them, each run's notices went out in goal order: the log
        // lines of run n («Jugador n-i, …») follow i.
        let orden = try await consultar(
            escenario,
            """
            SELECT linea FROM registro
            WHERE linea LIKE 'notificación «¡Gol!» enviada: Jugador %' ORDER BY id
            """
        ) { $0.string(0) }
        var ultimoDe: [Substring: Int] = [:]
        var desordenados = 0
        for linea in orden {
            guard let jugador = linea.split(separator: " ").dropFirst(4).first,
                let guion = jugador.firstIndex(of: "-"),
                let i = Int(jugador[jugador.index(after: guion)...].prefix { $0.isNumber })
            else { continue }
            let ejecucion = jugador[..<guion]
            if let anterior = ultimoDe[ejecucion], anterior > i { desordenados += 1 }
            ultimoDe[ejecucion] = i
        }
        #expect(ultimoDe.count == 100)
        #expect(desordenados == 0)
    }

    /// A dispatcher killed while the receiver holds its POST: once the lease expires, another
    /// delivers the same notice again under the same Idempotency-Key, and the rest of its batch.
    @Test func unDespachadorMuertoAMitadDeLoteReentregaConLaMismaClave() async throws {
        let receptor = try ReceptorHTTP(guion: [.init(codigo: 200, espera: 10)])
        defer { receptor.cerrar() }
        let escenario = try await escenario()
        _ = try await escenario.marcador("avisos", "activar")
        _ = try await escenario.marcador("avisos", "canales", "quitar", "registro")
        _ = try await escenario.marcador(
            "avisos", "canales", "añadir", "webhook", "--url", receptor.url)
        try await encolar(1, porEjecucion: 3, en: escenario)
        let condenado = try escenario.lanzar("avisos", "enviar", "--arriendo", "1")
        #expect(await receptor.esperar(1))
        condenado.senal(SIGKILL)
        #expect(await condenado.esperar().senal == SIGKILL)
        #expect(try await entregas(escenario) == ["pendiente": 3])
        // Due again once the dead dispatcher's one-second lease has run out (by the server's
        // clock, as the claim judges it).
        let vencidas =
            "SELECT count(*) FROM entrega WHERE arrendado_hasta < extract(epoch FROM clock_timestamp())"
        #expect(
            try await esperarQue { try await consultar(escenario, vencidas) { $0.int(0) } == [3] })
        let segundo = try await escenario.marcador("avisos", "enviar")
        #expect(segundo.salida.hasPrefix("Entregadas: 3,"))
        let claves = receptor.peticiones.map { $0.cabeceras["idempotency-key"] ?? "" }
        #expect(claves.count == 4)
        #expect(claves.first == claves.dropFirst().first)
        #expect(Set(claves).count == 3)
        #expect(try await entregas(escenario) == ["entregada": 3])
    }

    /// Two `jugar 1` started at the same instant, ten times: exactly one run finishes each time,
    /// the other is cancelled, and the winner's five goals are queued. A try where the second
    /// started after the first had finished did not race: counted, and 7 of 10 must race.
    /// A write of the store on another match (the store's write lock and that match's row,
    /// as any `write` of marcador takes them) kept open: the match being played goes on
    /// minute after minute meanwhile. Its minutes used to queue behind the lock, so one slow
    /// writer stopped every match's clock (issue 25).
    @Test func unEscritorLentoNoParaElRelojDeOtroPartido() async throws {
        let escenario = try await escenario()
        #expect(try await escenario.marcador("partidos").codigo == 0)
        let jugar = try escenario.lanzar("jugar", "1", "--ms-por-minuto", "100")
        let lector = try LectorDeLaTienda(db: escenario.db)
        let minuto = "SELECT coalesce(max(minuto), -1) FROM ejecucion WHERE partido_id = 1"
        #expect(try await esperarQue { try await lector.entero(minuto) >= 1 })

        let tomado = DispatchSemaphore(value: 0)
        let soltar = DispatchSemaphore(value: 0)
        let primera = Mutex(true)
        let url = escenario.db
        let escritor = Task {
            try await fueraDelPool {
                try ColaPG(url: url).write { db in
                    try db.execute("UPDATE partido SET competicion = competicion WHERE id = 2")
                    // Held once: if the server ended the session and the write ran again,
                    // it commits at once.
                    guard
                        primera.withLock({ antes in
                            defer { antes = false }
                            return antes
                        })
                    else { return }
                    tomado.signal()
                    soltar.wait()
                }
            }
        }
        try await fueraDelPool { tomado.wait() }
        let desde = try await lector.entero(minuto)
        // Five more minutes (half a second of play) while the other write stays open; at most
        // 8 s, within the 10 s the server lets a session sit idle in a transaction.
        let siguio = try await esperarQue(limite: .seconds(8)) {
            try await lector.entero(minuto) >= min(desde + 5, 90)
        }
        soltar.signal()
        try await escritor.value
        #expect(siguio, "el partido 1 siguió en el minuto \(desde) mientras otro escribía")
        let fin = await jugar.esperar(limite: 60)
        #expect(fin.codigo == 0, "\(fin.error)")
    }

    @Test func dosJugarALaVezSoloUnoJuega() async throws {
        let escenario = try await escenario()
        _ = try await escenario.marcador("avisos", "activar")
        var carreras = Carreras("dos jugar a la vez (PostgreSQL)")
        for intento in 1...10 {
            let a = try escenario.lanzar("jugar", "1", "--ms-por-minuto", "5")
            let b = try escenario.lanzar("jugar", "1", "--ms-por-minuto", "5")
            let (ra, rb) = (await a.esperar(), await b.esperar())
            #expect(ra.codigo == 0 && rb.codigo == 0, "intento \(intento): \(ra.error) \(rb.error)")
            let ultimas = try await consultar(
                escenario,
                """
                SELECT estado, id, empezada, coalesce(acabada, '') AS acabada FROM ejecucion
                WHERE partido_id = 1 ORDER BY id DESC LIMIT 2
                """
            ) { ($0.string("estado"), $0.int("id"), $0.string("empezada"), $0.string("acabada")) }
            try #require(ultimas.count == 2)
            let compitio = !(ultimas[1].0 == "terminado" && ultimas[1].3 <= ultimas[0].2)
            carreras.anotar(compitio: compitio)
            guard compitio else { continue }
            #expect(ultimas.map(\.0) == ["terminado", "cancelado"], "intento \(intento)")
            let terminados = try await consultar(
                escenario,
                "SELECT count(*) FROM aviso WHERE ejecucion_id = \(ultimas[0].1)"
            ) { $0.int(0) }
            #expect(terminados == [5], "intento \(intento)")
        }
        carreras.comprobar(minimo: 7)
    }

    /// Six processes on a brand-new database at the same instant: the schema and the seed go in
    /// once (under the advisory lock), and every manual goal each process added is kept.
    @Test func seisProcesosAbrenUnaBaseNuevaALaVez() async throws {
        let escenario = try await escenario()
        let procesos = try (0..<6).map { _ in
            try escenario.lanzar("gol-a-mano", "1", "local")
        }
        for proceso in procesos {
            let resultado = await proceso.esperar()
            #expect(resultado.codigo == 0, "\(resultado.error)")
        }
        #expect(
            try await consultar(escenario, "SELECT version FROM marcador_esquema") { $0.int(0) }
                == [MigradorPG.incrustadas.last?.version])
        #expect(try await consultar(escenario, "SELECT count(*) FROM partido") { $0.int(0) } == [3])
        let mano = try await consultar(escenario, "SELECT sum(mano_local) FROM ejecucion") {
            $0.int(0)
        }
        #expect(mano == [6])
    }

    /// A database written by a newer marcador is refused, and nothing in it changes.
    @Test func unaBaseMasNuevaSeRechazaIntacta() async throws {
        let escenario = try await escenario()
        #expect(try await escenario.marcador("partidos").codigo == 0)
        let cola = try ColaPG(url: escenario.db)
        try cola.write { try $0.executeScript("UPDATE marcador_esquema SET version = 99") }
        let antes = try await consultar(escenario, "SELECT count(*) FROM ejecucion") { $0.int(0) }
        let resultado = try await escenario.marcador("jugar", "1", "--ms-por-minuto", "0")
        #expect(resultado.codigo == 74)
        #expect(resultado.error.contains("es de una versión más nueva de marcador (esquema 99"))
        #expect(
            try await consultar(escenario, "SELECT count(*) FROM ejecucion") { $0.int(0) } == antes)
        #expect(
            try await consultar(escenario, "SELECT version FROM marcador_esquema") { $0.int(0) }
                == [99])
    }

    /// A `jugar` on "another machine" (its own host name, in a UTS namespace) replaces one
    /// playing here: signals do not cross machines, so the stop request reaches the first
    /// process only as a row and a NOTIFY; it stops with CANCELADO within a tick or two.
    @Test(
        .enabled(
            if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"),
            "hace falta ser root y unshare (util-linux) para simular otra máquina"))
    func unJugarDeOtraMaquinaDetieneAlDeAquiConUnaNotificacion() async throws {
        let escenario = try await escenario()
        #expect(try await escenario.marcador("partidos").codigo == 0)
        // Five seconds a minute: a stop noticed only at the next minute would come seconds late.
        let aqui = try escenario.lanzar("jugar", "1", "--ms-por-minuto", "5000")
        let enJuego = "SELECT count(*) FROM ejecucion WHERE estado = 'en_juego' AND minuto >= 1"
        #expect(
            try await esperarQue { try await consultar(escenario, enJuego) { $0.int(0) } != [0] })
        let alla = try await escenario.marcadorSinDB(
            [
                "--db", escenario.db, "jugar", "1", "--ms-por-minuto", "0",
            ], ejecutable: "/usr/bin/unshare",
            prefijo: [
                "--uts", "/bin/sh", "-c", "hostname otra-maquina && exec \"$0\" \"$@\"",
                Binario.ruta,
            ])
        #expect(alla.codigo == 0, "\(alla.error)")
        #expect(alla.salida.hasSuffix("Partido terminado: Rayo FC 3-2 Toros (90 minutos).\n"))
        let antes = ContinuousClock.now
        let resultado = await aqui.esperar(limite: 10)
        #expect(ContinuousClock.now - antes < .seconds(2))
        #expect(resultado.codigo == 0)
        #expect(resultado.error.contains("partido CANCELADO"), "\(resultado.error)")
        let duenos = try await consultar(
            escenario, "SELECT anfitrion, estado FROM ejecucion ORDER BY id"
        ) { "\($0.string(0)) \($0.string(1))" }
        #expect(duenos.count == 2)
        #expect(duenos.last == "otra-maquina terminado")
        #expect(duenos.first?.hasSuffix(" cancelado") == true)
        #expect(duenos.first?.hasPrefix("otra-maquina") == false)
    }

    /// A database the server only lets read: listings still work (opening it writes nothing
    /// when it is up to date), anything that writes says so with 74, and nothing changes.
    @Test func unaBaseDeSoloLecturaSeLeeYNoSeToca() async throws {
        let escenario = try await escenario()
        #expect(try await escenario.marcador("partidos").codigo == 0)
        // postgresql://postgres@/NOMBRE?host=…
        let nombre = try #require(
            escenario.db.split(separator: "?").first?.split(separator: "/").last)
        let administracion = try await ServidorPostgres.compartido().urlDeAdministracion
        try await fueraDelPool {
            try ColaPG(url: administracion).read {
                try $0.executeScript(
                    "ALTER DATABASE \(nombre) SET default_transaction_read_only = on")
            }
        }
        let lista = try await escenario.marcador("partidos")
        #expect(lista.codigo == 0, "\(lista.error)")
        #expect(lista.salida.contains("Rayo FC"))
        for argumentos in [["jugar", "1", "--ms-por-minuto", "0"], ["gol-a-mano", "1", "local"]] {
            let resultado = try await escenario.marcadorSinDB(["--db", escenario.db] + argumentos)
            #expect(resultado.codigo == 74, "\(argumentos)")
            #expect(
                resultado.error.hasSuffix("el servidor PostgreSQL solo admite lecturas.\n"),
                "\(resultado.error)")
            #expect(resultado.sinTrazaDeFallo)
        }
        #expect(
            try await consultar(escenario, "SELECT count(*) FROM ejecucion") { $0.int(0) } == [0])
    }
}
