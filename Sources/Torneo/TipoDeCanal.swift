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
    /// One iPhone (or iPad): its device token, through APNs' provider API (contract.md §19).
    case dispositivoAPNs = "apns-dispositivo"
    /// One browser's Web Push subscription (RFC 8030/8291/8292), open or closed.
    case webpush

    /// A device, added and removed with `marcador dispositivos`, never with `avisos canales`.
    public var esDispositivo: Bool { self == .dispositivoAPNs || self == .webpush }

    /// The types `avisos canales añadir` takes.
    public static var configurables: [TipoDeCanal] { allCases.filter { !$0.esDispositivo } }

    /// The process-local channel of the terminal watching a run: not configurable, not a type
    /// a user adds; its deliveries belong to the process that plays the run.
    public static let nombreTerminal = "terminal"

    /// `registro, escritorio, webhook, apns, navegador`: for messages that list what is accepted.
    public static var lista: String {
        configurables.map(\.rawValue).joined(separator: ", ")
    }
}
