import Almacen
import Foundation
import Motor
import Synchronization
import Torneo

/// `marcador servir` under load (screen.md, §16): 1, 1,000 and 10,000 event streams on
/// loopback; how long they take to open, and how long after a goal's minute commits each
/// stream has it. The goals are committed by the engine in this process — another process, as
/// for any terminal next to the server, so what is measured is the wake-up through the
/// write-ahead log's watch — and commit and arrival are read on the same clock.
@MainActor
func medirEventos() async throws {
    ampliarLimiteDeFicheros()
    let (ruta, queue) = try nuevaBase("eventos")
    let servidor = try ProcesoConMarcas(binario, ["--db", ruta, "servir", "--puerto", "0"])
    guard let linea = servidor.esperarLinea("Sirviendo en"),
        let puerto = linea.texto.split(separator: ":").dropFirst(2).first.flatMap({
            Int($0.prefix { $0.isNumber })
        })
    else {
        informar("eventos: el servidor no arrancó")
        return
    }
    defer {
        kill(servidor.pid, SIGTERM)
        _ = servidor.esperar()
    }
    let partido = try PartidosSQLite(queue).partido(id: 1)!
    let conexionesEnEspera =
        (try? String(contentsOfFile: "/proc/sys/net/core/somaxconn", encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
    for clientes in [1, 1_000, 10_000] {
        informar("eventos: \(clientes) flujos abiertos…")
        let apertura = ContinuousClock.now
        let lectores = try LectoresDeEventos(
            puerto: puerto, cuantos: clientes, minutos: [10, 35, 60])
        guard lectores.esperarCabeceras(limite: .seconds(60)) else {
            informar("eventos: no se abrieron los \(clientes) flujos")
            continue
        }
        let abiertos = ContinuousClock.now
        if clientes > 1 {
            medidas.append(
                Medida(
                    nombre:
                        "eventos: abrir \(clientes.formatted(.number.locale(Locale(identifier: "es_ES")))) flujos (somaxconn \(conexionesEnEspera))",
                    unidad: "ms", valores: [segundos(abiertos - apertura) * 1000],
                    base: "objetivo ≤ 1000 ms", valoresBase: nil))
        }
        // Ten thousand streams are 10,000 writes per event on two shared cores: the minutes
        // are slower there, so what is measured is the delay and not a queue that only grows.
        let msPorMinuto = clientes >= 10_000 ? 200 : 20
        var commits: [String: ContinuousClock.Instant] = [:]
        for _ in 0..<(rapido || clientes >= 10_000 ? 2 : 6) {
            let cronica = CronicaSQLite(queue, partidoId: 1, duracionFija: true)
            let modelo = PartidoEnVivo(
                partido: partido, msPorMinuto: msPorMinuto, cronica: cronica)
            modelo.alCambiar = { cambio in
                // Called right after the minute's transaction committed.
                if case .gol = cambio, let ejecucion = cronica.ejecucion {
                    commits["\(ejecucion) \(modelo.minuto)"] = ContinuousClock.now
                }
            }
            _ = try await modelo.jugar(duracion: 90)
        }
        _ = lectores.esperarLlegadas(commits.count * clientes, limite: .seconds(30))
        var retrasos: [Double] = []
        for (clave, llegada) in lectores.llegadas() {
            if let commit = commits[clave] { retrasos.append(segundos(llegada - commit) * 1000) }
        }
        let esperados = commits.count * clientes
        medidas.append(
            Medida(
                nombre:
                    "eventos: gol confirmado → recibido, \(clientes.formatted(.number.locale(Locale(identifier: "es_ES")))) flujo\(clientes == 1 ? "" : "s") (\(retrasos.count)/\(esperados))",
                unidad: "ms", valores: retrasos, base: "objetivo ≤ 250 ms", valoresBase: nil))
        if clientes >= 1_000 {
            let estado =
                (try? String(contentsOfFile: "/proc/\(servidor.pid)/status", encoding: .utf8)) ?? ""
            func campo(_ nombre: String) -> Double {
                estado.split(separator: "\n").first { $0.hasPrefix(nombre + ":") }
                    .flatMap {
                        Double(
                            $0.split(whereSeparator: { $0 == " " || $0 == "\t" })
                                .dropFirst().first ?? "")
                    } ?? .nan
            }
            medidas.append(
                Medida(
                    nombre:
                        "eventos: memoria del servidor con \(clientes.formatted(.number.locale(Locale(identifier: "es_ES")))) flujos",
                    unidad: "MB",
                    valores: [campo("VmRSS") / 1024], base: nil, valoresBase: nil))
            medidas.append(
                Medida(
                    nombre:
                        "eventos: hilos del servidor con \(clientes.formatted(.number.locale(Locale(identifier: "es_ES")))) flujos",
                    unidad: "hilos",
                    valores: [campo("Threads")], base: nil, valoresBase: nil))
        }
        lectores.cerrar()
    }
}

/// A thousand open files need the soft limit raised to the hard one.
func ampliarLimiteDeFicheros() {
    var limite = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limite) == 0 else { return }
    limite.rlim_cur = limite.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limite)
}

/// `cuantos` event streams read by one thread with poll(2), like a load tool: each `partido`
/// event with goals is stamped on arrival, keyed by run and minute.
final class LectoresDeEventos: Sendable {
    private let sockets: [Int32]
    /// The minutes worth stamping (those with goals).
    private let minutos: Set<Int>
    private let estado = Mutex<
        (cabeceras: Int, llegadas: [(String, ContinuousClock.Instant)], fin: Bool)
    >(
        (0, [], false))

    init(puerto: Int, cuantos: Int, minutos: Set<Int>) throws {
        self.minutos = minutos
        var sockets: [Int32] = []
        for _ in 0..<cuantos {
            let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var direccion = sockaddr_in()
            direccion.sin_family = sa_family_t(AF_INET)
            direccion.sin_port = UInt16(puerto).bigEndian
            direccion.sin_addr.s_addr = inet_addr("127.0.0.1")
            let ok = withUnsafePointer(to: &direccion) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            guard ok else { throw CocoaError(.fileReadUnknown) }
            let peticion = "GET /eventos HTTP/1.1\r\nHost: 127.0.0.1:\(puerto)\r\n\r\n"
            _ = peticion.withCString { send(s, $0, strlen($0), 0) }
            sockets.append(s)
        }
        self.sockets = sockets
        Thread.detachNewThread { [self] in self.leer() }
    }

    /// Bytes, not strings or JSON: with a thousand streams the load tool must cost far less
    /// than the server it measures (two cores are shared).
    private func leer() {
        var pendientes = [[UInt8]](repeating: [], count: sockets.count)
        var conCabecera = [Bool](repeating: false, count: sockets.count)
        var descriptores = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var bloque = [UInt8](repeating: 0, count: 65_536)
        while !estado.withLock({ $0.fin }) {
            guard poll(&descriptores, nfds_t(descriptores.count), 100) > 0 else { continue }
            var nuevas: [(String, ContinuousClock.Instant)] = []
            for i in descriptores.indices where descriptores[i].revents != 0 {
                let n = read(descriptores[i].fd, &bloque, bloque.count)
                guard n > 0 else {
                    descriptores[i].fd = -1
                    continue
                }
                let ahora = ContinuousClock.now
                pendientes[i] += bloque[..<n]
                if !conCabecera[i], Self.buscar(pendientes[i], "retry: ", desde: 0) != nil {
                    conCabecera[i] = true
                    estado.withLock { $0.cabeceras += 1 }
                }
                var inicio = 0
                while let fin = Self.buscar(pendientes[i], "\n\n", desde: inicio) {
                    if let clave = clave(pendientes[i], inicio..<fin) {
                        nuevas.append((clave, ahora))
                    }
                    inicio = fin + 2
                }
                pendientes[i].removeFirst(inicio)
            }
            if !nuevas.isEmpty { estado.withLock { $0.llegadas += nuevas } }
        }
        for s in sockets { close(s) }
    }

    /// `"ejecucion minuto"` of a `partido` event in play at one of `minutos`, else `nil`. The
    /// match's own minute is the `"minuto":` followed by a number (goals carry theirs as text).
    private func clave(_ bytes: [UInt8], _ rango: Range<Int>) -> String? {
        func entero(_ campo: StaticString) -> Int? {
            var desde = rango.lowerBound
            while let i = Self.buscar(bytes, campo, desde: desde), i < rango.upperBound {
                if let valor = Self.numero(bytes, i + campo.utf8CodeUnitCount) { return valor }
                desde = i + 1
            }
            return nil
        }
        guard let minuto = entero("\"minuto\":"), minutos.contains(minuto),
            let ejecucion = entero("\"ejecucion\":"),
            let j = Self.buscar(bytes, "\"en_juego\"", desde: rango.lowerBound),
            j < rango.upperBound
        else { return nil }
        return "\(ejecucion) \(minuto)"
    }

    private static func buscar(_ bytes: [UInt8], _ aguja: StaticString, desde: Int) -> Int? {
        let n = aguja.utf8CodeUnitCount
        guard desde + n <= bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { pajar in
            let primero = aguja.utf8Start[0]
            var i = desde
            while i + n <= pajar.count {
                if pajar[i] == primero
                    && (1..<n).allSatisfy({ pajar[i + $0] == aguja.utf8Start[$0] })
                {
                    return i
                }
                i += 1
            }
            return nil
        }
    }

    private static func numero(_ bytes: [UInt8], _ desde: Int) -> Int? {
        var i = desde
        var valor = 0
        while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 {
            valor = valor * 10 + Int(bytes[i] - 48)
            i += 1
        }
        return i > desde ? valor : nil
    }

    /// Waits (up to `limite`) until every stream has its first bytes.
    func esperarCabeceras(limite: Duration) -> Bool {
        let fin = ContinuousClock.now + limite
        while ContinuousClock.now < fin {
            if estado.withLock({ $0.cabeceras }) == sockets.count { return true }
            usleep(1_000)
        }
        return false
    }

    /// Waits (up to `limite`) until `cuantas` stamped arrivals are in.
    func esperarLlegadas(_ cuantas: Int, limite: Duration) -> Bool {
        let fin = ContinuousClock.now + limite
        while ContinuousClock.now < fin {
            if estado.withLock({ $0.llegadas.count }) >= cuantas { return true }
            usleep(10_000)
        }
        return false
    }

    /// Every (run minute, arrival) seen, one per stream and event.
    func llegadas() -> [(String, ContinuousClock.Instant)] { estado.withLock { $0.llegadas } }

    func cerrar() { estado.withLock { $0.fin = true } }
}
