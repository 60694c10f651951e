/// The kinds of notification channel a user can configure (delivery.md, §11).
public enum TipoDeCanal: String, Sendable, Hashable, CaseIterable, Codable {
    /// The log line «notificación «¡Gol!» enviada: …»; on by default.
    case registro
    /// Freedesktop notifications through `notify-send`.
    case escritorio
    /// HTTP POST of a JSON document.
    case webhook
    /// `.apns` payload files.
    case apns
    /// Open pages of `marcador servir`, through their Service Worker.
    case navegador

    /// The process-local channel of the terminal watching a run: not configurable, not a type
    /// a user adds; its deliveries belong to the process that plays the run.
    public static let nombreTerminal = "terminal"

    /// `registro, escritorio, webhook, apns, navegador`: for messages that list what is accepted.
    public static var lista: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
