import Sistema
import Torneo

/// A configured channel ready to deliver here, with what identifies its configuration: a lane
/// is replaced when the firma changes (a webhook's new URL), and kept otherwise.
public struct CanalActivo: Sendable {
    public let notificador: any Notificador
    public let firma: String
    /// When its notices go out quietly (`--horas-tranquilas`, in the user's zone).
    public let horasTranquilas: HorasTranquilas?

    public init(
        notificador: any Notificador, firma: String = "", horasTranquilas: HorasTranquilas? = nil
    ) {
        self.notificador = notificador
        self.firma = firma
        self.horasTranquilas = horasTranquilas
    }

    /// Whether a notice delivered at `segundos` (unix) falls in its quiet hours.
    public func tranquilo(en segundos: Double) -> Bool {
        guard let horasTranquilas else { return false }
        let local = ZonaHoraria.local(Int(segundos)).hora
        return horasTranquilas.contienen(local.hora * 60 + local.minuto)
    }

    public var nombre: String { notificador.canal }
}
