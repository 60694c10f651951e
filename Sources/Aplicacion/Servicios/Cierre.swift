import Synchronization

/// Why a service group is shutting down, for the services that wait a little before giving
/// work back: after the work ended by itself, `jugar`'s dispatcher gives deliveries in flight
/// half a second; after a signal or a failure, none — and a signal during that half second
/// cuts it.
public final class Cierre: Sendable {
    private struct Estado {
        var senal: Int32?
        /// A signal came or a service failed: no more waiting.
        var urgente = false
        var alRecibir: [Int: @Sendable () -> Void] = [:]
        var siguiente = 0
    }

    private let estado = Mutex(Estado())

    public init() {}

    /// The first stopping signal the group received, if any.
    public var senal: Int32? { estado.withLock { $0.senal } }

    /// Records the signal (the first one is kept) and cuts every grace period.
    public func recibir(_ numero: Int32) {
        cortar { if $0.senal == nil { $0.senal = numero } }
    }

    /// A service failed: the others stop without a grace period.
    public func abortar() { cortar { _ in } }

    private func cortar(_ cambio: (inout Estado) -> Void) {
        let avisar = estado.withLock { estado -> [@Sendable () -> Void] in
            cambio(&estado)
            estado.urgente = true
            return Array(estado.alRecibir.values)
        }
        for aviso in avisar { aviso() }
    }

    /// `normal`, or nothing once a signal came or a service failed.
    public func plazo(_ normal: Duration) -> Duration {
        estado.withLock { $0.urgente } ? .zero : normal
    }

    /// Runs `trabajo` (a bounded wait) in a task of its own that a signal cancels, even one
    /// that arrives while it runs; the caller's own cancellation does not reach it (the
    /// caller is usually being stopped, and this is the grace it gives).
    public func conGracia<T: Sendable>(_ trabajo: @escaping @Sendable () async -> T) async -> T {
        let tarea = Task { await trabajo() }
        let clave = estado.withLock { estado -> Int? in
            guard !estado.urgente else { return nil }
            estado.siguiente += 1
            estado.alRecibir[estado.siguiente] = { tarea.cancel() }
            return estado.siguiente
        }
        if clave == nil { tarea.cancel() }
        let valor = await tarea.value
        if let clave { estado.withLock { _ = $0.alRecibir.removeValue(forKey: clave) } }
        return valor
    }
}
