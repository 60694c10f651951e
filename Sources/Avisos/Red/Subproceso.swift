import Dispatch
import Sistema
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a helper program (`notify-send`) to completion with a time limit, off the cooperative
/// pool, capturing what it prints.
enum Subproceso {
    struct Resultado: Sendable {
        var codigo: Int32
        var salida: String
        var error: String
    }

    enum Fallo: Error, Sendable {
        case noArranca(String)
        case tiempoAgotado
    }

    /// Whether `programa` is an executable somewhere in `PATH`.
    static func existe(_ programa: String, path: String?) -> Bool {
        for carpeta in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            if access("\(carpeta)/\(programa)", X_OK) == 0 { return true }
        }
        return false
    }

    /// Runs `programa` with `argumentos`; cancelling the task kills it at once.
    static func ejecutar(_ programa: String, _ argumentos: [String], limite: Double) async throws
        -> Resultado
    {
        let hijo = Hijo()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuacion in
                Hilo.lanzar {
                    continuacion.resume(
                        with: Result {
                            try ejecutarYa(programa, argumentos, limite: limite, hijo: hijo)
                        })
                }
            }
        } onCancel: {
            hijo.matar()
        }
    }

    /// The child's pid, shared with the cancellation handler, which may run on any thread.
    final class Hijo: Sendable {
        private let estado = Mutex<(pid: pid_t, cancelado: Bool)>((0, false))

        /// Records the pid; returns `false` (and kills it) when the task was already cancelled.
        func nacer(_ pid: pid_t) -> Bool {
            estado.withLock { estado in
                estado.pid = pid
                if estado.cancelado { kill(pid, SIGKILL) }
                return !estado.cancelado
            }
        }

        func morir() { estado.withLock { $0.pid = 0 } }

        func matar() {
            estado.withLock { estado in
                estado.cancelado = true
                if estado.pid > 0 { kill(estado.pid, SIGKILL) }
            }
        }

        var cancelado: Bool { estado.withLock { $0.cancelado } }
    }

    private static func ejecutarYa(
        _ programa: String, _ argumentos: [String], limite: Double, hijo: Hijo
    ) throws -> Resultado {
        var salida: [Int32] = [0, 0]
        var error: [Int32] = [0, 0]
        guard pipe(&salida) == 0, pipe(&error) == 0 else { throw Fallo.noArranca("pipe") }
        var acciones = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&acciones)
        defer { posix_spawn_file_actions_destroy(&acciones) }
        posix_spawn_file_actions_addopen(&acciones, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&acciones, salida[1], 1)
        posix_spawn_file_actions_adddup2(&acciones, error[1], 2)
        DescriptoresHeredados.cerrar(en: &acciones)
        let argv: [UnsafeMutablePointer<CChar>?] =
            ([programa] + argumentos).map { strdup($0) } + [nil]
        defer { for argumento in argv { free(argumento) } }
        var pid: pid_t = 0
        let codigo = posix_spawnp(&pid, programa, &acciones, nil, argv, environ)
        close(salida[1])
        close(error[1])
        defer {
            close(salida[0])
            close(error[0])
        }
        guard codigo == 0 else { throw Fallo.noArranca(String(cString: strerror(codigo))) }
        _ = hijo.nacer(pid)
        // A watchdog kills the helper if it hangs (a D-Bus call can wait 25 s by default).
        let vigilante = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + limite, execute: vigilante)
        let textoSalida = leerTodo(salida[0])
        let textoError = leerTodo(error[0])
        var estado: Int32 = 0
        while waitpid(pid, &estado, 0) == -1 && errno == EINTR {}
        hijo.morir()
        vigilante.cancel()
        if hijo.cancelado { throw CancellationError() }
        if (estado & 0x7f) != 0 { throw Fallo.tiempoAgotado }
        return Resultado(codigo: (estado >> 8) & 0xff, salida: textoSalida, error: textoError)
    }

    private static func leerTodo(_ descriptor: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(descriptor, &buffer, buffer.count)
            if n > 0 {
                bytes += buffer[0..<n]
            } else if n == -1 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
