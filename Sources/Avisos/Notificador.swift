import Torneo

/// A notification channel: something that can show or send a goal notice.
///
/// Like swift-log's backends, it receives one value describing the whole event (identifier,
/// title, body, minute, player, team, score, attachment) and knows nothing of the outbox: the
/// dispatcher decides when to call it, how often to retry and what to record.
public protocol Notificador: Sendable {
    /// The channel's name as stored (`registro`, `webhook`, …).
    var canal: String { get }

    /// Publishes `aviso` now.
    /// - Throws: `FalloDeEntrega`, saying whether trying again later may work.
    func notificarGol(_ aviso: AvisoDeGol) async throws
}

/// Why a channel could not publish, and whether a later attempt may succeed.
public struct FalloDeEntrega: Error, Sendable, Hashable, CustomStringConvertible {
    public var motivo: String
    /// Worth retrying (timeouts, 5xx, 429…); otherwise it fails at once (other 4xx…).
    public var reintentable: Bool
    /// What the other side asked for (`Retry-After`), in seconds.
    public var reintentarTras: Double?

    public init(_ motivo: String, reintentable: Bool, reintentarTras: Double? = nil) {
        self.motivo = motivo
        self.reintentable = reintentable
        self.reintentarTras = reintentarTras
    }

    public var description: String { motivo }
}
