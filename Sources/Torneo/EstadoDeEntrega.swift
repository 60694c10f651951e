/// Where one delivery of a notice to one channel stands. Stored as its raw value.
public enum EstadoDeEntrega: String, Sendable, Hashable, CaseIterable, Codable {
    /// Waiting for a dispatcher (possibly leased by one right now).
    case pendiente
    /// The channel gave positive evidence of delivery (HTTP 2xx, file renamed, daemon accepted).
    case entregada
    /// Dead letter: failed for good, visible in `avisos`, re-queueable with `avisos reintentar`.
    case fallida
    /// Not published: no permission, its channel was removed, or it does not follow the match.
    case descartada
    /// Older than the time-to-live, or its terminal is gone: a late goal alert is worse than none.
    case caducada

    /// The plural a summary line uses: «3 pendientes».
    public var plural: String {
        switch self {
        case .pendiente: "pendientes"
        case .entregada: "entregadas"
        case .fallida: "fallidas"
        case .descartada: "descartadas"
        case .caducada: "caducadas"
        }
    }
}
