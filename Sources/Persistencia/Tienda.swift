import Torneo

/// Everything a command needs from the store, whichever it is (postgresql.md): SQLite, the
/// embedded default, or PostgreSQL. Commands use only these protocols.
public protocol Tienda: Sendable {
    /// How messages name it: the file's path, or the URL without its password.
    var descripcion: String { get }
    /// The store's clock, unix seconds with a fraction (architecture.md): leases, heartbeats,
    /// retries and time-to-live all use it, never each client's own, so a process whose clock
    /// is off redelivers nothing.
    func ahora() -> Double
    /// A file the seed data ships inside the binary (`gol.gif`, the seed's attachment), or
    /// `nil` when there is no such file.
    func ficheroDeSemilla(_ nombre: String) -> [UInt8]?
    var partidos: any PartidosRepositorio { get }
    var ejecuciones: any Ejecuciones { get }
    var buzon: any Buzon { get }
    var difusiones: any Difusiones { get }
    var cambios: any Cambios { get }
    var mantenimiento: any Mantenimiento { get }
    var importacion: any Importacion { get }
    var fuentes: any Fuentes { get }
    /// `--reiniciar-datos`: replaces every match, team and player (and what hangs from them)
    /// with the seed, in one write transaction. Settings, channels and the log are kept.
    /// - Returns: how many matches there were before and how many the seed leaves.
    @discardableResult
    func reiniciarDatos() throws -> (antes: Int, despues: Int)
    /// The log; `eco` also writes each line to stderr.
    func registro(eco: Bool) -> any Registro
    /// Log entries, oldest first; the last `limite` of them when given.
    func lineasDelRegistro(partido: Int?, limite: Int?) throws -> [LineaDeRegistro]
    /// Calls `alLlegar` with each notification of `canal`, whoever commits it (PostgreSQL's
    /// LISTEN; on SQLite this process's commits and a watch of the write-ahead log), until the
    /// returned value is stopped. `nil` where the store cannot tell (readers then poll).
    func escuchar(_ canal: CanalDeNotificacion, _ alLlegar: @escaping @Sendable (String) -> Void)
        -> (any Escucha)?
    /// The same, where only this process's commits matter (`jugar`'s dispatcher serves what
    /// its own run enqueues); a store that cannot tell them apart tells everything.
    func escucharEsteProceso(
        _ canal: CanalDeNotificacion, _ alLlegar: @escaping @Sendable (String) -> Void
    ) -> (any Escucha)?
}

extension Tienda {
    public func escucharEsteProceso(
        _ canal: CanalDeNotificacion, _ alLlegar: @escaping @Sendable (String) -> Void
    ) -> (any Escucha)? {
        escuchar(canal, alLlegar)
    }
}

/// What a store announces as it commits (PostgreSQL's NOTIFY, sent by triggers).
public enum CanalDeNotificacion: String, Sendable, CaseIterable {
    /// New or rescheduled deliveries: dispatchers look for work.
    case entregas = "marcador_entregas"
    /// New changes in the log: `servir` streams them.
    case cambios = "marcador_cambios"
    /// A stop request for a run; the payload is its id.
    case parar = "marcador_parar"
}

/// A running LISTEN.
public protocol Escucha: Sendable {
    func parar()
}
