import Almacen
import AlmacenPostgreSQL
import ApoyoDePruebas
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// architecture.md, one live run per match on every path: 2, 3 and 5 starts of one match at the
/// same instant from the terminal and the page in every mix (CLI×CLI, API×API, CLI×API), 30
/// rounds each, on SQLite and on a real PostgreSQL. In every round that really raced exactly
/// one run ends `terminado` and the others `cancelado`; over the whole matrix each goal reaches
/// each channel (`registro` and a loopback webhook) exactly once.
///
/// Each round plays a match of its own (imported for the matrix), a few rounds at a time.
/// The two stores' matrices run side by side (each has its own database, server and
/// receiver): run one after the other they were the longest chain of the whole suite.
@Suite("Una ejecución viva por partido (binario)")
struct CarrerasE2ETests {
    enum Mezcla: String, CaseIterable, Sendable {
        case terminales = "CLI×CLI"
        case paginas = "API×API"
        case mezcladas = "CLI×API"

        /// How many of `n` contenders start from a page (the rest from a terminal).
        func desdeLaPagina(_ n: Int) -> Int {
            switch self {
            case .terminales: 0
            case .paginas: n
            case .mezcladas: n / 2
            }
        }
    }

    static let rondas = 30
    /// Rounds in flight at once, per store.
    static let enVuelo = 4
    static let tamanos = [2, 3, 5]
    /// Milliseconds a minute: a 60-minute run lasts 240 ms, far longer than the contenders
    /// take to start, so nearly every round races.
    static let ms = 4

    /// The matrix's matches: one per round, each with a goal in each of its first minutes (so
    /// runs queue notices while they race), under distinct teams.
    static func fichero(partidos: Int) -> String {
        let lista = (1...partidos).map { n in
            """
            {"round": "Ronda \(n)", "date": "2026-01-01", "team1": "Local \(n)",
             "team2": "Visitante \(n)", "score": {"ft": [2, 1]},
             "goals1": [{"name": "Ana", "minute": 1}, {"name": "Luis", "minute": 3}],
             "goals2": [{"name": "Iván", "minute": 2}]}
            """
        }
        return "{\"name\": \"Carreras\", \"matches\": [\(lista.joined(separator: ",\n"))]}"
    }

    @Test func enSQLite() async throws {
        try await matriz(Escenario(), nombre: "SQLite")
    }

    @Test(
        .enabled(if: ServidorPostgres.falta == nil, "PostgreSQL: \(ServidorPostgres.falta ?? "")"))
    func enPostgreSQL() async throws {
        try await matriz(
            Escenario(db: try await ServidorPostgres.compartido().baseNueva()), nombre: "PostgreSQL"
        )
    }

    func matriz(_ escenario: Escenario, nombre: String) async throws {
        let receptor = try ReceptorHTTP()
        defer { receptor.cerrar() }
        let total = Mezcla.allCases.count * Self.tamanos.count * Self.rondas
        let ruta = escenario.carpeta + "/carreras.json"
        try Self.fichero(partidos: total).write(toFile: ruta, atomically: true, encoding: .utf8)
        #expect(try await escenario.marcador("importar", ruta).codigo == 0)
        #expect(try await escenario.marcador("avisos", "activar").codigo == 0)
        _ = try await escenario.marcador(
            "avisos", "canales", "añadir", "webhook", "--url", receptor.url)
        let primero = try #require(
            try await escenario.partidos().first { $0.local == "Local 1" }?.id)
        let web = try await ServidorDePrueba(escenario: escenario)
        let pista = Pista(
            db: escenario.db, lector: try LectorDeLaTienda(db: escenario.db),
            carpeta: escenario.carpeta, puerto: web.puerto, clave: web.clave)

        // Every round of the matrix, each on a match of its own; `enVuelo` of them at a time,
        // the next one starting as soon as any ends (batches waited for their slowest).
        let celdas = Mezcla.allCases.flatMap { mezcla in Self.tamanos.map { (mezcla, $0) } }
        let rondas = celdas.indices.flatMap { celda in
            (0..<Self.rondas).map { (celda: celda, partido: primero + celda * Self.rondas + $0) }
        }
        var carreras = celdas.map { Carreras("\(nombre) \($0.0.rawValue) ×\($0.1)") }
        try await withThrowingTaskGroup(of: (Int, Bool).self) { grupo in
            var siguientes = rondas.makeIterator()
            func lanzar() {
                guard let (celda, partido) = siguientes.next() else { return }
                let (mezcla, tamano) = celdas[celda]
                grupo.addTask {
                    let compitio = try await Self.ronda(
                        partido, mezcla: mezcla, tamano: tamano, en: pista)
                    return (celda, compitio)
                }
            }
            for _ in 0..<Self.enVuelo { lanzar() }
            while let (celda, compitio) = try await grupo.next() {
                carreras[celda].anotar(compitio: compitio)
                lanzar()
            }
        }
        for celda in carreras { celda.comprobar(minimo: Self.rondas * 2 / 3) }

        // Everything left in the queue goes out now; then every goal reached every channel once.
        #expect(try await escenario.marcador("avisos", "enviar").codigo == 0)
        let avisos = try await escenario.consulta(
            "SELECT count(*) FROM aviso WHERE partido_id >= \(primero)")
        let noEntregadas = try await escenario.consulta(
            """
            SELECT count(*) FROM entrega WHERE canal IN ('registro', 'webhook')
              AND estado <> 'entregada' AND aviso_id IN (SELECT id FROM aviso WHERE partido_id >= \(primero))
            """)
        #expect(noEntregadas == 0)
        let lineas = try await escenario.consulta(
            "SELECT count(*) FROM registro WHERE linea LIKE 'notificación%' AND partido_id >= \(primero)"
        )
        #expect(lineas == avisos, "\(nombre): \(lineas) líneas para \(avisos) avisos")
        // Every notice reached the webhook under exactly one key. A POST can come twice with
        // that same key (the receiver's deduplication handles it, delivery.md): a `jugar` that
        // ends gives back, after its half-second drain, a delivery whose answer it has not
        // read yet, and on a loaded machine that answer can be late. Such repeats are counted
        // and printed; a lost notice or one under two keys fails.
        let claves = receptor.peticiones.compactMap { $0.cabeceras["idempotency-key"] }
        #expect(
            Set(claves).count == avisos,
            "\(nombre): \(Set(claves).count) claves para \(avisos) avisos")
        let porAviso = Set(
            receptor.peticiones.compactMap { peticion -> String? in
                guard
                    let cuerpo = try? JSONSerialization.jsonObject(with: Data(peticion.cuerpo))
                        as? [String: Any], let id = cuerpo["identificador"] as? String,
                    let clave = peticion.cabeceras["idempotency-key"]
                else { return nil }
                return "\(clave) \(id)"
            })
        #expect(porAviso.count == Set(claves).count, "\(nombre): una clave con dos avisos")
        print(
            "\(nombre): \(avisos) avisos, \(lineas) líneas de registro, \(claves.count) POST, "
                + "\(claves.count - Set(claves).count) repetidos con la misma clave")
        _ = await web.parar()
    }

    /// One round: `tamano` starts of `partido` at the same instant, in the mix asked; waits
    /// until none of its runs is live and checks how they ended.
    /// - Returns: whether the starts really raced (every run began before the previous ended).
    static func ronda(_ partido: Int, mezcla: Mezcla, tamano: Int, en pista: Pista)
        async throws -> Bool
    {
        enum Contendiente: Sendable {
            case pagina(estado: Int, texto: String)
            case terminal(ProcesoConHoras)
        }
        let paginas = mezcla.desdeLaPagina(tamano)
        let (db, puerto, clave, carpeta) = (pista.db, pista.puerto, pista.clave, pista.carpeta)
        let lanzados = try await alMismoTiempo(tamano) { i -> Contendiente in
            if i < paginas {
                let respuesta = try ClienteDePrueba.enviar(
                    puerto: puerto, "/api/partidos/\(partido)/jugar", json: ["msPorMinuto": ms],
                    clave: clave)
                return .pagina(estado: respuesta.estado, texto: respuesta.texto)
            }
            return .terminal(
                try ProcesoConHoras(
                    [
                        "--db", db, "jugar", "\(partido)", "--ms-por-minuto", "\(ms)",
                        "--duracion", "60",
                    ], carpeta: carpeta))
        }
        for lanzado in lanzados {
            switch lanzado {
            case .pagina(let estado, let texto):
                #expect(estado == 202, "partido \(partido): \(texto)")
            case .terminal(let proceso):
                let (codigo, _) = await proceso.esperarFin()
                #expect(
                    codigo == 0,
                    "partido \(partido): \(proceso.todas.filter(\.deError).map(\.texto))")
            }
        }
        // Every contender's run exists and none is live any more.
        let acabadas =
            "SELECT count(*) FROM ejecucion WHERE partido_id = \(partido) AND estado <> 'en_juego'"
        let acabaron = try await esperarQue(limite: .seconds(60)) {
            try await pista.lector.entero(acabadas) == tamano
        }
        #expect(acabaron, "partido \(partido): las ejecuciones no acabaron")
        let ejecuciones = try await pista.lector.ejecuciones(partido)
        // Strictly before: the stores keep milliseconds, and a start that waited for the write
        // lock a run's last minute held commits in that same millisecond after it — a start
        // that came later, not a race (both runs rightly end `terminado`).
        let compitieron = zip(ejecuciones, ejecuciones.dropFirst()).allSatisfy { anterior, otra in
            anterior.acabada.map { otra.empezada < $0 } ?? true
        }
        guard compitieron else { return false }
        let estados = ejecuciones.map(\.estado).sorted()
        #expect(
            estados == Array(repeating: "cancelado", count: tamano - 1) + ["terminado"],
            "partido \(partido) (\(mezcla.rawValue) ×\(tamano)): \(estados) — \(ejecuciones)")
        return true
    }
}

/// Where a round runs: the store (and one connection to read it), the folder for outputs, the
/// server of the pages and its key.
struct Pista: Sendable {
    let db: String
    let lector: LectorDeLaTienda
    let carpeta: String
    let puerto: Int
    let clave: String
}

extension Escenario {
    /// One integer from the store, whichever it is, on a connection of its own (a test that
    /// polls keeps a `LectorDeLaTienda`).
    func consulta(_ sql: String) async throws -> Int {
        try await LectorDeLaTienda(db: db).entero(sql)
    }

    /// The matches as `partidos --json` lists them.
    func partidos() async throws -> [(id: Int, local: String)] {
        let salida = try await marcador("partidos", "--json").salida
        let lista = try JSONSerialization.jsonObject(with: Data(salida.utf8)) as? [[String: Any]]
        return (lista ?? []).compactMap { fila in
            guard let id = fila["id"] as? Int, let local = fila["local"] as? String else {
                return nil
            }
            return (id, local)
        }
    }
}
