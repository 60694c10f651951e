import Motor
import Persistencia
import Sistema
import Torneo

/// The application core (architecture.md): every use case of marcador, on any store, for any
/// front end. Playing, relaunching, resuming and stopping runs (`Juegos`), manual goals,
/// settings, imports, fan queries, channels, test notices and hosting the dispatchers
/// (`Reparto`) live here once; the command line and `servir` only parse, call and render, and
/// neither calls the other's types.
///
/// Its methods are synchronous calls into the store; front ends call them from their own
/// threads (the main thread, the web server's loop), never from the cooperative pool.
public struct Nucleo: Sendable {
    public let tienda: any Tienda
    /// The environment the channels and caches need (`HOME`, `XDG_CACHE_HOME`,
    /// `DBUS_SESSION_BUS_ADDRESS`…).
    public let entorno: [String: String]
    /// This process, as the owner of the runs it plays.
    public let propietario: Propietario
    /// What every wait of the use cases (minutes, polls, leases) waits on.
    public let reloj: Reloj
    /// How this process reaches the owners of the runs a use case stops.
    public let despertador: Despertador

    public init(
        tienda: any Tienda, entorno: [String: String], propietario: Propietario = .actual,
        reloj: Reloj = .continuo, despertador: Despertador = Despertador()
    ) {
        self.tienda = tienda
        self.entorno = entorno
        self.propietario = propietario
        self.reloj = reloj
        self.despertador = despertador
    }

    /// How messages name the store (a path, or a URL without its password).
    public var descripcion: String { tienda.descripcion }

    /// The store's clock, for everything the outbox times (architecture.md).
    public func ahora() -> Double { tienda.ahora() }

    /// The log; with `eco` each line goes to stderr too.
    public func registro(eco: Bool = true) -> any Registro { tienda.registro(eco: eco) }

    /// The match `id`, or the user's «no such match» (66 / 404).
    public func partidoExistente(_ id: Int) throws -> Partido {
        guard let partido = try tienda.partidos.partido(id: id) else {
            throw Fallo.noEncontrado(
                "No existe el partido \(id). Mira los que hay con «marcador partidos».")
        }
        return partido
    }

    /// The stored competition a user's `texto` names (without case, accents or punctuation).
    public func buscarCompeticion(_ texto: String) throws -> String {
        try Nombres.buscar(
            texto, entre: tienda.partidos.nombresDeCompeticiones(),
            clase: "competición", plural: "competiciones", femenino: true)
    }

    /// The stored team a user's `texto` names.
    public func buscarEquipo(_ texto: String) throws -> String {
        try Nombres.buscar(
            texto, entre: tienda.partidos.equipos(), clase: "equipo", plural: "equipos")
    }

    /// Prunes what the settings no longer keep (safety.md), by the store's clock.
    public func podar() throws {
        try tienda.mantenimiento.podar(ahora: ahora())
    }

    /// Seconds between the prunes commands and dispatchers run as a matter of course: the log
    /// and the outbox overshoot their limits by at most what one minute adds.
    public static let intervaloDePoda: Double = 60

    /// `podar` unless another command or dispatcher on this store pruned within the last
    /// `intervaloDePoda` (a setting that changes what is kept prunes at once, with `podar`).
    public func podarSiToca() throws {
        let ahora = ahora()
        let mantenimiento = tienda.mantenimiento
        guard try mantenimiento.tocaPodar(ahora: ahora, intervalo: Self.intervaloDePoda) else {
            return
        }
        try mantenimiento.podar(ahora: ahora)
    }
}
