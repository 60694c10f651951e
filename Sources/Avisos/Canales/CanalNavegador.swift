import Persistencia
import Torneo

/// The browser channel (screen.md): delivering a notice records it in the store's log of
/// changes, which `marcador servir` streams to every open page; a page with permission shows
/// it through its Service Worker (`tag` = the identifier, so a redelivery replaces it).
///
/// Delivery is one write, so it never waits on a browser or a network: it is its own lane like
/// any channel, and it works whichever process dispatches (a `jugar` in a terminal too).
public struct CanalNavegador: Notificador {
    public let canal: String
    public let esInmediato = true
    let cambios: any Cambios

    public init(canal: String = TipoDeCanal.navegador.rawValue, cambios: any Cambios) {
        self.canal = canal
        self.cambios = cambios
    }

    public func notificarGol(_ aviso: AvisoDeGol) async throws {
        _ = try await notificarGoles([aviso])
    }

    public func notificarGoles(_ avisos: [AvisoDeGol]) async throws -> [FalloDeEntrega?] {
        do {
            try cambios.notificar(avisos)
            return Array(repeating: nil, count: avisos.count)
        } catch {
            let fallo = FalloDeEntrega("no se pudo guardar: \(error)", reintentable: true)
            return Array(repeating: fallo, count: avisos.count)
        }
    }
}
