import AlmacenSQL
import CPostgres
import Persistencia
import Sistema
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// LISTEN on a connection of its own, read by a thread of its own: it waits in poll(2) on
/// libpq's socket (costing nothing while nothing happens) and calls back with each payload.
/// A broken connection is opened again after a second; a notification missed meanwhile is made
/// up by a call with an empty payload once listening again (the caller then looks for itself).
public final class OyentePG: Escucha {
    private let parado = Atomic<Bool>(false)

    public init(url: String, canal: String, alLlegar: @escaping @Sendable (String) -> Void) {
        Hilo.lanzar { [self] in bucle(url: url, canal: canal, alLlegar: alLlegar) }
    }

    public func parar() { parado.store(true, ordering: .releasing) }

    private var sigue: Bool { !parado.load(ordering: .acquiring) }

    private func bucle(url: String, canal: String, alLlegar: @Sendable (String) -> Void) {
        var primeraVez = true
        while sigue {
            guard let conexion = try? ConexionPG(url: url),
                (try? conexion.executeScript("LISTEN \(canal)")) != nil
            else {
                usleep(1_000_000)
                continue
            }
            if !primeraVez { alLlegar("") }
            primeraVez = false
            escuchar(conexion, alLlegar)
        }
    }

    /// Until the connection breaks or `parar`.
    private func escuchar(_ conexion: ConexionPG, _ alLlegar: @Sendable (String) -> Void) {
        let api = conexion.api
        var espera = pollfd(fd: api.socket(conexion.conexion), events: Int16(POLLIN), revents: 0)
        while sigue {
            let listos = poll(&espera, 1, 200)
            if listos < 0 && errno != EINTR { return }
            guard listos > 0 else { continue }
            guard api.consume_input(conexion.conexion) == 1 else { return }
            while let aviso = api.notifies(conexion.conexion) {
                let carga = aviso.pointee.extra.map { String(cString: $0) } ?? ""
                api.freemem(aviso)
                alLlegar(carga)
            }
        }
    }
}
