// `make torture`: rounds of a match played while its player and three dispatchers are killed
// with SIGKILL at random moments, a webhook receiver on 127.0.0.1 recording every delivery.
// After each round the match is resumed and the outbox drained; then every scripted goal must
// be in the score exactly once, every notice must have reached the receiver (a repeat must
// carry the same Idempotency-Key), each run's notices must have first arrived in goal order
// and `PRAGMA integrity_check` must say ok.
//
// `--fallos P` injects faults (named as such): a trigger in each round's database makes P % of
// the outcome writes (a delivery leaving `pendiente`) fail like a full disk, in every process.
//
// Usage: marcador-tortura [--rondas N] [--semilla S] [--fallos P]
import Almacen
import ApoyoDePruebas
import Foundation
import Torneo

/// Progress lines go out at once, even into a pipe.
func decir(_ texto: String) {
    FileHandle.standardOutput.write(Data((texto + "\n").utf8))
}

/// SplitMix64: a seeded generator, so a failing round can be replayed.
struct Semilla: RandomNumberGenerator {
    var estado: UInt64
    mutating func next() -> UInt64 {
        estado &+= 0x9E37_79B9_7F4A_7C15
        var z = estado
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func opcion(_ nombre: String) -> String? {
    let args = CommandLine.arguments
    guard let i = args.firstIndex(of: nombre), i + 1 < args.count else { return nil }
    return args[i + 1]
}

let rondas = Int(opcion("--rondas") ?? "") ?? 50
let fallos = min(max(Int(opcion("--fallos") ?? "") ?? 0, 0), 100)
let semilla = UInt64(opcion("--semilla") ?? "") ?? UInt64(Date().timeIntervalSince1970 * 1000)
var azar = Semilla(estado: semilla)
let binario = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("marcador").path
decir(
    "tortura: \(rondas) rondas, semilla \(semilla)"
        + (fallos > 0
            ? ", \(fallos) % de las escrituras de resultados fallan (avería inyectada)" : ""))

let carpeta = NSTemporaryDirectory() + "marcador-tortura-\(getpid())"
try FileManager.default.createDirectory(atPath: carpeta, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: carpeta) }
let receptor = try ReceptorHTTP()
defer { receptor.cerrar() }

func proceso(_ argumentos: [String]) throws -> Process {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: binario)
    p.arguments = argumentos
    p.standardInput = FileHandle.nullDevice
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    return p
}

@discardableResult
func esperar(_ argumentos: [String]) throws -> Int32 {
    let p = try proceso(argumentos)
    p.waitUntilExit()
    return p.terminationStatus
}

var muertes = 0
var avisosEsperados = 0
var repeticiones = 0
var perdidas = 0
var fallosDeRonda: [String] = []
var desordenados = 0

for ronda in 1...rondas {
    let db = carpeta + "/ronda-\(ronda).sqlite3"
    let ruta = "/ronda-\(ronda)"
    try esperar(["--db", db, "avisos", "activar"])
    try esperar([
        "--db", db, "avisos", "canales", "añadir", "webhook", "--url", receptor.url(ruta),
        "--limite", "2",
    ])
    if fallos > 0 {
        try Almacen.abrir(ruta: db).write { db in
            try db.executeScript(
                """
                CREATE TRIGGER averia_de_tortura BEFORE UPDATE OF estado ON entrega
                WHEN NEW.estado <> 'pendiente' AND abs(random() % 100) < \(fallos)
                BEGIN SELECT RAISE(ABORT, 'avería inyectada por la tortura'); END;
                """)
        }
    }
    let ms = Int.random(in: 2...8, using: &azar)
    let jugador = try proceso(["--db", db, "jugar", "1", "--ms-por-minuto", "\(ms)"])
    let despachadores = try (0..<3).map { _ in
        try proceso(["--db", db, "avisos", "vigilar", "--arriendo", "1"])
    }
    // Kill plan: the player within its match, each dispatcher within the first second.
    var plan: [(Double, Process)] = []
    if Double.random(in: 0..<1, using: &azar) < 0.8 {
        plan.append((Double.random(in: 0..<(Double(ms) * 0.09), using: &azar), jugador))
    }
    for d in despachadores where Double.random(in: 0..<1, using: &azar) < 0.6 {
        plan.append((Double.random(in: 0..<1.0, using: &azar), d))
    }
    let inicio = Date()
    for (cuando, victima) in plan.sorted(by: { $0.0 < $1.0 }) {
        let falta = cuando - Date().timeIntervalSince(inicio)
        if falta > 0 { usleep(useconds_t(falta * 1_000_000)) }
        if victima.isRunning {
            kill(victima.processIdentifier, SIGKILL)
            muertes += 1
        }
    }
    jugador.waitUntilExit()
    usleep(200_000)
    for d in despachadores where d.isRunning {
        kill(d.processIdentifier, SIGKILL)
        muertes += 1
    }
    for d in despachadores { d.waitUntilExit() }

    // Resume what was interrupted, then drain once the dead dispatchers' leases expired.
    let queue = try Almacen.abrir(ruta: db)
    let ultima = try EjecucionesSQLite(queue).ultima(partido: 1)
    switch ultima?.estadoDelPartido {
    case .interrumpido?:
        try esperar(["--db", db, "jugar", "1", "--reanudar", "--ms-por-minuto", "0"])
    case nil, .sinEmpezar?: try esperar(["--db", db, "jugar", "1", "--ms-por-minuto", "0"])
    default: break
    }
    // The dispatcher inside `jugar` leases for 60 s: a player killed between delivering and
    // recording leaves its notices waiting for that lease, so the drain may take that long.
    let limiteDelDrenaje = Date().addingTimeInterval(75)
    while Date() < limiteDelDrenaje {
        try esperar(["--db", db, "avisos", "enviar", "--arriendo", "1"])
        let pendientes = try queue.read { db in
            try db.scalarInt(
                "SELECT count(*) FROM entrega WHERE canal = 'webhook' AND estado = 'pendiente'")
                ?? 0
        }
        if pendientes == 0 { break }
        usleep(1_100_000)
    }

    // Checks.
    let final = try require(try PartidosSQLite(queue).resumenes().first { $0.id == 1 })
    if final.estado != .terminado || final.goles != Marcador(local: 3, visitante: 2) {
        fallosDeRonda.append(
            "ronda \(ronda): el partido acabó \(final.estado.texto) con \(final.goles)")
    }
    // Each run's keys in goal order (notice ids grow with the minute).
    let porEjecucion = try queue.read { db in
        try db.rows(
            "SELECT partido_id, ejecucion_id, identificador FROM aviso ORDER BY ejecucion_id, id"
        ) { fila in
            (
                fila.int(1),
                AvisoDeGol(
                    identificador: fila.string(2), titulo: "", cuerpo: "",
                    partidoId: fila.int(0), minuto: MinutoDeJuego(1), jugador: "", equipo: "",
                    marcador: .cero, ejecucion: fila.int(1)
                ).claveDeIdempotencia
            )
        }
    }
    let esperadas = porEjecucion.map(\.1)
    let recibidas = receptor.peticiones.filter { $0.ruta == ruta }.compactMap {
        $0.cabeceras["idempotency-key"]
    }
    // Order: within a run, each notice first arrived after the one before it.
    var primeraLlegada: [String: Int] = [:]
    for (indice, clave) in recibidas.enumerated() where primeraLlegada[clave] == nil {
        primeraLlegada[clave] = indice
    }
    let ejecuciones = Dictionary(grouping: porEjecucion, by: \.0).values
    for claves in ejecuciones {
        let llegadas = claves.compactMap { primeraLlegada[$0.1] }
        let invertidos = zip(llegadas, llegadas.dropFirst()).filter { $0 > $1 }.count
        if invertidos > 0 {
            desordenados += invertidos
            fallosDeRonda.append(
                "ronda \(ronda): \(invertidos) avisos llegaron antes que el anterior")
        }
    }
    avisosEsperados += esperadas.count
    repeticiones += recibidas.count - Set(recibidas).count
    let faltan = Set(esperadas).subtracting(recibidas)
    perdidas += faltan.count
    if !faltan.isEmpty { fallosDeRonda.append("ronda \(ronda): no llegaron \(faltan.sorted())") }
    let extranas = Set(recibidas).subtracting(esperadas)
    if !extranas.isEmpty {
        fallosDeRonda.append("ronda \(ronda): llegaron claves desconocidas \(extranas)")
    }
    let integridad = try queue.read { db in try db.scalarString("PRAGMA integrity_check") }
    if integridad != "ok" {
        fallosDeRonda.append("ronda \(ronda): integrity_check dice \(integridad ?? "nada")")
    }
    decir(
        "ronda \(ronda): \(esperadas.count) avisos, \(recibidas.count) entregas al receptor, \(muertes) SIGKILL hasta ahora"
    )
}

decir(
    "\ntotales: rondas \(rondas), SIGKILL \(muertes), avisos \(avisosEsperados), repetidos \(repeticiones), "
        + "perdidos \(perdidas), fuera de orden \(desordenados), semilla \(semilla)")
for fallo in fallosDeRonda { decir("FALLO: \(fallo)") }
try? FileManager.default.removeItem(atPath: carpeta)
exit(fallosDeRonda.isEmpty && perdidas == 0 ? 0 : 1)

func require<T>(_ valor: T?) throws -> T {
    guard let valor else { throw CocoaError(.fileReadUnknown) }
    return valor
}
