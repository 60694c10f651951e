#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A thread of its own for work that blocks (a transfer waiting in `curl_multi_poll`, a helper
/// program), so it never takes a thread of the cooperative pool nor of Dispatch's global
/// queues, whose width on Linux is the number of cores: blocked work there would queue behind
/// other blocked work.
public enum Hilo {
    private final class Trabajo {
        let cuerpo: @Sendable () -> Void
        init(_ cuerpo: @escaping @Sendable () -> Void) { self.cuerpo = cuerpo }
    }

    /// Runs `trabajo` on a new detached thread, with a small stack unless told otherwise.
    public static func lanzar(
        pila: Int = 512 * 1024, _ trabajo: @escaping @Sendable () -> Void
    ) {
        var atributos = pthread_attr_t()
        pthread_attr_init(&atributos)
        defer { pthread_attr_destroy(&atributos) }
        pthread_attr_setdetachstate(&atributos, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&atributos, pila)
        let contexto = Unmanaged.passRetained(Trabajo(trabajo)).toOpaque()
        var hilo = pthread_t()
        let codigo = pthread_create(
            &hilo, &atributos,
            { contexto in
                let trabajo = Unmanaged<Trabajo>.fromOpaque(contexto!).takeRetainedValue()
                trabajo.cuerpo()
                return nil
            }, contexto)
        if codigo != 0 {
            // No thread to be had: run it here rather than lose it.
            Unmanaged<Trabajo>.fromOpaque(contexto).takeRetainedValue().cuerpo()
        }
    }
}
