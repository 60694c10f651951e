import Almacen
import Aplicacion
import ApoyoDePruebas
import Avisos
import Foundation
import Persistencia
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A football-data v4 list of `n` matches in play, the first `conGol` of them with one goal
/// more than the others.
func listaDeFootballData(_ n: Int, conGol: Int = 0, segundoGol: Bool = false) -> Data {
    let partidos: [[String: Any]] = (0..<n).map { i in
        let goles = i < conGol ? (segundoGol ? 2 : 1) : 0
        return [
            "id": 10_000 + i, "utcDate": "2026-12-01T20:00:00Z", "status": "IN_PLAY",
            "minute": 30, "matchday": 1, "stage": "REGULAR_SEASON",
            "homeTeam": ["id": 2 * i, "name": "Local \(i)"],
            "awayTeam": ["id": 2 * i + 1, "name": "Visitante \(i)"],
            "score": ["duration": "REGULAR", "fullTime": ["home": goles, "away": 0]],
            "goals": (0..<goles).map { g in
                [
                    "minute": 10 + g, "type": "REGULAR", "team": ["id": 2 * i],
                    "scorer": ["name": "Jugador \(i)-\(g)"],
                ] as [String: Any]
            },
        ]
    }
    return try! JSONSerialization.data(
        withJSONObject: ["competition": ["name": "Banco en directo"], "matches": partidos])
}

/// CPU seconds this process has used.
func cpuDelProceso() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// directo.md's figures: a feed change to a delivered notice with `--cada 1` (the real
/// binary, a loopback provider and webhook), and the CPU a poll costs with 1,000 followed
/// matches, unchanged and per changed match (in process, on a SQLite file).
@MainActor
func medirDirecto() async throws {
    informar("directo: del cambio en la fuente al aviso entregado, cada 1 s…")
    let proveedor = try ReceptorHTTP()
    let webhook = try ReceptorHTTP()
    defer {
        proveedor.cerrar()
        webhook.cerrar()
    }
    let (ruta, _) = try nuevaBase("directo")
    _ = lanzar(binario, ["--db", ruta, "avisos", "canales", "quitar", "registro"])
    _ = lanzar(
        binario, ["--db", ruta, "avisos", "canales", "añadir", "webhook", "--url", webhook.url])
    _ = lanzar(
        binario,
        [
            "--db", ruta, "fuentes", "añadir", "fd", "--url", proveedor.url("/v4/matches"),
            "--formato",
            "football-data", "--cada", "1",
        ])
    proveedor.fijar(.init(codigo: 200, cuerpo: listaDeFootballData(1)))
    let proceso = Process()
    proceso.executableURL = URL(fileURLWithPath: binario)
    proceso.arguments = ["--db", ruta, "directo"]
    proceso.standardOutput = FileHandle.nullDevice
    proceso.standardError = FileHandle.nullDevice
    try proceso.run()
    defer {
        kill(proceso.processIdentifier, SIGTERM)
        proceso.waitUntilExit()
    }
    // The first answer is the starting point; then each change is one goal more.
    while proveedor.peticiones.count < 2 { try await Task.sleep(for: .milliseconds(10)) }
    var latencias: [Double] = []
    var azar = SemillaDelBanco(estado: 2026)
    let cambios = rapido ? 6 : 20
    for goles in 1...cambios {
        let antes = webhook.peticiones.count
        var cuerpo = listaDeFootballData(1)
        // Goals one at a time, each a new scorer.
        let lista = try JSONSerialization.jsonObject(with: cuerpo) as! [String: Any]
        var partidos = lista["matches"] as! [[String: Any]]
        partidos[0]["score"] = ["duration": "REGULAR", "fullTime": ["home": goles, "away": 0]]
        partidos[0]["goals"] = (0..<goles).map { g in
            ["minute": 1 + g, "type": "REGULAR", "team": ["id": 0], "scorer": ["name": "J\(g)"]]
                as [String: Any]
        }
        cuerpo = try JSONSerialization.data(withJSONObject: ["matches": partidos])
        // The change comes at any moment of the poll interval, as a real one does.
        try await Task.sleep(for: .milliseconds(Int.random(in: 0..<1_000, using: &azar)))
        let inicio = Date()
        proveedor.fijar(.init(codigo: 200, cuerpo: cuerpo))
        while webhook.peticiones.count == antes { try await Task.sleep(for: .milliseconds(1)) }
        latencias.append(webhook.peticiones.last!.llegada.timeIntervalSince(inicio) * 1000)
    }
    medidas.append(
        Medida(
            nombre: "directo: cambio en la fuente → aviso entregado (cada 1 s)", unidad: "ms",
            valores: latencias))

    informar("directo: CPU por sondeo con 1.000 partidos…")
    let (otra, queue) = try nuevaBase("directo-cpu")
    let nucleo = Nucleo(tienda: TiendaSQLite(queue), entorno: [:])
    _ = try nucleo.anadirFuente(
        nombre: "mil", url: "http://127.0.0.1:9/", formato: "football-data", clave: nil, cada: 1)
    _ = otra
    let respuestas = Mutex<[UInt8]>([])
    let sondeador = Sondeador(
        nucleo: nucleo, registro: nucleo.registro(eco: false),
        cliente: { _ in
            RespuestaHTTP(codigo: 200, cabeceras: [:], cuerpo: respuestas.withLock { $0 })
        })
    func sondear() async throws -> Double {
        try queue.write { db in try db.execute("UPDATE fuente SET proximo_sondeo = 0") }
        let antes = cpuDelProceso()
        let resultados = try await sondeador.sondearDebidas()
        precondition(resultados.count == 1)
        return cpuDelProceso() - antes
    }
    func servir(_ datos: Data) { respuestas.withLock { $0 = Array(datos) } }
    servir(listaDeFootballData(1_000))
    _ = try await sondear()  // the first look: 1,000 matches stored
    var sinCambios: [Double] = []
    var conCambios: [Double] = []
    for ronda in 0..<(rapido ? 3 : 10) {
        servir(listaDeFootballData(1_000))
        sinCambios.append(try await sondear() * 1000)
        // A hundred matches change (a goal each, annulled by the poll after).
        servir(listaDeFootballData(1_000, conGol: 100, segundoGol: ronda % 2 == 1))
        conCambios.append(try await sondear() * 1000)
        servir(listaDeFootballData(1_000))
        _ = try await sondear()
    }
    medidas.append(
        Medida(
            nombre: "directo: CPU de un sondeo de 1.000 partidos sin cambios", unidad: "ms",
            valores: sinCambios))
    let porPartido = zip(conCambios, sinCambios).map { ($0 - $1) / 100 }
    medidas.append(
        Medida(
            nombre: "directo: CPU por partido que cambia (100 de 1.000)", unidad: "ms",
            valores: porPartido))
}

/// SplitMix64, for the moments the changes come at: the same run every time.
struct SemillaDelBanco: RandomNumberGenerator {
    var estado: UInt64
    mutating func next() -> UInt64 {
        estado &+= 0x9E37_79B9_7F4A_7C15
        var z = estado
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
