import Almacen
import ApoyoDePruebas
import Foundation
import Persistencia
import Sistema
import Synchronization
import Testing
import Torneo

@testable import Motor

/// The run-control service on a real SQLite file with a manual clock: `.task(id:)` across
/// "processes" (two owners in one test), without a single sleep.
@MainActor
@Suite("ControlDeEjecuciones")
struct ControlDeEjecucionesTests {
    let carpeta = CronicaTests.Carpeta()
    let reloj = RelojManual()

    /// Another owner: a living process (pid 1) that is not this one.
    static let otro = Propietario(pid: 1, inicio: 0)

    func abrir() throws -> DatabaseQueue { try Almacen.abrir(ruta: carpeta.ruta + "/c.sqlite3") }

    func control(
        _ queue: DatabaseQueue, propietario: Propietario = .actual,
        registro: (any Registro)? = nil,
        despertar: @escaping @Sendable (EjecucionAjena) -> Void = { _ in }
    ) -> ControlDeEjecuciones {
        let repositorio = PartidosSQLite(queue)
        return ControlDeEjecuciones(
            ejecuciones: EjecucionesSQLite(queue),
            duracionAjustada: { try repositorio.ajustes().duracion },
            propietario: propietario, reloj: Reloj(reloj), registro: registro,
            despertar: despertar)
    }

    func estados(_ queue: DatabaseQueue) throws -> [String] {
        try queue.read { db in
            try db.rows("SELECT estado FROM ejecucion WHERE partido_id = 1 ORDER BY id") {
                $0.string(0)
            }
        }
    }

    /// Two starts of one match: the second one's transaction stops the first, which ends
    /// «reemplazado» at once when woken, and only the second plays to the end.
    @Test func unSegundoJugarDetieneAlPrimeroEnLaMismaTransaccion() async throws {
        let queue = try abrir()
        let partido = try #require(try PartidosSQLite(queue).partido(id: 1))
        let primero = control(queue)
        var minutos = 0
        primero.alCambiar = { _, cambio in if case .minuto = cambio { minutos += 1 } }
        let tareaPrimero = Task {
            try await primero.jugar(.init(partido: partido, msPorMinuto: 10))
        }
        await esperarHasta { primero.ejecucionActual != nil }
        for minuto in 1...5 {
            reloj.avanzar(.milliseconds(10))
            await esperarHasta { minutos == minuto }
        }
        let despertadas = Mutex<[Int]>([])
        let segundo = control(
            queue, propietario: Self.otro,
            despertar: { ajena in despertadas.withLock { $0.append(ajena.id) } })
        let tareaSegundo = Task {
            try await segundo.jugar(.init(partido: partido, msPorMinuto: 0))
        }
        await esperarHasta { !despertadas.withLock { $0 }.isEmpty }
        #expect(despertadas.withLock { $0 } == [try #require(primero.ejecucionActual)])
        primero.revisarParada()  // what SIGUSR1 does in the first process
        #expect(try await tareaPrimero.value == .reemplazado(enElMinuto: 5))
        #expect(try await tareaSegundo.value == .terminado(enElMinuto: 90))
        #expect(try estados(queue) == ["cancelado", "terminado"])
    }

    /// Without the wake-up, the stop request is still seen in the next minute's transaction.
    @Test func sinDespertarSeDetieneEnElSiguienteMinuto() async throws {
        let queue = try abrir()
        let partido = try #require(try PartidosSQLite(queue).partido(id: 1))
        let primero = control(queue)
        let tarea = Task { try await primero.jugar(.init(partido: partido, msPorMinuto: 10)) }
        await esperarHasta { primero.ejecucionActual != nil }
        reloj.avanzar(.milliseconds(10))
        _ = try CronicaSQLite(queue, partidoId: 1, duracionFija: true, propietario: Self.otro)
            .empezar(partido: partido, duracion: 90, msPorMinuto: 0, codigo: "otra0")
        reloj.avanzar(.milliseconds(10))
        let desenlace = try await tarea.value
        guard case .reemplazado(let minuto) = desenlace else {
            Issue.record("esperaba reemplazado, fue \(desenlace)")
            return
        }
        #expect(minuto <= 2)
    }

    /// `ajustes duracion 60` while a run follows the setting: it stops and starts again from
    /// zero with 60 minutes, in the same process, under a new code.
    @Test func cambiarLaDuracionRelanzaConLaNueva() async throws {
        let queue = try abrir()
        let partido = try #require(try PartidosSQLite(queue).partido(id: 1))
        let control = control(queue)
        var relanzado: Int?
        control.alRelanzar = { relanzado = $0 }
        let tarea = Task { try await control.jugar(.init(partido: partido, msPorMinuto: 10)) }
        await esperarHasta { control.ejecucionActual != nil }
        let primera = try #require(control.ejecucionActual)
        reloj.avanzar(.milliseconds(30))
        let despertadas = try ControlDeEjecuciones.cambiarDuracion(
            60, en: EjecucionesSQLite(queue), propietario: Self.otro,
            despertar: { _ in })
        #expect(despertadas == 1)
        control.revisarParada()
        await esperarHasta { relanzado == 60 }
        await esperarHasta { control.ejecucionActual != nil && control.ejecucionActual != primera }
        for _ in 1...60 { reloj.avanzar(.milliseconds(10)) }
        #expect(try await tarea.value == .terminado(enElMinuto: 60))
        #expect(try estados(queue) == ["cancelado", "terminado"])
        #expect(try PartidosSQLite(queue).ajustes().duracion == 60)
    }

    /// The race a lone `jugar` loses to `ajustes duracion`: it read 90, the setting became 60
    /// before its run was stored. The run starts already asked to stop and plays 60 instead.
    @Test func unaDuracionLeidaAntesDelCambioNoSeJuega() async throws {
        let queue = try abrir()
        let partido = try #require(try PartidosSQLite(queue).partido(id: 1))
        let cronica = CronicaSQLite(queue, partidoId: 1, duracionFija: false)
        _ = try ControlDeEjecuciones.cambiarDuracion(
            60, en: EjecucionesSQLite(queue), propietario: .actual, despertar: { _ in })
        try cronica.empezar(partido: partido, duracion: 90, msPorMinuto: 0, codigo: "tarde")
        let id = try #require(cronica.ejecucion)
        #expect(try EjecucionesSQLite(queue).cancelacionPedida(ejecucion: id) == .duracion)
        #expect(
            try cronica.registrar(minuto: 1, goles: .cero, avisos: [], ultimoAviso: { _ in "" })
                == .parada)
    }

    /// A run taken over by another process while its owner was paused past its heartbeat:
    /// the owner's next minute finds it lost, writes nothing (no minute, no goal, no end) and
    /// stops within that tick, saying why in the log.
    @Test func quienPierdeLaEjecucionSeDetieneSinEscribir() async throws {
        let queue = try abrir()
        let partido = try #require(try PartidosSQLite(queue).partido(id: 1))
        let registro = RegistroEspia()
        // Gone as far as this host can tell, like a paused process seen from another host.
        let dormido = Propietario(pid: 999_997, inicio: 1)
        let antiguo = control(queue, propietario: dormido, registro: registro)
        var minutos = 0
        antiguo.alCambiar = { _, cambio in if case .minuto = cambio { minutos += 1 } }
        let tarea = Task { try await antiguo.jugar(.init(partido: partido, msPorMinuto: 10)) }
        await esperarHasta { antiguo.ejecucionActual != nil }
        for minuto in 1...9 {
            reloj.avanzar(.milliseconds(10))
            await esperarHasta { minutos == minuto }
        }
        let guardada = try control(queue).reanudable(partido: 1)
        #expect(guardada.minuto == 9)
        let nueva = CronicaSQLite(queue, partidoId: 1, duracionFija: false)
        try nueva.reanudar(guardada)
        // Minute 10 holds Ana's and Iván's goals: the former owner must not write them.
        reloj.avanzar(.milliseconds(10))
        #expect(try await tarea.value == .perdido(enElMinuto: 9))
        let ahora = try #require(try EjecucionesSQLite(queue).ultima(partido: 1))
        #expect(ahora.estado == .enJuego)
        #expect(ahora.minuto == 9)
        #expect(ahora.goles == .cero)
        #expect(try BuzonSQLite(queue).ultimos(limite: 10).isEmpty)
        #expect(
            registro.lineas.last
                == "partido DETENIDO en el minuto 9 (\(guardada.codigo)): otro proceso juega ahora esta ejecución"
        )
    }

    /// Cancelling the caller's task (Ctrl-C) ends the run as cancelled, never relaunched.
    @Test func cancelarLaTareaLoCancela() async throws {
        let queue = try abrir()
        let partido = try #require(try PartidosSQLite(queue).partido(id: 1))
        let control = control(queue)
        let tarea = Task { try await control.jugar(.init(partido: partido, msPorMinuto: 10)) }
        await esperarHasta { control.ejecucionActual != nil }
        for _ in 1...3 { reloj.avanzar(.milliseconds(10)) }
        await esperarHasta {
            (try? EjecucionesSQLite(queue).ultima(partido: 1)?.minuto) == 3
        }
        tarea.cancel()
        #expect(try await tarea.value == .cancelado(enElMinuto: 3))
        #expect(try estados(queue) == ["cancelado"])
    }

    /// `--reanudar` is refused for what cannot be resumed, and a resume that loses the race
    /// to another process says so instead of playing.
    @Test func reanudarSoloLoQueSePuede() async throws {
        let queue = try abrir()
        let partido = try #require(try PartidosSQLite(queue).partido(id: 1))
        let control = control(queue)
        #expect(throws: ControlDeEjecuciones.FalloDeReanudacion.sinEmpezar) {
            try control.reanudable(partido: 1)
        }
        #expect(
            try await control.jugar(.init(partido: partido, msPorMinuto: 0))
                == .terminado(enElMinuto: 90))
        #expect(throws: ControlDeEjecuciones.FalloDeReanudacion.terminado) {
            try control.reanudable(partido: 1)
        }
        // A run whose owner died (pid 0 never lives) is resumable; two resumers race for it.
        let muerta = try #require(
            CronicaSQLite(
                queue, partidoId: 1, duracionFija: true, propietario: Propietario(pid: 0, inicio: 0)
            ) as CronicaSQLite?)
        try muerta.empezar(partido: partido, duracion: 90, msPorMinuto: 0, codigo: "muert")
        let guardada = try control.reanudable(partido: 1)
        _ = try CronicaSQLite(queue, partidoId: 1, duracionFija: true, propietario: Self.otro)
            .reanudar(guardada)
        await #expect(throws: ControlDeEjecuciones.FalloDeReanudacion.tomadaPorOtro) {
            try await control.jugar(.init(partido: partido, msPorMinuto: 0, reanudar: guardada))
        }
    }
}

/// The manual clock itself: a cancellation is never lost, whenever it lands.
@Suite("RelojManual")
struct RelojManualTests {
    @Test func ningunaCancelacionSePierde() async {
        let reloj = RelojManual()
        let lejos = reloj.now.advanced(by: .seconds(1_000))
        let acabadas = Contador()
        let intentos = 20_000
        for intento in 0..<intentos {
            let espera = Task.detached {
                _ = try? await reloj.sleep(until: lejos, tolerance: nil)
                acabadas.sumar()
            }
            // Land the cancellation at varied moments of the sleeper's start.
            var giro = 0
            for _ in 0..<(intento % 64) { giro &+= 1 }
            if giro >= 0 { espera.cancel() }
        }
        // A lost cancellation leaves its sleeper waiting forever: count who ended.
        _ = await sondearQue(limite: .seconds(5)) { acabadas.valor == intentos }
        #expect(acabadas.valor == intentos)
    }
}

/// A counter any task may bump.
final class Contador: Sendable {
    private let cuenta = Mutex(0)
    func sumar() { cuenta.withLock { $0 += 1 } }
    var valor: Int { cuenta.withLock { $0 } }
}
