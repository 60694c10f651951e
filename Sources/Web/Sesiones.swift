import Synchronization

/// Who has entered a server started with `--token`: each browser that gave the key gets a
/// session (its cookie) with a page key of its own, so the server's key is never written into
/// a page and one session's page key is worth nothing to another. In memory only: a restart
/// asks everyone to enter again.
final class Sesiones: Sendable {
    struct Sesion: Sendable {
        var claveDePagina: String
        var ultimoUso: Double
    }

    /// A session unused this long (seconds) is gone.
    static let inactividadMaxima: Double = 12 * 3600
    /// At most this many at once: the oldest goes first (a flood of logins needs the key, but
    /// must not grow memory without end either).
    static let maximo = 1_000
    /// Failed logins allowed per minute, all clients together: a short key cannot be guessed
    /// at network speed.
    static let fallosPorMinuto = 5

    private struct Estado {
        var sesiones: [String: Sesion] = [:]
        var fallos: [Double] = []
    }

    private let estado = Mutex(Estado())
    private let ahora: @Sendable () -> Double

    init(ahora: @escaping @Sendable () -> Double) { self.ahora = ahora }

    /// A new session: its id (the cookie) and its page key.
    func abrir() -> (id: String, claveDePagina: String) {
        let id = ServicioWeb.claveAlAzar() + ServicioWeb.claveAlAzar()
        let clave = ServicioWeb.claveAlAzar()
        let momento = ahora()
        estado.withLock { estado in
            estado.sesiones = estado.sesiones.filter {
                momento - $0.value.ultimoUso < Self.inactividadMaxima
            }
            if estado.sesiones.count >= Self.maximo,
                let vieja = estado.sesiones.min(by: { $0.value.ultimoUso < $1.value.ultimoUso })
            {
                estado.sesiones[vieja.key] = nil
            }
            estado.sesiones[id] = Sesion(claveDePagina: clave, ultimoUso: momento)
        }
        return (id, clave)
    }

    /// The page key of a live session, which counts as used now.
    func claveDePagina(de id: String) -> String? {
        let momento = ahora()
        return estado.withLock { estado in
            guard var sesion = estado.sesiones[id] else { return nil }
            guard momento - sesion.ultimoUso < Self.inactividadMaxima else {
                estado.sesiones[id] = nil
                return nil
            }
            sesion.ultimoUso = momento
            estado.sesiones[id] = sesion
            return sesion.claveDePagina
        }
    }

    func cerrar(_ id: String) { estado.withLock { _ = $0.sesiones.removeValue(forKey: id) } }

    /// Whether another login may be tried now (fewer than `fallosPorMinuto` failures in the
    /// last minute).
    var sePuedeIntentar: Bool {
        let momento = ahora()
        return estado.withLock { estado in
            estado.fallos.removeAll { momento - $0 >= 60 }
            return estado.fallos.count < Self.fallosPorMinuto
        }
    }

    func anotarFallo() {
        let momento = ahora()
        estado.withLock { $0.fallos.append(momento) }
    }
}
