import ApoyoDePruebas
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A dispatcher killed with SIGKILL while a webhook POST is in flight (issue 40: its deliveries
/// stayed leased for the whole 60-s lease, and later goals reached the webhook 57–60 s late):
/// the next dispatcher on this host sees the holder's process is gone and takes its work at
/// once, on both stores. Nothing is lost, and the POST in flight is repeated at most once,
/// under its own key.
@Suite("Relevo de un despachador muerto (binario)", .serialized)
struct RelevoE2ETests {
    @Test(arguments: ["SQLite", "PostgreSQL"])
    func unVigilarMatadoNoRetieneSusAvisos(almacen: String) async throws {
        let escenario: Escenario
        if almacen == "PostgreSQL" {
            try #require(
                ServidorPostgres.falta == nil, "PostgreSQL: \(ServidorPostgres.falta ?? "")")
            escenario = Escenario(db: try await ServidorPostgres.compartido().baseNueva())
        } else {
            escenario = Escenario()
        }
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
        let vigilando = try escenario.lanzar("avisos", "vigilar")
        #expect(await webhook.esperar(1))
        vigilando.senal(SIGKILL)
        #expect(await vigilando.esperar().senal == SIGKILL)
        let inicio = ContinuousClock.now
        let enviado = try await escenario.marcador("avisos", "enviar")
        let tardado = ContinuousClock.now - inicio
        #expect(enviado.codigo == 0, "\(enviado.error)")
        #expect(enviado.error.contains("a la cola: su despachador (pid"), "\(enviado.error)")
        // Every delivery made, well within the 60-s lease the dead watcher held.
        #expect(tardado < .seconds(5), "\(tardado)")
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
}
