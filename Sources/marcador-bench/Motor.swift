import Almacen
import Foundation
import Motor
import Synchronization
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
    let sentencias = try await mismasSentencias(
        "motor", queue, marcador: { try await partidoConMotor(queue, partido) }, c,
        enC: { c.partido(1, guion) })
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
            valores: nuestro,
            base: sentencias.map { "las mismas \($0) sentencias, en C" }
                ?? "C con OTRAS sentencias",
            valoresBase: base))
    informar("motor: 1.000 partidos seguidos…")
    var mil: [Double] = []
    var milBase: [Double] = []
    // Ten rounds, each marcador then C on new databases of their own.
    for ronda in 0..<(rapido ? 1 : 10) {
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
            base: sentencias.map { "las mismas \($0) sentencias por partido, en C" }
                ?? "C con OTRAS sentencias", valoresBase: milBase))
}

/// A baseline must run exactly marcador's statements (issue 25: the engine's once wrote a new
/// `ultimo_aviso` every minute, firing a trigger 90 times where marcador fires it 6). The same
/// work is traced on each side and the two lists compared, whitespace aside. Returns how many
/// statements it ran, or `nil` (saying where the lists part, both written to files) if they
/// differ.
@MainActor
func mismasSentencias(
    _ nombre: String, _ queue: DatabaseQueue, marcador: () async throws -> Void, _ c: BaseEnC,
    enC: () -> Void
) async throws -> Int? {
    func normal(_ sql: String) -> String {
        sql.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }
    let trazadas = Mutex<[String]>([])
    try queue.read { db in db.trazar { sql in trazadas.withLock { $0.append(sql) } } }
    try await marcador()
    try queue.read { db in db.trazar(nil) }
    // Tracing is switched on and off inside two reads: the first one's COMMIT and the second
    // one's BEGIN are in the trace and are not the work's.
    let nuestras = trazadas.withLock { $0 }.dropFirst().dropLast().map(normal)
    let enC = c.sentencias(durante: enC).map(normal)
    guard nuestras != enC else { return nuestras.count }
    let primera =
        zip(nuestras, enC).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(nuestras.count, enC.count)
    let carpeta = FileManager.default.temporaryDirectory.path
    let rutas = [
        "\(carpeta)/\(nombre)-sentencias-marcador.txt", "\(carpeta)/\(nombre)-sentencias-c.txt",
    ]
    for (ruta, lista) in zip(rutas, [nuestras, enC]) {
        try? (lista.joined(separator: "\n") + "\n").write(
            toFile: ruta, atomically: true, encoding: .utf8)
    }
    informar(
        "\(nombre): la base en C NO corre las mismas sentencias (marcador \(nuestras.count), C "
            + "\(enC.count)); primera diferencia en la \(primera + 1):\n  marcador: "
            + (primera < nuestras.count ? nuestras[primera] : "—") + "\n  C:        "
            + (primera < enC.count ? enC[primera] : "—")
            + "\n  listas: \(rutas.joined(separator: ", "))")
    return nil
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

/// For profiling one side at a time (`--solo motor-swift`, `--solo motor-c`): 2,000 matches,
/// or `MARCADOR_BENCH_PARTIDOS` of them (a few hundred keep a callgrind run short).
@MainActor
func perfilarMotor(enC: Bool) async throws {
    let veces =
        ProcessInfo.processInfo.environment["MARCADOR_BENCH_PARTIDOS"].flatMap { Int($0) } ?? 2000
    let (ruta, queue) = try nuevaBase("perfil")
    let partido = try PartidosSQLite(queue).partido(id: 1)!
    let guion = BaseEnC.Guion(partido)
    let c = BaseEnC(ruta)
    let t = try await cronometrar {
        for _ in 0..<veces {
            if enC { c.partido(1, guion) } else { try await partidoConMotor(queue, partido) }
        }
    }
    informar("\(enC ? "C" : "Swift"): \(t / Double(veces) * 1000) ms por partido")
}
