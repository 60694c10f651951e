import ApoyoDePruebas
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A process killed with SIGKILL while it holds work (issue 40: a killed dispatcher's deliveries
/// stayed leased for the whole 60-s lease, and later goals reached the webhook 57–60 s late):
/// the next process on this host sees the holder's process is gone and takes its work at once,
/// on both stores — a dispatcher's deliveries (`avisos vigilar`, `directo`), a run (`jugar`), a
/// feed source (`directo`). Nothing is lost, and a POST in flight is repeated at most once,
/// under its own key.
@Suite("Relevo de un proceso muerto (binario)", .serialized)
struct RelevoE2ETests {
    /// A scenario on the store named.
    static func escenario(_ almacen: String) async throws -> Escenario {
        guard almacen == "PostgreSQL" else { return Escenario() }
        try #require(ServidorPostgres.falta == nil, "PostgreSQL: \(ServidorPostgres.falta ?? "")")
        return Escenario(db: try await ServidorPostgres.compartido().baseNueva())
    }

    /// `avisos vigilar` and `directo` (whose dispatcher is the same service) killed mid-POST.
    @Test(arguments: ["SQLite", "PostgreSQL"], [["avisos", "vigilar"], ["directo"]])
    func unDespachadorMatadoNoRetieneSusAvisos(almacen: String, orden: [String]) async throws {
        let escenario = try await Self.escenario(almacen)
        // One run: its five notices go to the webhook one after another, and the first POST is
        // held, so the watcher is killed with exactly one request in flight.
        let webhook = try ReceptorHTTP(guion: [.init(codigo: 200, retenida: true)])
        defer {
            webhook.soltar()
            webhook.cerrar()
        }
        _ = try await escenario.marcador("avisos", "activar")
        _ = try await escenario.marcador(
            "avisos", "canales", "añadir", "webhook", "--url", webhook.url)
        if almacen == "PostgreSQL" {
            try await PostgreSQLE2ETests().encolar(1, porEjecucion: 5, en: escenario)
        } else {
            try escenario.encolarEjecuciones(1)
        }
        let vigilando = try Proceso(
            ["--db", escenario.db] + orden, entorno: [:], carpeta: escenario.carpeta)
        #expect(await webhook.esperar(1))
        vigilando.senal(SIGKILL)
        #expect(await vigilando.esperar().senal == SIGKILL)
        let inicio = ContinuousClock.now
        let enviado = try await escenario.marcador("avisos", "enviar")
        let tardado = ContinuousClock.now - inicio
        #expect(enviado.codigo == 0, "\(enviado.error)")
        #expect(enviado.error.contains("a la cola: su despachador (pid"), "\(enviado.error)")
        // Every delivery made, well within the 60-s lease the dead watcher held (about a
        // second idle; a loaded full suite saw 5.4 s, so the bound is a third of the lease).
        #expect(tardado < .seconds(20), "\(tardado)")
        print("relevo de \(orden.joined(separator: " ")) en \(almacen): \(tardado)")
        let estados = try await escenario.marcador("avisos", "--json").salida
        let documento = try #require(
            try JSONSerialization.jsonObject(with: Data(estados.utf8)) as? [String: Any])
        let recuento = documento["entregas"] as? [String: Int]
        #expect(recuento?["entregada"] == 10, "\(documento["entregas"] ?? "")")
        #expect(recuento?["pendiente"] == 0)
        let claves = webhook.peticiones.map { $0.cabeceras["idempotency-key"] ?? "" }
        #expect(Set(claves).count == 5)
        #expect(claves.count <= 6, "\(claves.count) POST para 5 avisos")
    }

    /// A `jugar` killed mid-match: the run is its process's, which is gone, so a relaunch with
    /// `--reanudar` takes it over at once (not after the heartbeat goes stale), and every goal
    /// of the match is told once.
    @Test(arguments: ["SQLite", "PostgreSQL"])
    func unJugarMatadoSeReanudaAlMomento(almacen: String) async throws {
        let escenario = try await Self.escenario(almacen)
        _ = try await escenario.marcador("avisos", "activar")
        let jugando = try escenario.lanzar("jugar", "1", "--ms-por-minuto", "100")
        #expect(await jugando.esperarTexto("minuto 15 con", enSalida: true))
        jugando.senal(SIGKILL)
        #expect(await jugando.esperar().senal == SIGKILL)
        let inicio = ContinuousClock.now
        let reanudado = try await escenario.marcador(
            "jugar", "1", "--reanudar", "--ms-por-minuto", "0")
        let tardado = ContinuousClock.now - inicio
        #expect(reanudado.codigo == 0, "\(reanudado.error)")
        #expect(reanudado.salida.hasSuffix("Partido terminado: Rayo FC 3-2 Toros (90 minutos).\n"))
        #expect(tardado < .seconds(5), "\(tardado)")
        print("relevo de jugar en \(almacen): \(tardado) (la reanudación entera, a 0 ms)")
        #expect(try await escenario.marcador("avisos", "enviar").codigo == 0)
        let lineas = try await escenario.consulta(
            "SELECT count(*) FROM registro WHERE linea LIKE 'notificación «¡Gol!» enviada%'")
        #expect(lineas == 5, "\(lineas) líneas para los 5 goles")
    }

    /// A `directo` killed while its poll of a source waits for the provider: the next
    /// `directo` polls that source at once, not when the 20-s lease on it runs out.
    @Test(arguments: ["SQLite", "PostgreSQL"])
    func unDirectoMatadoNoRetieneSusFuentes(almacen: String) async throws {
        let escenario = try await Self.escenario(almacen)
        let proveedor = try ReceptorHTTP(guion: [.init(codigo: 200, retenida: true)])
        defer {
            proveedor.soltar()
            proveedor.cerrar()
        }
        _ = try await escenario.marcador(
            "fuentes", "añadir", "fd", "--url", proveedor.url("/liga.json"), "--formato",
            "football-data", "--cada", "1")
        let primero = try escenario.lanzar("directo")
        #expect(await proveedor.esperar(1))
        primero.senal(SIGKILL)
        #expect(await primero.esperar().senal == SIGKILL)
        let inicio = ContinuousClock.now
        let segundo = try escenario.lanzar("directo")
        #expect(await proveedor.esperar(2, limite: 30))
        let tardado = ContinuousClock.now - inicio
        segundo.senal(SIGTERM)
        #expect(await segundo.esperar().codigo == 143)
        #expect(tardado < .seconds(5), "\(tardado)")
        print("relevo de la fuente de directo en \(almacen): \(tardado)")
    }
}
