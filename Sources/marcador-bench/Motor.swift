import Almacen
import Foundation
import Motor
import Torneo

/// One full match at 0 ms per minute through the engine: its 92 transactions, outbox rows and
/// log line.
@MainActor
func partidoConMotor(_ queue: DatabaseQueue, _ partido: Partido) async throws {
    let modelo = PartidoEnVivo(
        partido: partido, msPorMinuto: 0,
        cronica: CronicaSQLite(queue, partidoId: partido.id, duracionFija: false),
        registro: RegistroSQLite(queue, eco: false))
    try await modelo.jugar(duracion: 90)
}

@MainActor
func medirMotor() async throws {
    let (ruta, queue) = try nuevaBase("motor")
    let (rutaC, _) = try nuevaBase("motor-c")
    let partido = try PartidosSQLite(queue).partido(id: 1)!
    let guion = BaseEnC.Guion(partido)
    let c = BaseEnC(rutaC)
    _ = ruta
    var nuestro: [Double] = []
    var base: [Double] = []
    for _ in 0..<5 {  // warm both
        try await partidoConMotor(queue, partido)
        c.partido(1, guion)
    }
    for _ in 0..<(rapido ? 10 : 40) {
        nuestro.append(try await cronometrar { try await partidoConMotor(queue, partido) } * 1000)
        base.append(await cronometrar { c.partido(1, guion) } * 1000)
    }
    medidas.append(
        Medida(
            nombre: "motor: partido de 90' a 0 ms (persistencia + avisos)", unidad: "ms",
            valores: nuestro, base: "mismas sentencias y transacciones, en C", valoresBase: base))
    informar("motor: 1.000 partidos seguidos…")
    var mil: [Double] = []
    var milBase: [Double] = []
    for ronda in 0..<(rapido ? 1 : 3) {
        let (_, queueMil) = try nuevaBase("mil-\(ronda)")
        let (rutaMilC, _) = try nuevaBase("mil-c-\(ronda)")
        let cMil = BaseEnC(rutaMilC)
        mil.append(
            try await cronometrar {
                for _ in 0..<1000 { try await partidoConMotor(queueMil, partido) }
            })
        milBase.append(await cronometrar { for _ in 0..<1000 { cMil.partido(1, guion) } })
    }
    medidas.append(
        Medida(
            nombre: "motor: 1.000 partidos seguidos", unidad: "s", valores: mil,
            base: "mismas sentencias, en C", valoresBase: milBase))
}

@MainActor
func medirReloj() async throws {
    let (_, queue) = try nuevaBase("reloj")
    let partido = try PartidosSQLite(queue).partido(id: 1)!
    var exceso: [Double] = []
    for _ in 0..<(rapido ? 1 : 3) {
        let t = try await cronometrar {
            let modelo = PartidoEnVivo(
                partido: partido, msPorMinuto: 50,
                cronica: CronicaSQLite(queue, partidoId: 1, duracionFija: false))
            try await modelo.jugar(duracion: 90)
        }
        exceso.append(t * 1000 - 4500)
    }
    medidas.append(
        Medida(
            nombre: "reloj: exceso sobre 4,5 s (90' a 50 ms)", unidad: "ms", valores: exceso,
            base: "ideal: 0 ms de exceso"))
}

/// For profiling one side at a time (`--solo motor-swift`, `--solo motor-c`): 2,000 matches.
@MainActor
func perfilarMotor(enC: Bool) async throws {
    let (ruta, queue) = try nuevaBase("perfil")
    let partido = try PartidosSQLite(queue).partido(id: 1)!
    let guion = BaseEnC.Guion(partido)
    let c = BaseEnC(ruta)
    let t = try await cronometrar {
        for _ in 0..<2000 {
            if enC { c.partido(1, guion) } else { try await partidoConMotor(queue, partido) }
        }
    }
    informar("\(enC ? "C" : "Swift"): \(t / 2000 * 1000) ms por partido")
}
