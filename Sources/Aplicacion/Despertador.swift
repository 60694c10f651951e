import Persistencia
import Sistema
import Synchronization
import Torneo

/// Where a stop request goes (architecture.md): to a run of this process in place, to a run of
/// another process on this host by SIGUSR1, and to a run on another host through the store
/// (the request is a row, and PostgreSQL rings `marcador_parar` when it is written; the owner
/// also reads it in its next minute's transaction).
///
/// One per process, shared by every use case that stops runs (a new start, a duration change),
/// whichever front end called it.
public final class Despertador: Sendable {
    private let locales = Mutex<[Int: @Sendable () -> Void]>([:])

    public init() {}

    /// Run `ejecucion` is played by this process: a stop request for it calls `revisar`.
    func registrar(_ ejecucion: Int, _ revisar: @escaping @Sendable () -> Void) {
        locales.withLock { $0[ejecucion] = revisar }
    }

    func quitar(_ ejecucion: Int) {
        _ = locales.withLock { $0.removeValue(forKey: ejecucion) }
    }

    /// Tells the owner of `ajena` that the store holds a stop request for it.
    public func despertar(_ ajena: EjecucionAjena) {
        if let local = locales.withLock({ $0[ajena.id] }) {
            local()
        } else {
            ajena.propietario.despertar()
        }
    }
}
