import Avisos
import Synchronization

/// A dispatcher serving until its group stops it (`avisos vigilar`, `servir`, `directo`):
/// woken by the store's commits, it gives its leases back as it stops.
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
        let total = try await reparto.vigilar(despachador)
        resumen.withLock { $0 = total }
    }
}
