import Almacen
import Avisos
import CSQLite
import Foundation
import Torneo

/// A channel that accepts everything at once: the dispatcher's own cost, nothing else.
struct CanalNulo: Notificador {
    let canal = "registro"
    /// It answers at once, as the log channel does.
    let esInmediato = true
    func notificarGol(_ aviso: AvisoDeGol) async throws {}
    func notificarGoles(_ avisos: [AvisoDeGol]) async throws -> [FalloDeEntrega?] {
        Array(repeating: nil, count: avisos.count)
    }
}

/// `n` pending notices on `registro`, as `ejecuciones` runs of five goals (how matches make them).
func llenarCola(_ ruta: String, _ n: Int) {
    let c = CSQLiteMinimo(ruta)
    let ahora = Date().timeIntervalSince1970
    c.exec("BEGIN IMMEDIATE")
    var ejecucion = 0
    for i in 0..<n {
        if i % 5 == 0 {
            c.run(
                "INSERT INTO ejecucion (partido_id, codigo, duracion, estado) VALUES (1, 'bench', 90, 'terminado')"
            )
            ejecucion = Int(sqlite3_last_insert_rowid(c.db))
        }
        c.run(
            "INSERT INTO aviso (ejecucion_id, partido_id, identificador, titulo, cuerpo, minuto, jugador, equipo, marcador_local, marcador_visitante, creado) VALUES (?, 1, ?, '¡Gol!', ?, 10, ?, 'Rayo FC', 1, 0, ?)",
            [
                .i(ejecucion), .t("gol-10-J\(i)"), .t("J\(i) (Rayo FC), minuto 10"), .t("J\(i)"),
                .d(ahora),
            ])
        c.run(
            "INSERT INTO entrega (aviso_id, canal, ejecucion_id, proximo_intento) VALUES (?, 'registro', ?, ?)",
            [.i(Int(sqlite3_last_insert_rowid(c.db))), .i(ejecucion), .d(ahora)])
    }
    c.exec("COMMIT")
}

@MainActor
func medirDespacho() async throws {
    let filas = rapido ? 20_000 : 100_000
    let lote = Despachador.Configuracion().lote
    func despachador(_ queue: DatabaseQueue) -> Despachador {
        Despachador(
            buzon: BuzonSQLite(queue), canales: [CanalNulo()],
            registro: RegistroSQLite(queue, eco: false), permitido: { true })
    }
    // Three batches on each side, traced: the baseline's statements must be marcador's.
    let (rutaTraza, queueTraza) = try nuevaBase("cola-traza")
    llenarCola(rutaTraza, 3 * lote)
    let (rutaTrazaC, _) = try nuevaBase("cola-traza-c")
    llenarCola(rutaTrazaC, 3 * lote)
    let cTraza = BaseEnC(rutaTrazaC)
    let sentencias = try await mismasSentencias(
        "despacho", queueTraza,
        marcador: { _ = try await despachador(queueTraza).enviarPendientes() }, cTraza,
        enC: { _ = cTraza.despachar("registro", lote: lote) })
    _ = rutaTraza

    informar("despacho: \(filas) avisos pendientes a un canal nulo…")
    var nuestro: [Double] = []
    var base: [Double] = []
    var optimo: [Double] = []
    // Ten rounds, each on new databases, the order of the three sides turning every round
    // (a fixed order would hand one side the warmer page cache).
    for ronda in 0..<(rapido ? 1 : 10) {
        var lados: [@MainActor () async throws -> Void] = [
            {
                let (ruta, queue) = try nuevaBase("cola-\(ronda)")
                llenarCola(ruta, filas)
                let d = despachador(queue)
                var entregadas = 0
                let t = try await cronometrar {
                    entregadas = try await d.enviarPendientes().entregadas
                }
                precondition(
                    entregadas == filas, "el despachador entregó \(entregadas) de \(filas)")
                nuestro.append(Double(filas) / t)
            },
            {
                let (rutaBase, _) = try nuevaBase("cola-base-\(ronda)")
                llenarCola(rutaBase, filas)
                let c = BaseEnC(rutaBase)
                var hechas = 0
                let tb = await cronometrar { hechas = c.despachar("registro", lote: lote) }
                precondition(hechas == filas, "la base en C entregó \(hechas)")
                base.append(Double(filas) / tb)
            },
            {
                let (rutaOptima, _) = try nuevaBase("cola-optima-\(ronda)")
                llenarCola(rutaOptima, filas)
                let o = BaseEnC(rutaOptima)
                var hechas = 0
                let to = await cronometrar { hechas = o.despacharOptimo("registro", lote: lote) }
                precondition(hechas == filas)
                optimo.append(Double(filas) / to)
            },
        ]
        lados.rotate(ronda % 3)
        for lado in lados { try await lado() }
    }
    let etiqueta =
        sentencias.map { "las mismas \($0) sentencias por 3 lotes, en C" }
        ?? "C con OTRAS sentencias"
    medidas.append(
        Medida(
            nombre: "despacho: \(filas) avisos a un canal nulo", unidad: "filas/s",
            valores: nuestro, base: etiqueta, valoresBase: base, mayorEsMejor: true))
    medidas.append(
        Medida(
            nombre: "despacho: ídem, frente al mejor diseño", unidad: "filas/s", valores: nuestro,
            base: "reclamar, leer y marcar sin orden por partido, en C", valoresBase: optimo,
            mayorEsMejor: true))

    informar("despacho: marcador avisos enviar al canal registro…")
    var real: [Double] = []
    var realBase: [Double] = []
    let nulo = open("/dev/null", O_WRONLY)
    defer { close(nulo) }
    for ronda in 0..<(rapido ? 1 : 10) {
        var lados: [@MainActor () async throws -> Void] = [
            {
                let (ruta, _) = try nuevaBase("enviar-\(ronda)")
                llenarCola(ruta, filas)
                let t = lanzar(binario, ["--db", ruta, "avisos", "enviar"]).segundos
                let entregadas = try DatabaseQueue(Database(path: ruta)).read {
                    try $0.scalarInt("SELECT count(*) FROM entrega WHERE estado = 'entregada'") ?? 0
                }
                precondition(entregadas == filas, "avisos enviar entregó \(entregadas) de \(filas)")
                real.append(Double(filas) / t)
            },
            {
                let (rutaBase, _) = try nuevaBase("enviar-base-\(ronda)")
                llenarCola(rutaBase, filas)
                let c = BaseEnC(rutaBase)
                var hechas = 0
                let tb = await cronometrar {
                    hechas = c.despacharRegistro("registro", lote: lote, fd: nulo)
                }
                precondition(hechas == filas)
                realBase.append(Double(filas) / tb)
            },
        ]
        lados.rotate(ronda % 2)
        for lado in lados { try await lado() }
    }
    medidas.append(
        Medida(
            nombre: "despacho: marcador avisos enviar, \(filas) al canal registro",
            unidad: "filas/s",
            valores: real, base: "mismas sentencias y líneas del registro, en C",
            valoresBase: realBase, mayorEsMejor: true))
}

extension Array {
    /// The first `n` elements moved to the end.
    mutating func rotate(_ n: Int) {
        guard !isEmpty else { return }
        let k = n % count
        self = Array(self[k...] + self[..<k])
    }
}

/// For profiling one side at a time (`--solo despacho-swift`, `--solo despacho-c`).
@MainActor
func perfilarDespacho(enC: Bool) async throws {
    let filas = 100_000
    let (ruta, queue) = try nuevaBase("perfil-cola")
    llenarCola(ruta, filas)
    let t: Double
    if enC {
        let c = BaseEnC(ruta)
        t = await cronometrar {
            _ = c.despachar("registro", lote: Despachador.Configuracion().lote)
        }
    } else {
        let despachador = Despachador(
            buzon: BuzonSQLite(queue), canales: [CanalNulo()],
            registro: RegistroSQLite(queue, eco: false), permitido: { true })
        t = try await cronometrar { _ = try await despachador.enviarPendientes() }
    }
    informar("\(enC ? "C" : "Swift"): \(Int(Double(filas) / t)) filas/s")
}
