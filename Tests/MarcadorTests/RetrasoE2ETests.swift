import Almacen
import ApoyoDePruebas
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// contract.md: a delay against spoilers. A channel with `--retraso` gets each notice that
/// long after the event, the others at once; the delay is stored with the delivery, so a
/// dispatcher killed inside it loses nothing and sends nothing twice or early.
@Suite("Un retraso contra los destripes (binario)")
struct RetrasoE2ETests {
    @Test func elCanalConRetrasoRecibeCadaGolCincoSegundosDespuesYUnaSolaVez() async throws {
        let inmediato = try ReceptorHTTP()
        let diferido = try ReceptorHTTP()
        defer {
            inmediato.cerrar()
            diferido.cerrar()
        }
        let escenario = Escenario()
        _ = try await escenario.marcador("avisos", "activar")
        _ = try await escenario.marcador(
            "avisos", "canales", "añadir", "webhook", "--nombre", "ya", "--url", inmediato.url)
        let alta = try await escenario.marcador(
            "avisos", "canales", "añadir", "webhook", "--nombre", "diferido", "--url",
            diferido.url, "--retraso", "15")
        #expect(alta.codigo == 0, "\(alta.error)")
        #expect(try await escenario.marcador("avisos", "canales").salida.contains("retraso=15 s"))
        let primero = try escenario.lanzar("avisos", "vigilar", "--arriendo", "2")
        defer { primero.senal(SIGKILL) }
        #expect(try await escenario.marcador("jugar", "1", "--ms-por-minuto", "0").codigo == 0)
        #expect(await inmediato.esperar(5))
        // Inside the delay: the watcher dies without a word, another takes over. (15 s: under
        // two busy loops and the whole suite, the five immediate POSTs once took more than 5.)
        #expect(diferido.peticiones.isEmpty)
        primero.senal(SIGKILL)
        _ = await primero.esperar()
        let segundo = try escenario.lanzar("avisos", "vigilar", "--arriendo", "2")
        defer { segundo.senal(SIGKILL) }
        #expect(await diferido.esperar(5, limite: 60))
        // Nothing more comes: each goal once on each channel.
        let hecho = await esperarQue(limite: .seconds(30)) {
            (try? await escenario.marcador("avisos").salida)?.contains("Entregas: 0 pendientes")
                == true
        }
        #expect(hecho)
        segundo.senal(SIGTERM)
        _ = await segundo.esperar()
        let claves = { (receptor: ReceptorHTTP) in
            receptor.peticiones.map { $0.cabeceras["idempotency-key"] ?? "" }
        }
        #expect(inmediato.peticiones.count == 5 && diferido.peticiones.count == 5)
        #expect(Set(claves(diferido)).count == 5)
        // In goal order, each at least the delay after its notice was made (the event; the
        // immediate twin arrives some milliseconds after it, so the gap between the two is
        // the delay less that).
        #expect(claves(diferido) == claves(inmediato))
        let queue = try DatabaseQueue(Database(path: escenario.db))
        let creados = try queue.read { db in
            try db.rows("SELECT creado FROM aviso WHERE tipo = 'gol' ORDER BY id") { $0.double(0) }
        }
        #expect(creados.count == 5)
        for (creado, luego) in zip(creados, diferido.peticiones) {
            let espera = luego.llegada.timeIntervalSince1970 - creado
            #expect(espera >= 15, "\(espera) s")
        }
        for (ya, luego) in zip(inmediato.peticiones, diferido.peticiones) {
            #expect(luego.llegada.timeIntervalSince(ya.llegada) >= 14, "el retraso no se notó")
        }
    }

    /// The delay is a number of seconds from 0 to an hour; anything else is refused with the
    /// usage status and no channel is stored.
    @Test(arguments: ["-1", "3601", "cinco", "nan"])
    func unRetrasoFueraDeRangoSeRechaza(_ valor: String) async throws {
        let escenario = Escenario()
        let alta = try await escenario.marcador(
            "avisos", "canales", "añadir", "registro", "--nombre", "tarde", "--retraso", valor)
        #expect(alta.codigo == 64, "\(alta.error)")
        #expect(!alta.error.isEmpty)
        #expect(!(try await escenario.marcador("avisos", "canales").salida.contains("tarde")))
    }
}

/// contract.md: «Empieza pronto». A dispatcher queues the reminder of a match whose kick-off
/// is known once it falls within a channel's `--antes`; one per match, whatever restarts.
@Suite("Recordatorios antes del saque (binario)")
struct RecordatoriosE2ETests {
    @Test func unRecordatorioLlegaUnaVezConLaHoraDelUsuario() async throws {
        let escenario = Escenario()
        // A friendly ten minutes from now, its time in UTC (the file's offset).
        let (fecha, hora) = Escenario.enUTC(Date().addingTimeInterval(600))
        try await escenario.importarAmistosos([
            (fecha, hora, "Argentina", "France"), ("2031-01-01", "18:00", "Spain", "Russia"),
        ])
        _ = try await escenario.marcador("avisos", "activar")
        let alta = try await escenario.marcador(
            "avisos", "canales", "añadir", "registro", "--nombre", "pronto", "--avisar",
            "recordatorio", "--antes", "15m")
        #expect(alta.codigo == 0, "\(alta.error)")
        #expect(
            try await escenario.marcador("avisos", "canales").salida.contains("antes=15 min"))
        let linea = "notificación «Empieza pronto» enviada: Argentina - France, \(hora)"
        let uno = try escenario.lanzar("avisos", "vigilar", entorno: ["TZ": "UTC"])
        defer { uno.senal(SIGKILL) }
        let llegado = await esperarQue(limite: .seconds(30)) {
            (try? await escenario.marcador("registro").salida.contains(linea)) == true
        }
        #expect(llegado, "\(uno.errorHastaAhora)")
        uno.senal(SIGKILL)
        _ = await uno.esperar()
        // A second dispatcher looks again: the match has its reminder already.
        let dos = try escenario.lanzar("avisos", "vigilar", entorno: ["TZ": "UTC"])
        defer { dos.senal(SIGKILL) }
        #expect(await dos.esperarTexto("Vigilando", enSalida: true))
        dos.senal(SIGTERM)
        _ = await dos.esperar()
        let registro = try await escenario.marcador("registro").salida
        #expect(registro.components(separatedBy: "«Empieza pronto»").count == 2, "\(registro)")
        #expect(!registro.contains("Spain - Russia"))
        let avisos = try await escenario.marcador("avisos", "--json").salida
        #expect(avisos.components(separatedBy: "\"recordatorio\"").count >= 2)
    }

    /// Two dispatchers started at the same instant on one store both look for reminders as
    /// they start: one «Empieza pronto» notice, delivered once (the unique index decides).
    @Test(arguments: ["SQLite", "PostgreSQL"])
    func dosVigilantesALaVezDanUnSoloRecordatorio(almacen: String) async throws {
        if almacen == "PostgreSQL" {
            try #require(
                ServidorPostgres.falta == nil, "PostgreSQL: \(ServidorPostgres.falta ?? "")")
        }
        let escenario =
            almacen == "SQLite"
            ? Escenario() : Escenario(db: try await ServidorPostgres.compartido().baseNueva())
        let (fecha, hora) = Escenario.enUTC(Date().addingTimeInterval(600))
        try await escenario.importarAmistosos([(fecha, hora, "Argentina", "France")])
        _ = try await escenario.marcador("avisos", "activar")
        let alta = try await escenario.marcador(
            "avisos", "canales", "añadir", "registro", "--nombre", "pronto", "--avisar",
            "recordatorio", "--antes", "15m")
        #expect(alta.codigo == 0, "\(alta.error)")
        let vigilantes = try [
            escenario.lanzar("avisos", "vigilar", entorno: ["TZ": "UTC"]),
            escenario.lanzar("avisos", "vigilar", entorno: ["TZ": "UTC"]),
        ]
        defer { for vigilante in vigilantes { vigilante.senal(SIGKILL) } }
        let linea = "notificación «Empieza pronto» enviada: Argentina - France, \(hora)"
        let llegado = await esperarQue(limite: .seconds(30)) {
            (try? await escenario.marcador("registro").salida.contains(linea)) == true
        }
        #expect(llegado, "\(vigilantes.map(\.errorHastaAhora))")
        for vigilante in vigilantes {
            #expect(await vigilante.esperarTexto("Vigilando", enSalida: true))
            vigilante.senal(SIGTERM)
            _ = await vigilante.esperar()
        }
        let registro = try await escenario.marcador("registro").salida
        #expect(registro.components(separatedBy: "«Empieza pronto»").count == 2, "\(registro)")
        let avisos = try await escenario.marcador("avisos", "--json").salida
        #expect(
            avisos.components(separatedBy: "\"tipo\" : \"recordatorio\"").count == 2, "\(avisos)")
    }
}
