/// A configured channel ready to deliver here, with what identifies its configuration: a lane
/// is replaced when the firma changes (a webhook's new URL), and kept otherwise.
public struct CanalActivo: Sendable {
    public let notificador: any Notificador
    public let firma: String

    public init(notificador: any Notificador, firma: String = "") {
        self.notificador = notificador
        self.firma = firma
    }

    public var nombre: String { notificador.canal }
}
