import Torneo

/// The store's log of changes for the screen (screen.md): read by `marcador servir`, written by
/// the store itself for runs and by the `navegador` channel for notices.
public protocol Cambios: Sendable {
    /// The newest change's id (0 when there is none): where a page that loaded the state now
    /// starts listening.
    func ultimo() throws -> Int
    /// The oldest id still kept, or `nil` when none is: a page that last saw an id before it
    /// has missed pruned changes and must reload.
    func primero() throws -> Int?
    /// Changes after `id`, oldest first, at most `limite`.
    func desde(_ id: Int, limite: Int) throws -> [Cambio]
    /// Records that the `navegador` channel delivered `avisos` (one change each, one write).
    func notificar(_ avisos: [AvisoDeGol]) throws
    /// The local copy of a notified attachment (change `id`), for the server to send.
    func imagen(de id: Int) throws -> String?
}
