import Torneo

/// Keeping the store from growing without end (safety.md): the log keeps its last days or
/// lines, pending deliveries nobody took within their notice's time-to-live expire, and notices
/// whose deliveries are all settled are pruned after their time-to-live plus a margin, their
/// counts kept.
public protocol Mantenimiento: Sendable {
    /// Prunes what `ajustes` no longer keeps and what is older than `caducidad + margen`.
    @discardableResult
    func podar(ahora: Double, caducidad: Double, margen: Double) throws -> Poda

    /// Whether this caller is the one to prune now: true for one caller per `intervalo`
    /// seconds of `ahora` across every process on the store (and again if the clock went back
    /// before the last prune), false for everyone else in between.
    func tocaPodar(ahora: Double, intervalo: Double) throws -> Bool
}

/// What one pruning removed.
public struct Poda: Sendable, Hashable {
    public var lineasDeRegistro = 0
    public var avisos = 0
    /// Pending deliveries that outlived their notice's time-to-live, now `caducada`.
    public var caducadas = 0

    public init(lineasDeRegistro: Int = 0, avisos: Int = 0, caducadas: Int = 0) {
        self.lineasDeRegistro = lineasDeRegistro
        self.avisos = avisos
        self.caducadas = caducadas
    }
}

extension Mantenimiento {
    /// Prunes with the notices' usual time-to-live (600 s) and an hour's margin.
    @discardableResult
    public func podar(ahora: Double) throws -> Poda {
        try podar(ahora: ahora, caducidad: 600, margen: 3_600)
    }
}
