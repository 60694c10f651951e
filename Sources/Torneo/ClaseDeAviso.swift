/// The kinds of notice a channel may choose (`--avisar goles,anulados,rojas,alineaciones,
/// inicio,descanso,final,recordatorio`, directo.md). By default a channel gets goals and annulments: the alert
/// and its correction.
public enum ClaseDeAviso: String, Sendable, Hashable, CaseIterable, Comparable {
    case goles, anulados, rojas, alineaciones, inicio, descanso, final, recordatorio

    public static let porDefecto: Set<ClaseDeAviso> = [.goles, .anulados]
    /// How long before kick-off a reminder comes when a channel does not say (`--antes`).
    public static let antesPorDefecto: Double = 15 * 60

    /// `goles,anulados` (spaces allowed, order free, no repeats needed).
    public static func leer(_ texto: String) -> Set<ClaseDeAviso>? {
        let partes = texto.split(separator: ",").map {
            String($0.filter { !$0.isWhitespace }).lowercased()
        }
        guard !partes.isEmpty else { return nil }
        var clases: Set<ClaseDeAviso> = []
        for parte in partes {
            guard let clase = ClaseDeAviso(rawValue: parte) else { return nil }
            clases.insert(clase)
        }
        return clases
    }

    /// As stored and shown: in the order of `allCases`.
    public static func texto(_ clases: Set<ClaseDeAviso>) -> String {
        allCases.filter(clases.contains).map(\.rawValue).joined(separator: ",")
    }

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// A channel's quiet hours (`--horas-tranquilas 23:00-08:00`, in the user's zone): notices
/// still go out, without sound or banner where the channel can. A range may cross midnight.
public struct HorasTranquilas: Sendable, Hashable, CustomStringConvertible {
    /// Minutes since midnight, the start included and the end not.
    public let desde: Int
    public let hasta: Int

    public init?(_ texto: String) {
        let partes = texto.split(separator: "-", omittingEmptySubsequences: false)
        guard partes.count == 2, let desde = HoraDeSaque(String(partes[0])),
            let hasta = HoraDeSaque(String(partes[1])), desde.desplazamiento == nil,
            hasta.desplazamiento == nil
        else { return nil }
        self.desde = desde.hora * 60 + desde.minuto
        self.hasta = hasta.hora * 60 + hasta.minuto
        guard self.desde != self.hasta else { return nil }
    }

    /// Whether `minutoDelDia` (0–1439, local) falls in them.
    public func contienen(_ minutoDelDia: Int) -> Bool {
        desde < hasta
            ? (desde..<hasta).contains(minutoDelDia)
            : minutoDelDia >= desde || minutoDelDia < hasta
    }

    public var description: String {
        func reloj(_ m: Int) -> String { HoraDeSaque(hora: m / 60, minuto: m % 60)!.reloj }
        return "\(reloj(desde))-\(reloj(hasta))"
    }
}
