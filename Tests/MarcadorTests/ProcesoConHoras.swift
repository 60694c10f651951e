import ApoyoDePruebas
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A `marcador` process whose stdout and stderr lines are stamped with the moment they
/// arrived, for tests about *when* things happen (a log line after its goal line, an exit
/// after a signal). Reader threads block on the pipes, never the cooperative pool.
final class ProcesoConHoras: Sendable {
    struct Linea: Sendable {
        let momento: ContinuousClock.Instant
        let deError: Bool
        let texto: String
    }

    let pid: pid_t
    let inicio: ContinuousClock.Instant
    private let lineas = Mutex<[Linea]>([])
    /// Pipes read to their end (stdout, stderr): only then are `lineas` whole.
    private let leidas = Mutex(0)
    private let fin = Mutex<(codigo: Int32, momento: ContinuousClock.Instant)?>(nil)

    init(_ argumentos: [String], entorno extra: [String: String] = [:], carpeta: String) throws {
        var salida: [Int32] = [0, 0]
        var error: [Int32] = [0, 0]
        guard pipe(&salida) == 0, pipe(&error) == 0 else { throw CocoaError(.fileReadUnknown) }
        var acciones = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&acciones)
        defer { posix_spawn_file_actions_destroy(&acciones) }
        posix_spawn_file_actions_addopen(&acciones, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&acciones, salida[1], 1)
        posix_spawn_file_actions_adddup2(&acciones, error[1], 2)
        posix_spawn_file_actions_addclose(&acciones, salida[0])
        posix_spawn_file_actions_addclose(&acciones, error[0])
        var entorno = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": carpeta, "LANG": "C.UTF-8",
        ]
        entorno.merge(extra) { _, nuevo in nuevo }
        let argv: [UnsafeMutablePointer<CChar>?] =
            ([Binario.ruta] + argumentos).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] =
            entorno.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for puntero in argv + envp { free(puntero) }
        }
        var pid: pid_t = 0
        inicio = ContinuousClock.now
        guard posix_spawn(&pid, Binario.ruta, &acciones, nil, argv, envp) == 0 else {
            throw CocoaError(.executableLoad)
        }
        close(salida[1])
        close(error[1])
        self.pid = pid
        for (descriptor, deError) in [(salida[0], false), (error[0], true)] {
            Thread { [self] in leer(descriptor, deError: deError) }.start()
        }
        let hijo = pid
        Thread { [self] in
            var estado: Int32 = 0
            while waitpid(hijo, &estado, 0) == -1 && errno == EINTR {}
            let codigo = (estado & 0x7f) == 0 ? (estado >> 8) & 0xff : 128 + (estado & 0x7f)
            fin.withLock { $0 = (codigo, ContinuousClock.now) }
        }.start()
    }

    private func leer(_ descriptor: Int32, deError: Bool) {
        defer {
            close(descriptor)
            leidas.withLock { $0 += 1 }
        }
        var pendiente: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(descriptor, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            let ahora = ContinuousClock.now
            pendiente += buffer[0..<n]
            while let salto = pendiente.firstIndex(of: 10) {
                let texto = String(decoding: pendiente[..<salto], as: UTF8.self)
                pendiente.removeSubrange(...salto)
                lineas.withLock { $0.append(Linea(momento: ahora, deError: deError, texto: texto)) }
            }
        }
    }

    var todas: [Linea] { lineas.withLock { $0 } }

    /// Until both pipes were read to their end (the child and any process it left holding
    /// them are gone), 10 s at most.
    private func esperarLecturas() async {
        _ = await sondearQue(limite: .seconds(10)) { leidas.withLock { $0 } >= 2 }
    }

    /// The first line containing `texto` (on stderr with `deError`), if it arrived.
    func linea(_ texto: String, deError: Bool? = nil) -> Linea? {
        todas.first { $0.texto.contains(texto) && (deError == nil || $0.deError == deError) }
    }

    func senal(_ numero: Int32) -> ContinuousClock.Instant {
        let ahora = ContinuousClock.now
        kill(pid, numero)
        return ahora
    }

    /// Waits for `texto` to show in the output; `nil` after `limite`.
    func esperarLinea(_ texto: String, deError: Bool? = nil, limite: Duration = .seconds(20))
        async -> Linea?
    {
        enum Visto {
            case linea(Linea)
            case fin
        }
        let visto = await sondear(limite: limite) { () -> Visto? in
            if let linea = linea(texto, deError: deError) { return .linea(linea) }
            return fin.withLock { $0 } != nil ? .fin : nil
        }
        switch visto {
        case .linea(let linea): return linea
        case .fin:
            // Gone: what it wrote last may still be in the pipes.
            await esperarLecturas()
            return linea(texto, deError: deError)
        case nil: return nil
        }
    }

    /// Waits for the exit (SIGKILL after `limite`): its status (128 + n for a signal) and when.
    func esperarFin(limite: Duration = .seconds(60)) async -> (
        codigo: Int32, momento: ContinuousClock.Instant
    ) {
        if let fin = await sondear(limite: limite, { fin.withLock { $0 } }) {
            await esperarLecturas()
            return fin
        }
        kill(pid, SIGKILL)
        return await sondear(limite: .seconds(3600)) { fin.withLock { $0 } }!
    }
}

extension Duration {
    var segundos: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
