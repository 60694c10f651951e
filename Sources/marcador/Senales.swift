import Aplicacion
import Dispatch

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

    /// Stops the default action of `senales` (dying) and reports each arrival instead.
    static func escuchar(_ senales: [Int32]) -> AsyncStream<Int32> {
        let (flujo, continuacion) = AsyncStream<Int32>.makeStream()
        for numero in senales {
            signal(numero, SIG_IGN)
            let fuente = DispatchSource.makeSignalSource(signal: numero, queue: .global())
            // Explicitly @Sendable: the handler runs on a dispatch thread, not the main actor,
            // and must not inherit this enum's isolation (the runtime would trap).
            fuente.setEventHandler { @Sendable in continuacion.yield(numero) }
            fuente.resume()
            fuentes.append(fuente)
        }
        return flujo
    }
}
