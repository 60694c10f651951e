import Almacen
import ApoyoDePruebas
import Foundation
import Sistema
import Testing
import Torneo

@testable import Motor

/// The engine writing through SQLite: what a run leaves in the database.
@MainActor
@Suite("PartidoEnVivo con CronicaSQLite")
struct CronicaTests {
    let carpeta = Carpeta()

    /// A temp directory removed when the suite's test instance goes away.
    final class Carpeta: Sendable {
        let ruta = NSTemporaryDirectory() + "marcador-motor-" + UUID().uuidString
        init() {
            try? FileManager.default.createDirectory(
                atPath: ruta, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: ruta) }
    }

    func abrir() throws -> DatabaseQueue { try Almacen.abrir(ruta: carpeta.ruta + "/m.sqlite3") }

    func partidoUno(_ queue: DatabaseQueue) throws -> Partido {
        try #require(try PartidosSQLite(queue).partido(id: 1))
    }

    @Test func despuesDeJugarOtraConexionLeeElMismoEstado() async throws {
        let queue = try abrir()
        let modelo = PartidoEnVivo(
            partido: try partidoUno(queue), msPorMinuto: 0,
            cronica: CronicaSQLite(queue, partidoId: 1, duracionFija: false))
        try await modelo.jugar(duracion: 90)
        let otra = try abrir()
        let guardada = try #require(try EjecucionesSQLite(otra).ultima(partido: 1))
        #expect(guardada.estado == .terminado)
        #expect(guardada.minuto == 90)
        #expect(guardada.goles == Marcador(local: 3, visitante: 2))
        #expect(guardada.golesAMano == .cero)
        #expect(guardada.ultimoAviso == "minuto 90 con 3-2")
        #expect(guardada.codigo == modelo.identificador)
        let resumen = try #require(try PartidosSQLite(otra).resumenes().first)
        #expect(resumen.estado == .terminado)
        #expect(resumen.marcador == Marcador(local: 3, visitante: 2))
    }

    /// A manual goal from another process that lands after the last minute was written, but
    /// before the final whistle, is in the final score the engine reports (a loaded run once
    /// printed 3-2 while the stored run said 3-3).
    @Test func unGolAManoTrasElUltimoMinutoEntraEnElResultadoFinal() async throws {
        let queue = try abrir()
        let modelo = PartidoEnVivo(
            partido: try partidoUno(queue), msPorMinuto: 0,
            cronica: CronicaSQLite(queue, partidoId: 1, duracionFija: false))
        let otra = try abrir()
        modelo.alCambiar = { [unowned modelo] cambio in
            guard case .minuto = cambio, modelo.minuto == 90 else { return }
            _ = try? EjecucionesSQLite(otra).golAMano(
                partido: 1, lado: .visitante, quitar: false, duracion: 90, codigo: "otro")
        }
        #expect(try await modelo.jugar(duracion: 90) == .terminado(enElMinuto: 90))
        #expect(modelo.golesAMano == Marcador(local: 0, visitante: 1))
        #expect(modelo.marcador == Marcador(local: 3, visitante: 3))
        let guardada = try #require(try EjecucionesSQLite(otra).ultima(partido: 1))
        #expect(guardada.golesAMano == Marcador(local: 0, visitante: 1))
    }

    /// Resuming a run stored at minute 40 plays only what is left: the 60' goal, once.
    @Test func reanudarNoCuentaNingunGolDosVeces() async throws {
        let queue = try abrir()
        let partido = try partidoUno(queue)
        let reloj = RelojManual()
        let primero = PartidoEnVivo(
            partido: partido, msPorMinuto: 10, reloj: Reloj(reloj),
            cronica: CronicaSQLite(queue, partidoId: 1, duracionFija: false))
        let tarea = Task { try await primero.jugar(duracion: 90) }
        await esperarHasta { primero.corriendo }
        for minuto in 1...40 {
            reloj.avanzar(.milliseconds(10))
            await esperarHasta { primero.minuto == minuto }
        }
        tarea.cancel()
        #expect(try await tarea.value == .cancelado(enElMinuto: 40))
        let guardada = try #require(try EjecucionesSQLite(queue).ultima(partido: 1))
        #expect(guardada.minuto == 40)
        #expect(guardada.goles == Marcador(local: 2, visitante: 2))

        let segundo = PartidoEnVivo(
            partido: partido, msPorMinuto: 0,
            cronica: CronicaSQLite(queue, partidoId: 1, duracionFija: false))
        var goles: [String] = []
        segundo.alCambiar = { if case .gol(let aviso) = $0 { goles.append(aviso.identificador) } }
        #expect(try await segundo.reanudar(guardada) == .terminado(enElMinuto: 90))
        #expect(goles == ["gol-60-Marta"])
        #expect(segundo.marcador == Marcador(local: 3, visitante: 2))
        #expect(segundo.identificador == guardada.codigo)
        let final = try #require(try EjecucionesSQLite(queue).ultima(partido: 1))
        #expect(final.id == guardada.id)
        #expect(final.goles == Marcador(local: 3, visitante: 2))
    }

    /// Another process asks the run to stop: the next minute is not written and the run ends
    /// cancelled at the last minute it did write.
    @Test func unaPeticionDeParadaDetieneLaEjecucionSinEscribirMas() async throws {
        let queue = try abrir()
        let reloj = RelojManual()
        let registro = RegistroEspia()
        let modelo = PartidoEnVivo(
            partido: try partidoUno(queue), msPorMinuto: 10, reloj: Reloj(reloj),
            cronica: CronicaSQLite(queue, partidoId: 1, duracionFija: false), registro: registro,
            nuevoCodigo: { "c0de1" })
        let tarea = Task { try await modelo.jugar(duracion: 90) }
        await esperarHasta { modelo.corriendo }
        for minuto in 1...12 {
            reloj.avanzar(.milliseconds(10))
            await esperarHasta { modelo.minuto == minuto }
        }
        let otraConexion = try abrir()
        // Another process starts the same match: one transaction starts its run and stops ours.
        let pedidas = try CronicaSQLite(
            otraConexion, partidoId: 1, duracionFija: true,
            propietario: Propietario(pid: 1, inicio: 1)
        ).empezar(
            partido: try partidoUno(otraConexion), duracion: 90, msPorMinuto: 0, codigo: "otra")
        #expect(pedidas.count == 1)
        reloj.avanzar(.milliseconds(10))
        #expect(try await tarea.value == .cancelado(enElMinuto: 12))
        #expect(registro.lineas == ["partido CANCELADO en el minuto 12 (c0de1)"])
        let guardada = try #require(try EjecucionesSQLite(otraConexion).ejecucion(id: 1))
        #expect(guardada.minuto == 12)
        #expect(guardada.estado == .cancelado)
        #expect(
            try EjecucionesSQLite(otraConexion).cancelacionPedida(ejecucion: guardada.id)
                == .reemplazo)
    }

    /// A manual goal written by another connection shows in the running match at its next minute.
    @Test func unGolAManoDeOtraConexionSeVeEnElSiguienteMinuto() async throws {
        let queue = try abrir()
        let reloj = RelojManual()
        let modelo = PartidoEnVivo(
            partido: try partidoUno(queue), msPorMinuto: 10, reloj: Reloj(reloj),
            cronica: CronicaSQLite(queue, partidoId: 1, duracionFija: true))
        let tarea = Task { try await modelo.jugar(duracion: 60) }
        await esperarHasta { modelo.corriendo }
        reloj.avanzar(.milliseconds(10))
        await esperarHasta { modelo.minuto == 1 }
        _ = try EjecucionesSQLite(try abrir()).golAMano(
            partido: 1, lado: .visitante, quitar: false, duracion: 90, codigo: "x")
        #expect(modelo.golesAMano == .cero)
        reloj.avanzar(.milliseconds(10))
        await esperarHasta { modelo.minuto == 2 }
        #expect(modelo.golesAMano == Marcador(local: 0, visitante: 1))
        reloj.avanzar(.milliseconds(580))
        _ = try await tarea.value
        #expect(modelo.marcador == Marcador(local: 3, visitante: 3))
    }
}
