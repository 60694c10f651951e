// ratio means something on a noisy machine. Prints one table and writes bench/results.json.
import Almacen
import Avisos
// `make bench`: marcador's figures, each against a baseline measured in the same run, so the
import CSQLite
import Foundation
import Motor
import Torneo

let rapido = CommandLine.arguments.contains("--rapido")
let carpeta = NSTemporaryDirectory() + "marcador-bench-" + String(getpid())
try FileManager.default.createDirectory(atPath: carpeta, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: carpeta) }
let binario = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent(
        "marcador"
    ).path
var medidas: [Medida] = []

func nuevaBase(_ nombre: String, permiso: Bool = true) throws -> (String, DatabaseQueue) {
    let ruta = carpeta + "/" + nombre + ".sqlite3"
    let queue = try Almacen.abrir(ruta: ruta)
    let repositorio = PartidosSQLite(queue)
    var ajustes = try repositorio.ajustes()
    ajustes.avisosPermitidos = permiso
    try repositorio.guardar(ajustes)
    return (ruta, queue)
}

func informar(_ texto: String) { FileHandle.standardError.write(Data((texto + "\n").utf8)) }

// MARK: - Engine

/// One full match at 0 ms with the real engine, chronicle (score, outbox) and log.
@MainActor
func partidoConMotor(_ queue: DatabaseQueue, _ partido: Partido) async throws {
    let modelo = PartidoEnVivo(
        partido: partido, msPorMinuto: 0,
        cronica: CronicaSQLite(queue, partidoId: partido.id, duracionFija: false),
        registro: RegistroSQLite(queue, eco: false))
    try await modelo.jugar(duracion: 90)
}

/// The same statements, in the same transactions, from a bare C-API loop.
func partidoEnC(_ c: CSQLiteMinimo, _ partido: Partido, _ n: Int) {
    let ahora = Date().timeIntervalSince1970
    c.exec("BEGIN IMMEDIATE")
    c.run(
        "INSERT INTO ejecucion (partido_id, codigo, duracion, duracion_fija, ms_por_minuto, estado, pid, pid_inicio, latido) VALUES (?, ?, 90, 0, 0, 'en_juego', 1, 1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
        [.i(partido.id), .t("c\(n)")])
    let id = Int(sqlite3_last_insert_rowid(c.db))
    c.exec("COMMIT")
    let eventos = partido.eventos(hasta: 90)
    var siguiente = 0
    var local = 0
    var visitante = 0
    for minuto in 1...90 {
        c.exec("BEGIN IMMEDIATE")
        var goles: [Gol] = []
        while siguiente < eventos.count, eventos[siguiente].minuto.minuto == minuto {
            if case .gol(let g) = eventos[siguiente] {
                goles.append(g)
                if g.lado == .local { local += 1 } else { visitante += 1 }
            }
            siguiente += 1
        }
        c.run(
            "UPDATE ejecucion SET minuto = ?, goles_local = ?, goles_visitante = ?, latido = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ? AND estado = 'en_juego' AND cancelacion_pedida IS NULL",
            [.i(minuto), .i(local), .i(visitante), .i(id)])
        if !goles.isEmpty {
            c.run("SELECT valor FROM ajuste WHERE clave = ?", [.t("avisos_permitidos")])
            let canales = c.run("SELECT count(*) FROM canal WHERE activo = 1")
            for g in goles {
                c.run(
                    "INSERT OR IGNORE INTO aviso (ejecucion_id, partido_id, identificador, titulo, cuerpo, minuto, anadido, jugador, equipo, marcador_local, marcador_visitante, adjunto, creado) VALUES (?, ?, ?, '¡Gol!', ?, ?, 0, ?, ?, ?, ?, NULL, ?)",
                    [
                        .i(id), .i(partido.id), .t("gol-\(g.minuto)-\(g.jugador.nombre)"),
                        .t(g.jugador.nombre),
                        .i(minuto), .t(g.jugador.nombre), .t(g.jugador.equipo.nombre), .i(local),
                        .i(visitante), .d(ahora),
                    ])
                let aviso = Int(sqlite3_last_insert_rowid(c.db))
                for _ in 0..<(canales.first ?? 1) {
                    c.run(
                        "INSERT INTO entrega (aviso_id, canal, estado, proximo_intento, ultimo_error) VALUES (?, 'registro', 'pendiente', ?, NULL)",
                        [.i(aviso), .d(ahora)])
                }
            }
        }
        c.run("SELECT mano_local, mano_visitante FROM ejecucion WHERE id = ?", [.i(id)])
        c.run(
            "UPDATE ejecucion SET ultimo_aviso = ? WHERE id = ?", [.t("minuto \(minuto)"), .i(id)])
        c.exec("COMMIT")
    }
    c.exec("BEGIN IMMEDIATE")
    c.run(
        "UPDATE ejecucion SET estado = 'terminado', minuto = 90, acabada = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
        [.i(id)])
    c.exec("COMMIT")
    c.exec("BEGIN IMMEDIATE")
    c.run(
        "INSERT INTO registro (partido_id, linea) VALUES (?, ?)",
        [.i(partido.id), .t("partido TERMINADO")])
    c.exec("COMMIT")
}

informar("motor: un partido…")
do {
    let (ruta, queue) = try nuevaBase("motor")
    let partido = try PartidosSQLite(queue).partido(id: 1)!
    let c = CSQLiteMinimo(ruta)
    var nuestro: [Double] = []
    var base: [Double] = []
    for n in 0..<(rapido ? 5 : 20) {
        nuestro.append(try await cronometrar { try await partidoConMotor(queue, partido) } * 1000)
        base.append(await cronometrar { partidoEnC(c, partido, n) } * 1000)
    }
    medidas.append(
        Medida(
            nombre: "motor: partido de 90' a 0 ms (persistencia + avisos)", unidad: "ms",
            valores: nuestro,
            base: "mismas sentencias, bucle en C", valoresBase: base))
    informar("motor: 1.000 partidos seguidos…")
    var mil: [Double] = []
    var milBase: [Double] = []
    for _ in 0..<(rapido ? 1 : 3) {
        let (rutaMil, queueMil) = try nuevaBase("mil-\(mil.count)")
        let cMil = CSQLiteMinimo(rutaMil)
        mil.append(
            try await cronometrar {
                for _ in 0..<1000 { try await partidoConMotor(queueMil, partido) }
            })
        milBase.append(await cronometrar { for n in 0..<1000 { partidoEnC(cMil, partido, n) } })
    }
    medidas.append(
        Medida(
            nombre: "motor: 1.000 partidos seguidos", unidad: "s", valores: mil, base: "bucle en C",
            valoresBase: milBase))
}

// MARK: - Clock

informar("reloj: partido de 90' a 50 ms por minuto…")
do {
    let (_, queue) = try nuevaBase("reloj")
    let partido = try PartidosSQLite(queue).partido(id: 1)!
    var exceso: [Double] = []
    var excesoIngenuo: [Double] = []
    for _ in 0..<(rapido ? 1 : 3) {
        let t = try await cronometrar {
            let modelo = PartidoEnVivo(
                partido: partido, msPorMinuto: 50,
                cronica: CronicaSQLite(queue, partidoId: 1, duracionFija: false))
            try await modelo.jugar(duracion: 90)
        }
        exceso.append(t * 1000 - 4500)
        let ingenuo = try await cronometrar {
            for _ in 1...90 { try await Task.sleep(for: .milliseconds(50)) }
        }
        excesoIngenuo.append(ingenuo * 1000 - 4500)
    }
    medidas.append(
        Medida(
            nombre: "reloj: exceso sobre 4,5 s (90' a 50 ms)", unidad: "ms", valores: exceso,
            base: "90 × Task.sleep(50 ms) sin plazos", valoresBase: excesoIngenuo))
}

// MARK: - Dispatch

struct CanalNulo: Notificador {
    let canal = "registro"
    func notificarGol(_ aviso: AvisoDeGol) async throws {}
}

func llenarCola(_ ruta: String, _ n: Int) {
    let c = CSQLiteMinimo(ruta)
    let ahora = Date().timeIntervalSince1970
    c.exec("BEGIN IMMEDIATE")
    c.run(
        "INSERT INTO ejecucion (partido_id, codigo, duracion, estado) VALUES (1, 'bench', 90, 'terminado')"
    )
    let ejecucion = Int(sqlite3_last_insert_rowid(c.db))
    for i in 0..<n {
        c.run(
            "INSERT INTO aviso (ejecucion_id, partido_id, identificador, titulo, cuerpo, minuto, jugador, equipo, marcador_local, marcador_visitante, creado) VALUES (?, 1, ?, '¡Gol!', ?, 10, ?, 'Rayo FC', 1, 0, ?)",
            [
                .i(ejecucion), .t("gol-10-J\(i)"), .t("J\(i) (Rayo FC), minuto 10"), .t("J\(i)"),
                .d(ahora),
            ])
        c.run(
            "INSERT INTO entrega (aviso_id, canal, proximo_intento) VALUES (?, 'registro', ?)",
            [.i(Int(sqlite3_last_insert_rowid(c.db))), .d(ahora)])
    }
    c.exec("COMMIT")
}

/// The claim and mark statements alone, in the same batches, from a C-API loop.
func drenarEnC(_ ruta: String) -> Int {
    let c = CSQLiteMinimo(ruta)
    var total = 0
    while true {
        let ahora = Date().timeIntervalSince1970
        c.exec("BEGIN IMMEDIATE")
        let ids = c.run(
            """
            UPDATE entrega SET arrendatario = ?1, arrendado_hasta = ?2, intentos = intentos + 1
            WHERE (aviso_id, canal) IN (
                SELECT e.aviso_id, e.canal FROM entrega e JOIN aviso a ON a.id = e.aviso_id
                WHERE e.estado = 'pendiente' AND e.proximo_intento <= ?3
                  AND (e.arrendado_hasta IS NULL OR e.arrendado_hasta < ?3)
                  AND (e.canal IN (SELECT value FROM json_each(?4)) OR (e.canal = 'terminal' AND a.ejecucion_id = ?5))
                ORDER BY e.aviso_id, e.canal LIMIT ?6)
            RETURNING aviso_id
            """, [.t("c"), .d(ahora + 60), .d(ahora), .t("[\"registro\"]"), .nulo, .i(64)])
        for id in ids {
            c.run("SELECT partido_id, identificador, cuerpo FROM aviso WHERE id = ?", [.i(id)])
        }
        c.exec("COMMIT")
        if ids.isEmpty { return total }
        c.exec("BEGIN IMMEDIATE")
        for id in ids {
            c.run(
                "UPDATE entrega SET estado = 'entregada', entregada_en = ?, ultimo_error = NULL, arrendatario = NULL, arrendado_hasta = NULL WHERE aviso_id = ? AND canal = ? AND arrendatario = ?",
                [.d(ahora), .i(id), .t("registro"), .t("c")])
        }
        c.exec("COMMIT")
        total += ids.count
    }
}

let filas = rapido ? 10_000 : 100_000
informar("despacho: \(filas) avisos pendientes a un canal nulo…")
do {
    var nuestro: [Double] = []
    var base: [Double] = []
    for ronda in 0..<(rapido ? 1 : 3) {
        let (ruta, queue) = try nuevaBase("cola-\(ronda)")
        llenarCola(ruta, filas)
        let despachador = Despachador(
            buzon: BuzonSQLite(queue), canales: [CanalNulo()],
            registro: RegistroSQLite(queue, eco: false),
            permitido: { true })
        var entregadas = 0
        let t = try await cronometrar {
            entregadas = try await despachador.enviarPendientes().entregadas
        }
        precondition(entregadas == filas, "el despachador entregó \(entregadas) de \(filas)")
        nuestro.append(Double(filas) / t)
        let (rutaBase, _) = try nuevaBase("cola-base-\(ronda)")
        llenarCola(rutaBase, filas)
        var hechas = 0
        let tb = await cronometrar { hechas = drenarEnC(rutaBase) }
        precondition(hechas == filas)
        base.append(Double(filas) / tb)
    }
    medidas.append(
        Medida(
            nombre: "despacho: \(filas) avisos a un canal nulo", unidad: "filas/s",
            valores: nuestro,
            base: "reclamar + marcar en C", valoresBase: base, mayorEsMejor: true))
}

// MARK: - CLI

informar("CLI: marcador partidos con 1.000 partidos…")
do {
    let (ruta, _) = try nuevaBase("cli")
    let c = CSQLiteMinimo(ruta)
    c.exec("BEGIN IMMEDIATE")
    for i in 0..<1000 {
        c.run("INSERT OR IGNORE INTO equipo (nombre) VALUES (?)", [.t("Local \(i)")])
        c.run("INSERT OR IGNORE INTO equipo (nombre) VALUES (?)", [.t("Visitante \(i)")])
        c.run(
            "INSERT INTO partido (local_id, visitante_id, competicion) VALUES ((SELECT id FROM equipo WHERE nombre = ?), (SELECT id FROM equipo WHERE nombre = ?), 'Banco')",
            [.t("Local \(i)"), .t("Visitante \(i)")])
    }
    c.exec("COMMIT")
    let consulta = """
        SELECT p.id, l.nombre, v.nombre, p.competicion, p.prorroga, e.estado, e.minuto, e.goles_local,
            e.goles_visitante, e.mano_local, e.mano_visitante, e.duracion, e.pid
        FROM partido p JOIN equipo l ON l.id = p.local_id JOIN equipo v ON v.id = p.visitante_id
        LEFT JOIN ejecucion e ON e.id = (SELECT max(id) FROM ejecucion WHERE partido_id = p.id)
        ORDER BY p.id
        """
    var nuestro: [Double] = []
    var base: [Double] = []
    for _ in 0..<(rapido ? 3 : 10) {
        nuestro.append(lanzar(binario, ["--db", ruta, "partidos"]).segundos * 1000)
        base.append(lanzar("sqlite3", [ruta, consulta]).segundos * 1000)
    }
    medidas.append(
        Medida(
            nombre: "CLI: marcador partidos (1.000 partidos)", unidad: "ms", valores: nuestro,
            base: "sqlite3 con la consulta equivalente", valoresBase: base))
}

// MARK: - Memory

informar("memoria: jugar y avisos vigilar…")
do {
    let (ruta, _) = try nuevaBase("memoria")
    var jugar: [Double] = []
    var base: [Double] = []
    for _ in 0..<3 {
        jugar.append(
            Double(memoriaPico(binario, ["--db", ruta, "jugar", "1", "--ms-por-minuto", "0"]))
                / 1024)
        base.append(Double(memoriaPico("sqlite3", [ruta, "SELECT count(*) FROM partido"])) / 1024)
    }
    medidas.append(
        Medida(
            nombre: "memoria: pico de jugar (90' a 0 ms)", unidad: "MB", valores: jugar,
            base: "sqlite3 con una consulta", valoresBase: base))
    let (rutaCola, _) = try nuevaBase("memoria-cola")
    llenarCola(rutaCola, filas)
    let vigilar = memoriaPico(
        binario, ["--db", rutaCola, "avisos", "vigilar"], senalTras: rapido ? 1 : 3)
    medidas.append(
        Medida(
            nombre: "memoria: pico de avisos vigilar (\(filas) pendientes)", unidad: "MB",
            valores: [Double(vigilar) / 1024], base: "sqlite3 con una consulta", valoresBase: base))
}

// MARK: - Report

func formato(_ x: Double) -> String {
    if x.isNaN { return "-" }
    if abs(x) >= 1000 { return String(format: "%.0f", x) }
    if abs(x) >= 10 { return String(format: "%.1f", x) }
    return String(format: "%.2f", x)
}

var lineas = [["medida", "unidad", "mediana", "mín", "máx", "base (mediana)", "razón"]]
for m in medidas {
    lineas.append([
        m.nombre, m.unidad, formato(m.mediana), formato(m.minimo), formato(m.maximo),
        m.medianaBase.map { formato($0) + " (" + (m.base ?? "") + ")" } ?? "-",
        m.ratio.map { String(format: "%.2f×", $0) } ?? "-",
    ])
}
let anchos = (0..<lineas[0].count).map { i in lineas.map { $0[i].count }.max()! }
for fila in lineas {
    print(
        fila.enumerated().map { $1 + String(repeating: " ", count: anchos[$0] - $1.count) }.joined(
            separator: "  "))
}

func leer(_ ruta: String) -> String { (try? String(contentsOfFile: ruta, encoding: .utf8)) ?? "" }
let cpu =
    leer("/proc/cpuinfo").split(separator: "\n").first { $0.hasPrefix("model name") }
    .map {
        String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(
            in: .whitespaces)
    } ?? "?"
struct Informe: Encodable {
    var fecha: String
    var maquina: [String: String]
    var medidas: [Medida]
}
let informe = Informe(
    fecha: ISO8601DateFormatter().string(from: Date()),
    maquina: [
        "cpu": cpu, "nucleos": String(ProcessInfo.processInfo.activeProcessorCount),
        "memoria_GiB": String(ProcessInfo.processInfo.physicalMemory / 1_073_741_824),
        "kernel": ProcessInfo.processInfo.operatingSystemVersionString,
        "sqlite": String(cString: sqlite3_libversion()), "modo": rapido ? "rápido" : "completo",
    ],
    medidas: medidas)
let codificador = JSONEncoder()
codificador.outputFormatting = [.prettyPrinted, .sortedKeys]
let salida =
    CommandLine.arguments.drop { $0 != "--salida" }.dropFirst().first ?? "bench/results.json"
try codificador.encode(informe).write(to: URL(fileURLWithPath: salida))
informar("escrito \(salida)")
