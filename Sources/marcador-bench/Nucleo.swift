import Foundation
import Synchronization

/// The delivery core's figures (delivery.md) with a webhook that never answers: how long after
/// its goal line each log line is written, and how long SIGINT takes to end the process.
@MainActor
func medirNucleo() async throws {
    let colgado = try EscuchaSinRespuesta()
    defer { colgado.cerrar() }
    let (ruta, _) = try nuevaBase("nucleo")
    _ = lanzar(
        binario, ["--db", ruta, "avisos", "canales", "añadir", "webhook", "--url", colgado.url])
    informar("núcleo: retraso de la línea del registro tras la del gol…")
    var retrasos: [Double] = []
    for _ in 0..<(rapido ? 4 : 10) {
        let proceso = try ProcesoConMarcas(
            binario, ["--db", ruta, "jugar", "1", "--ms-por-minuto", "20"])
        _ = proceso.esperar()
        let prefijo = "notificación «¡Gol!» enviada: "
        for envio in proceso.lineas(deError: true) where envio.texto.hasPrefix(prefijo) {
            let jugador = envio.texto.dropFirst(prefijo.count).prefix { $0 != "," }
            guard
                let gol = proceso.lineas(deError: false).first(where: {
                    $0.texto.hasPrefix("Gol: \(jugador) (")
                })
            else { continue }
            retrasos.append(segundos(envio.momento - gol.momento) * 1000)
        }
    }
    medidas.append(
        Medida(
            nombre: "núcleo: línea del registro tras la del gol, webhook colgado", unidad: "ms",
            valores: retrasos, base: "lo ideal: 0 ms (objetivo ≤ 100 ms)", valoresBase: nil))
    informar("núcleo: de SIGINT a la salida…")
    var salidas: [Double] = []
    var codigos: Set<Int32> = []
    for intento in 0..<20 {
        let proceso = try ProcesoConMarcas(
            binario, ["--db", ruta, "jugar", "1", "--ms-por-minuto", "20"])
        // Half the tries mid-match, half during the final drain.
        _ = proceso.esperarLinea(intento % 2 == 0 ? "Gol: Luis" : "partido TERMINADO")
        let enviada = ContinuousClock.now
        kill(proceso.pid, SIGINT)
        let codigo = proceso.esperar()
        salidas.append(segundos(ContinuousClock.now - enviada) * 1000)
        codigos.insert(codigo)
    }
    medidas.append(
        Medida(
            nombre: "núcleo: de SIGINT a la salida (salida \(codigos.sorted()))", unidad: "ms",
            valores: salidas, base: "objetivo ≤ 250 ms", valoresBase: nil))
}

func segundos(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

/// A TCP port that accepts connections in the kernel's backlog and never answers: a webhook
/// that hangs forever.
final class EscuchaSinRespuesta: Sendable {
    let descriptor: Int32
    let url: String

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var direccion = sockaddr_in()
        direccion.sin_family = sa_family_t(AF_INET)
        direccion.sin_addr.s_addr = inet_addr("127.0.0.1")
        var longitud = socklen_t(MemoryLayout<sockaddr_in>.size)
        let enlazado = withUnsafeMutablePointer(to: &direccion) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, longitud) == 0 && listen(descriptor, 128) == 0
                    && getsockname(descriptor, $0, &longitud) == 0
            }
        }
        guard enlazado else { throw CocoaError(.fileWriteUnknown) }
        url = "http://127.0.0.1:\(UInt16(bigEndian: direccion.sin_port))/gol"
    }

    func cerrar() { close(descriptor) }
}

/// A child process whose stdout and stderr lines are kept with the instant each was read.
final class ProcesoConMarcas: Sendable {
    struct Linea: Sendable {
        var texto: String
        var momento: ContinuousClock.Instant
        var deError: Bool
    }

    let pid: pid_t
    private let estado = Mutex<[Linea]>([])
    /// Readers still reading (both end when the child's pipes close).
    private let lectoresAbiertos = Atomic<Int>(2)

    init(_ programa: String, _ argumentos: [String]) throws {
        var salida: [Int32] = [0, 0]
        var errores: [Int32] = [0, 0]
        guard pipe(&salida) == 0, pipe(&errores) == 0 else { throw CocoaError(.fileReadUnknown) }
        var acciones = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&acciones)
        defer { posix_spawn_file_actions_destroy(&acciones) }
        posix_spawn_file_actions_addopen(&acciones, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&acciones, salida[1], 1)
        posix_spawn_file_actions_adddup2(&acciones, errores[1], 2)
        posix_spawn_file_actions_addclose(&acciones, salida[0])
        posix_spawn_file_actions_addclose(&acciones, errores[0])
        let argv: [UnsafeMutablePointer<CChar>?] =
            ([programa] + argumentos).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, programa, &acciones, nil, argv, environ) == 0 else {
            throw CocoaError(.executableLoad)
        }
        self.pid = pid
        close(salida[1])
        close(errores[1])
        for (descriptor, deError) in [(salida[0], false), (errores[0], true)] {
            Thread.detachNewThread { [self] in
                var pendiente: [UInt8] = []
                var bloque = [UInt8](repeating: 0, count: 4096)
                while true {
                    let n = read(descriptor, &bloque, bloque.count)
                    if n <= 0 { break }
                    let ahora = ContinuousClock.now
                    pendiente += bloque[..<n]
                    while let fin = pendiente.firstIndex(of: 10) {
                        let texto = String(decoding: pendiente[..<fin], as: UTF8.self)
                        pendiente.removeSubrange(...fin)
                        self.estado.withLock {
                            $0.append(Linea(texto: texto, momento: ahora, deError: deError))
                        }
                    }
                }
                close(descriptor)
                lectoresAbiertos.subtract(1, ordering: .releasing)
            }
        }
    }

    func lineas(deError: Bool) -> [Linea] {
        estado.withLock { $0.filter { $0.deError == deError } }
    }

    /// Waits (polling, up to 10 s) for a line containing `texto`.
    func esperarLinea(_ texto: String) -> Linea? {
        for _ in 0..<10_000 {
            if let linea = estado.withLock({ $0.first { $0.texto.contains(texto) } }) {
                return linea
            }
            usleep(1_000)
        }
        return nil
    }

    /// Waits for the exit and for both pipes to close; returns the exit status (128 + signal).
    func esperar() -> Int32 {
        var estado: Int32 = 0
        waitpid(pid, &estado, 0)
        while lectoresAbiertos.load(ordering: .acquiring) > 0 { usleep(1_000) }
        return (estado & 0x7f) == 0 ? (estado >> 8) & 0xff : 128 + (estado & 0x7f)
    }
}
