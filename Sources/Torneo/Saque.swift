/// When a match kicks off: its day and, when the file gives them, its time and the venue's
/// offset from UTC.
public struct Saque: Sendable, Hashable, Comparable {
    public let fecha: FechaDeCalendario
    public let hora: HoraDeSaque?

    public init(fecha: FechaDeCalendario, hora: HoraDeSaque? = nil) {
        self.fecha = fecha
        self.hora = hora
    }

    /// From the stored texts; `nil` without a valid date (a seed match, or an old import).
    public init?(fecha: String?, hora: String?) {
        guard let fecha, let dia = FechaDeCalendario(fecha) else { return nil }
        self.init(fecha: dia, hora: hora.flatMap(HoraDeSaque.init))
    }

    /// Whether the instant is known (the file gave the venue's offset): only then can the
    /// kick-off be shown in another zone.
    public var instanteConocido: Bool { hora?.desplazamiento != nil }

    /// Seconds since 1970-01-01 UTC: the real instant when the offset is known; otherwise the
    /// venue's wall time read as if it were UTC (good for ordering a file's matches among
    /// themselves, which is all it is used for).
    public var segundos: Int {
        var segundos = fecha.diasDesde1970 * 86_400
        if let hora {
            segundos += (hora.hora * 60 + hora.minuto - (hora.desplazamiento ?? 0)) * 60
        }
        return segundos
    }

    /// Kick-off order, then nothing: equal instants are for the caller to order (by id).
    public static func < (a: Saque, b: Saque) -> Bool { a.segundos < b.segundos }
}
