import ApoyoDePruebas
import Persistencia
import Synchronization
import Testing
import Torneo

@testable import Avisos

/// A store with no shard to give: it counts how often it is asked.
final class DifusionesVacias: Difusiones {
    private let reclamos = Mutex(0)
    var veces: Int { reclamos.withLock { $0 } }

    func reclamarTramo(_ reclamo: ReclamoDeTramo) throws -> TramoReclamado? {
        reclamos.withLock { $0 += 1 }
        return nil
    }

    func dispositivos(de tramo: TramoReclamado, despues: String?, limite: Int) throws
        -> [DispositivoDeTramo]
    { [] }

    func avanzar(_ avance: AvanceDeTramo, arrendatario: String, ahora: Double, arriendo: Double)
        throws -> Bool
    { true }

    func recuentoDeDifusion(aviso: Int?) throws -> RecuentoDeDifusion { RecuentoDeDifusion() }
}

@Suite("Difusor: el servicio en espera")
struct DifusorTests {
    private func difusor(_ difusiones: DifusionesVacias, reloj: RelojManual) -> Difusor {
        var configuracion = Difusor.Configuracion()
        configuracion.tramosALaVez = 1
        return Difusor(
            difusiones: difusiones, registro: RegistroEspia(), configuracion: configuracion,
            arrendatario: "prueba", ahora: { 1_000_000 }, reloj: Reloj(reloj),
            crear: { _, _ in
                .failure(FalloDeCanal(canal: "prueba", motivo: "sin canales en esta prueba"))
            },
            permitido: { true })
    }

    /// A ring wakes an idle dispatcher once: it looks, finds nothing, and sleeps until the next
    /// ring or its poll. Each ring cancelled the poll's alarm, and a cancelled alarm rang the
    /// bell anyway, so the next wait ended at once: one ring from another process's commit kept
    /// every `avisos vigilar` and `servir` on a database looking for shards as fast as two
    /// cores allow.
    @Test func unToqueDespiertaUnaSolaVez() async throws {
        let difusiones = DifusionesVacias()
        let reloj = RelojManual()
        let difusor = difusor(difusiones, reloj: reloj)
        difusor.arrancar()
        #expect(await sondearQue(limite: .seconds(10)) { difusiones.veces == 1 })
        difusor.despertar()
        #expect(await sondearQue(limite: .seconds(10)) { difusiones.veces == 2 })
        // With the clock held still, nothing but a ring can make it look again. Spinning, it
        // passes a hundred looks within milliseconds; idle, never.
        #expect(!(await sondearQue(limite: .seconds(1)) { difusiones.veces > 100 }))
        #expect(difusiones.veces == 2)
        // Its poll still comes: one look per `sondeo` of the clock, once its alarm sleeps.
        #expect(await sondearQue(limite: .seconds(10)) { reloj.durmientes == 1 })
        reloj.avanzar(Difusor.Configuracion().sondeo)
        #expect(await sondearQue(limite: .seconds(10)) { difusiones.veces == 3 })
        await difusor.detener()
    }
}
