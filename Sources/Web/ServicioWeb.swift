import Aplicacion
import Avisos
import Persistencia
import Servidor
import Sistema
import Synchronization
import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `marcador servir` (screen.md): the HTTP server with its pages, API and event stream and the
/// runs the pages start, wired to one core, beside a dispatcher for every channel
/// (`reparto`, a service of its own in the same group). The CLI builds it, starts it
/// listening and runs it in its group; nothing here knows about the terminal.
@MainActor
public final class ServicioWeb: Servicio {
    public struct Configuracion: Sendable {
        public var direccion: String
        public var puerto: Int
        /// The server's key (`--token`): with it, only who gives it may enter; required off
        /// loopback. Without it, pages get a key made at random at each start.
        public var token: String?

        public init(direccion: String, puerto: Int, token: String?) {
            self.direccion = direccion
            self.puerto = puerto
            self.token = token
        }
    }

    public enum FalloAlArrancar: Error, Sendable {
        /// libevent (Debian's libevent-2.1-7) is not installed.
        case faltaLibevent
        /// The address or port cannot be listened on (errno).
        case noSePuedeEscuchar(Int32)
    }

    let nucleo: Nucleo
    let configuracion: Configuracion
    let juegos: Juegos
    /// The dispatcher that delivers what the pages' runs queue (and everyone else's): run it
    /// in the same group, before this service, so it stops after it.
    public let reparto: VigilanciaDeAvisos
    private var servidor: HTTPServer?
    private var escuchas: [any Escucha] = []

    /// - Parameters:
    ///   - alFallarCanal: told about each channel that cannot work here.
    ///   - alFallarCambios: told when the store's changes cannot be read (the streams wait).
    public init(
        nucleo: Nucleo, configuracion: Configuracion,
        alFallarCanal: @escaping @Sendable (FalloDeCanal) -> Void
    ) throws {
        self.nucleo = nucleo
        self.configuracion = configuracion
        juegos = Juegos(nucleo: nucleo, registro: nucleo.registro())
        var paraElReparto = Despachador.Configuracion()
        paraElReparto.sondeo = .milliseconds(200)
        reparto = try VigilanciaDeAvisos(
            Reparto(nucleo, alFallarCanal: alFallarCanal), configuracion: paraElReparto)
    }

    /// Listens and returns the port it listens on; requests are served from now on.
    public func arrancar(alFallarCambios: @escaping @Sendable (any Error) -> Void) async throws
        -> Int
    {
        Self.ampliarLimiteDeFicheros()
        let instancia = String(ServicioWeb.claveAlAzar().prefix(12))
        let fuente = FuenteDeCambios(
            cambios: nucleo.tienda.cambios, repositorio: nucleo.tienda.partidos,
            instancia: instancia)
        // Set once the server runs: whoever commits a change tells the streams at once.
        let servidorEnMarcha = Mutex<HTTPServer?>(nil)
        let avisar: @Sendable () -> Void = {
            fuente.avisar()
            servidorEnMarcha.withLock { $0 }?.wake()
        }
        let rutas = RutasWeb(
            nucleo: nucleo, acceso: Acceso(clave: configuracion.token),
            direccion: configuracion.direccion,
            juegos: juegos,
            avisarCambios: avisar, instancia: instancia,
            carpetaDeAdjuntos: Enriquecedor.carpetaPorDefecto(entorno: nucleo.entorno))
        // The store says when there are changes — PostgreSQL's LISTEN, or a watch of SQLite's
        // write-ahead log — and stop requests for the runs this server plays (PostgreSQL;
        // on SQLite, SIGUSR1 wakes it). Without either, the loop looks every tick.
        let juegos = self.juegos
        let cambios = nucleo.tienda.escuchar(.cambios) { _ in avisar() }
        escuchas = [
            cambios,
            nucleo.tienda.escuchar(.parar) { _ in Task { @MainActor in juegos.revisarParadas() } },
        ].compactMap { $0 }
        fuente.soloAlAvisar = cambios != nil
        let direccion = configuracion.direccion
        var http = HTTPServerConfiguration(
            address: direccion == "localhost" ? "127.0.0.1" : direccion, port: configuracion.puerto,
            feed: fuente
        ) { rutas.responder($0) }
        http.onFeedError = alFallarCambios
        // What the network costs the server is bounded (issue 41); when it stops accepting for
        // a while, the log says so, once per interval.
        let registro = nucleo.registro()
        http.onWarning = { registro.anotar("servir: " + $0) }
        http.rejection = { RutasWeb.rechazo($0) }
        do {
            let servidor = try await HTTPServer.start(http)
            self.servidor = servidor
            servidorEnMarcha.withLock { $0 = servidor }
        } catch HTTPServerError.libraryMissing {
            throw FalloAlArrancar.faltaLibevent
        } catch HTTPServerError.cannotListen(let codigo) {
            throw FalloAlArrancar.noSePuedeEscuchar(codigo)
        }
        return servidor?.port ?? configuracion.puerto
    }

    /// A wake-up from outside (SIGUSR1): the store may hold a stop request for a run of ours.
    public func revisarParadas() { juegos.revisarParadas() }

    /// Serves until its group stops it, then stops (`parar`).
    public func run() async {
        await hastaQueLoParen()
        await parar()
    }

    /// Stops taking requests and ends the runs it started (CANCELADO); what they queued is
    /// left to the dispatcher, which stops after this.
    public func parar() async {
        servidor?.stop()
        await juegos.detenerTodos()
        await servidor?.stopped()
        for escucha in escuchas { escucha.parar() }
        escuchas = []
    }

    /// The `Host` values that name this server: its address and, on loopback, its other names.
    public nonisolated static func hosts(direccion: String, puerto: Int) -> Set<String> {
        var nombres: Set<String> = [direccion.contains(":") ? "[\(direccion)]" : direccion]
        if esLocal(direccion) { nombres.formUnion(["localhost", "127.0.0.1", "[::1]"]) }
        return Set(nombres.map { "\($0.lowercased()):\(puerto)" })
    }

    /// Loopback only: this machine.
    public nonisolated static func esLocal(_ direccion: String) -> Bool {
        direccion == "localhost" || direccion == "::1" || direccion.hasPrefix("127.")
    }

    /// 128 random bits in hex (Swift's system generator reads the kernel's, getrandom(2)).
    public nonisolated static func claveAlAzar() -> String {
        var generador = SystemRandomNumberGenerator()
        return (0..<16).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generador)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }

    /// A thousand open pages need a thousand sockets: the soft limit goes up to the hard one.
    private static func ampliarLimiteDeFicheros() {
        var limite = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limite) == 0,
            limite.rlim_cur < limite.rlim_max
        else { return }
        limite.rlim_cur = limite.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limite)
    }
}
