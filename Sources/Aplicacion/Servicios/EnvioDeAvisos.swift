import Avisos
import Synchronization

/// One drain of everything due now (`avisos enviar`): its work done, the group ends; stopped
/// before, what was in flight goes back for the next dispatcher, same key.
public final class EnvioDeAvisos: Servicio {
    let reparto: Reparto
    let configuracion: Despachador.Configuracion
    private let resumen = Mutex<ResumenDeEnvio?>(nil)

    public init(_ reparto: Reparto, configuracion: Despachador.Configuracion) {
        self.reparto = reparto
        self.configuracion = configuracion
    }

    /// What it delivered, once it has stopped.
    public var entregado: ResumenDeEnvio { resumen.withLock { $0 } ?? ResumenDeEnvio() }

    public func run() async throws {
        let total = try await reparto.enviar(configuracion: configuracion)
        resumen.withLock { $0 = total }
    }
}
