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
            diferido.url, "--retraso", "5")
        #expect(alta.codigo == 0, "\(alta.error)")
        #expect(try await escenario.marcador("avisos", "canales").salida.contains("retraso=5 s"))
        let primero = try escenario.lanzar("avisos", "vigilar", "--arriendo", "2")
        defer { primero.senal(SIGKILL) }
        #expect(try await escenario.marcador("jugar", "1", "--ms-por-minuto", "0").codigo == 0)
        #expect(await inmediato.esperar(5))
        // Inside the delay: the watcher dies without a word, another takes over.
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
        // In goal order, and each at least five seconds after its immediate twin.
        #expect(claves(diferido) == claves(inmediato))
        for (ya, luego) in zip(inmediato.peticiones, diferido.peticiones) {
            #expect(
                luego.llegada.timeIntervalSince(ya.llegada) >= 4.9,
                "\(luego.llegada.timeIntervalSince(ya.llegada)) s")
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
