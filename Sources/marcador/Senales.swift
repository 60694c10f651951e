import Aplicacion
import Dispatch
import Sistema

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Delivers signals as an async sequence instead of running code inside a signal handler,
/// where almost nothing is safe to call.
@MainActor
enum Senales {
    /// The dispatch sources must outlive `escuchar`; they live here for the process lifetime.
    private static var fuentes: [DispatchSourceSignal] = []

    /// The signals that end the process (the others only wake it).
    nonisolated static let terminan: Set<Int32> = [SIGINT, SIGTERM, SIGHUP]

    /// How long the process may take to end cleanly after such a signal before it leaves
    /// anyway: a safety net only; the store's waits give up within `Interrupcion.gracia`.
    nonisolated static let ultimoPlazo: Double = 2

    /// Heard on the signal's dispatch thread, before the main actor (which may be waiting on
    /// the store): store waits give up from now on, and if the clean end has not come in
    /// `ultimoPlazo`, the process exits with the signal's status.
    nonisolated static func terminar(_ numero: Int32) {
        Interrupcion.activar(senal: numero)
        DispatchQueue.global().asyncAfter(deadline: .now() + ultimoPlazo) {
            escribirEnStderr("marcador: no terminó a tiempo tras la señal \(numero); sale ya.\n")
            _exit(128 + numero)
        }
    }

    /// Stops the default action of `senales` (dying) and reports each arrival instead.
    static func escuchar(_ senales: [Int32]) -> AsyncStream<Int32> {
        let (flujo, continuacion) = AsyncStream<Int32>.makeStream()
        for numero in senales {
            signal(numero, SIG_IGN)
            let fuente = DispatchSource.makeSignalSource(signal: numero, queue: .global())
            // Explicitly @Sendable: the handler runs on a dispatch thread, not the main actor,
            // and must not inherit this enum's isolation (the runtime would trap).
            fuente.setEventHandler { @Sendable in
                if terminan.contains(numero) { Senales.terminar(numero) }
                continuacion.yield(numero)
            }
            fuente.resume()
            fuentes.append(fuente)
        }
        return flujo
    }
}

extension GrupoDeServicios {
    /// A long-running command's group: SIGINT, SIGTERM and SIGHUP stop it (the exit status
    /// comes from the one received); each signal in `otras` only runs its action (SIGUSR1:
    /// look for stop requests now; SIGWINCH: redraw).
    @MainActor
    static func delProceso(
        cierre: Cierre = Cierre(), otras: [Int32: @Sendable () -> Void] = [:]
    ) -> GrupoDeServicios {
        GrupoDeServicios(
            senales: Senales.escuchar(Array(Senales.terminan) + otras.keys),
            terminan: Senales.terminan, cierre: cierre
        ) { otras[$0]?() }
    }
}
