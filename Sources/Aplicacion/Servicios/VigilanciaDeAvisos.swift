import Avisos
import Persistencia
import Sistema
import Synchronization

/// A dispatcher serving until its group stops it (`avisos vigilar`, `servir`, `directo`):
/// woken by the store's commits, it gives its leases back as it stops. Beside it, every
/// `intervaloDeRecordatorios`, the reminders of matches about to kick off are queued.
public final class VigilanciaDeAvisos: Servicio {
    let reparto: Reparto
    public let despachador: Despachador
    private let resumen = Mutex<ResumenDeEnvio?>(nil)

    public init(_ reparto: Reparto, configuracion: Despachador.Configuracion) throws {
        self.reparto = reparto
        despachador = try reparto.despachador(configuracion: configuracion)
    }

    /// What it delivered, once it has stopped.
    public var entregado: ResumenDeEnvio { resumen.withLock { $0 } ?? ResumenDeEnvio() }

    public func run() async throws {
        let nucleo = reparto.nucleo
        try await withThrowingTaskGroup(of: Void.self) { grupo in
            // The store is read and written synchronously: on the store's own thread, not
            // the cooperative pool's.
            grupo.addTask(executorPreference: EjecutorDedicado.deLaTienda) {
                let registro = nucleo.registro()
                while !Task.isCancelled {
                    do {
                        try nucleo.encolarRecordatorios()
                    } catch {
                        // The next turn tries again: a store refusing writes for a while
                        // costs a reminder a few seconds, never the dispatcher.
                        registro.anotar(
                            "no se pudieron preparar los recordatorios: \(explicacion(de: error))")
                    }
                    try? await nucleo.reloj.esperar(
                        .seconds(Int64(Nucleo.intervaloDeRecordatorios)))
                }
            }
            let total = try await reparto.vigilar(despachador)
            resumen.withLock { $0 = total }
            grupo.cancelAll()
        }
    }
}
