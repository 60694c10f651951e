import Torneo

/// A notification channel: something that can show or send a goal notice.
///
/// Like swift-log's backends, it receives one value describing the whole event (identifier,
/// title, body, minute, player, team, score, attachment) and knows nothing of the outbox: the
/// dispatcher decides when to call it, how often to retry and what to record.
public protocol Notificador: Sendable {
    /// The channel's name as configured (`registro`, `webhook`, `mi-ntfy`…).
    var canal: String { get }

    /// A channel that answers at once and never waits on anything (the log, the terminal): its
    /// lane delivers a whole batch in place, in order, instead of a task per match.
    var esInmediato: Bool { get }

    /// Publishes `aviso` now. Outcomes only on evidence: returning means the other side
    /// accepted it (HTTP 2xx, file renamed, daemon answered).
    /// - Throws: `FalloDeEntrega`, saying whether trying again later may work;
    ///   `CancellationError` when the task was cancelled mid-delivery (nothing is known).
    func notificarGol(_ aviso: AvisoDeGol) async throws

    /// Publishes several notices in order (of one run, or, to a channel that answers at once,
    /// of several runs one after another), each with its own outcome (`nil` delivered). A
    /// channel that can do it in one go (the log, in one transaction) overrides it. The
    /// outcomes may cover only the first notices: after a failure worth retrying the later ones
    /// are not attempted (they wait behind it, delivery.md order) and are given back.
    /// - Throws: `CancellationError` only; the outcomes of a cancelled batch are unknown.
    func notificarGoles(_ avisos: [AvisoDeGol]) async throws -> [FalloDeEntrega?]

    /// For a channel whose delivery *is* a line of the store's own log (`registro`): that line.
    /// A dispatcher then calls nothing and stores the line with the delivery's outcome, in one
    /// transaction, so the line exists exactly when the delivery counts (issue 41). `nil`: the
    /// channel publishes by itself.
    func lineaEnLaTienda(_ aviso: AvisoDeGol) -> String?
}

extension Notificador {
    public var esInmediato: Bool { false }

    public func lineaEnLaTienda(_ aviso: AvisoDeGol) -> String? { nil }

    public func notificarGoles(_ avisos: [AvisoDeGol]) async throws -> [FalloDeEntrega?] {
        var fallos: [FalloDeEntrega?] = []
        for aviso in avisos {
            do {
                try await notificarGol(aviso)
                fallos.append(nil)
            } catch let fallo as FalloDeEntrega {
                fallos.append(fallo)
                if fallo.reintentable { break }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                fallos.append(FalloDeEntrega("\(error)", reintentable: true))
                break
            }
        }
        return fallos
    }
}

/// Why a channel could not publish, and whether a later attempt may succeed.
public struct FalloDeEntrega: Error, Sendable, Hashable, CustomStringConvertible {
    public var motivo: String
    /// Worth retrying (timeouts, 5xx, 429…); otherwise it fails at once (other 4xx…).
    public var reintentable: Bool
    /// What the other side asked for (`Retry-After`), in seconds.
    public var reintentarTras: Double?
    /// The destination no longer exists (a device uninstalled the app, a browser
    /// unsubscribed): the device is removed with this outcome.
    public var destinoRetirado: Bool

    public init(
        _ motivo: String, reintentable: Bool, reintentarTras: Double? = nil,
        destinoRetirado: Bool = false
    ) {
        self.motivo = motivo
        self.reintentable = reintentable && !destinoRetirado
        self.reintentarTras = reintentarTras
        self.destinoRetirado = destinoRetirado
    }

    public var description: String { motivo }
}
