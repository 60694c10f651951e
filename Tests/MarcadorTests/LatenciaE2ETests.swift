import Almacen
import AlmacenPostgreSQL
import ApoyoDePruebas
import Foundation
import Persistencia
import Testing
import Torneo

#if canImport(Glibc)
    import Glibc
#endif

/// architecture.md, the store's commit signal: a goal another process commits reaches a waiting
/// `avisos vigilar` because the store tells it (PostgreSQL's NOTIFY; SQLite's `-wal` watch),
/// not at its next poll. Ten goals, each committed by this test process at a random moment of
/// the dispatcher's 200-ms poll; each must reach the webhook, and the median commit → POST is
/// printed (the closing note's figure). Whether a commit wakes a waiting reader at all is
/// tested without clocks in `EscuchaDeLaTiendaTests`.
@Suite("Del commit a la entrega (binario)", .serialized)
struct LatenciaE2ETests {
    @Test(arguments: ["SQLite", "PostgreSQL"])
    func unGolDeOtroProcesoLlegaAlMomento(almacen: String) async throws {
        let escenario = try await RelevoE2ETests.escenario(almacen)
        let webhook = try ReceptorHTTP()
        defer { webhook.cerrar() }
        _ = try await escenario.marcador("avisos", "activar")
        _ = try await escenario.marcador(
            "avisos", "canales", "añadir", "webhook", "--url", webhook.url)
        let vigilando = try escenario.lanzar("avisos", "vigilar")
        defer { vigilando.senal(SIGKILL) }
        #expect(await vigilando.esperarTexto("Vigilando la cola", enSalida: true))
        let db = escenario.db
        let tienda: any Tienda =
            almacen == "PostgreSQL"
            ? TiendaPG(try AlmacenPG.abrir(url: db)) : TiendaSQLite(try Almacen.abrir(ruta: db))
        let partido = try #require(try tienda.partidos.partido(id: 1))
        var latencias: [Double] = []
        for n in 1...10 {
            // Anywhere in the poll's 200 ms, so a dispatcher that only polled would average
            // 100 ms; the store's signal does not depend on when the commit comes.
            try await Task.sleep(for: .milliseconds(Int.random(in: 0..<200)))
            let cronica = tienda.ejecuciones.cronica(
                partido: 1, duracionFija: true, canalesPropios: [], propietario: .actual)
            try cronica.empezar(partido: partido, duracion: 90, msPorMinuto: 0, codigo: "l\(n)")
            let gol = Gol(
                minuto: MinutoDeJuego(n), jugador: Jugador("Jugador \(n)", de: partido.local),
                lado: .local)
            _ = try cronica.registrar(
                minuto: n, goles: Marcador(local: n, visitante: 0),
                avisos: [
                    AvisoDeGol(gol: gol, en: partido, marcador: Marcador(local: n, visitante: 0))
                ],
                ultimoAviso: { _ in "" })
            let comprometido = Date()
            #expect(await webhook.esperar(n, limite: 10), "el gol \(n) no llegó")
            guard webhook.peticiones.count >= n else { break }
            latencias.append(webhook.peticiones[n - 1].llegada.timeIntervalSince(comprometido))
            _ = try cronica.terminar(minuto: 90)
        }
        let mediana = latencias.sorted()[latencias.count / 2] * 1000
        print(
            "\(almacen): commit → POST, mediana \(Int(mediana.rounded())) ms "
                + "(mín \(Int(((latencias.min() ?? 0) * 1000).rounded())), "
                + "máx \(Int(((latencias.max() ?? 0) * 1000).rounded())) ms)")
        #expect(latencias.count == 10)
    }
}
