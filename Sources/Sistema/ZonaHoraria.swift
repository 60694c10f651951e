import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The user's time zone, as the C library knows it: `TZ` (`Europe/Madrid`, `UTC`,
/// `America/Mexico_City`) with the system's zone files, else `/etc/localtime`. A zone the
/// system does not know reads as UTC, as glibc does.
public enum ZonaHoraria {
    /// The wall time at `segundos` (since 1970 UTC) in the user's zone, and the zone's offset
    /// then (minutes east of UTC: summer time included).
    public static func local(_ segundos: Int) -> (
        fecha: FechaDeCalendario, hora: HoraDeSaque, desplazamiento: Int
    ) {
        // Read once per process: tzset is what makes localtime_r honour a TZ set at start.
        _ = preparada
        var instante = time_t(segundos)
        var partes = tm()
        guard localtime_r(&instante, &partes) != nil,
            let fecha = FechaDeCalendario(
                ano: Int(partes.tm_year) + 1900, mes: Int(partes.tm_mon) + 1,
                dia: Int(partes.tm_mday)),
            let hora = HoraDeSaque(hora: Int(partes.tm_hour), minuto: Int(partes.tm_min))
        else {
            let dias = segundos >= 0 ? segundos / 86_400 : (segundos - 86_399) / 86_400
            let resto = segundos - dias * 86_400
            return (
                FechaDeCalendario(diasDesde1970: dias),
                HoraDeSaque(hora: resto / 3_600, minuto: resto % 3_600 / 60)!, 0
            )
        }
        return (fecha, hora, Int(partes.tm_gmtoff) / 60)
    }

    /// A moment as the stores keep it (`2026-12-04T20:00:17.123Z`, UTC) as the user reads it:
    /// `2026-12-04 21:00:17` in their zone (issue 42: run and log times were shown in raw UTC).
    /// Anything else is returned as it is.
    public static func momentoLocal(_ texto: String) -> String {
        let partes = texto.split(separator: "T", maxSplits: 1)
        guard partes.count == 2, let dia = FechaDeCalendario(String(partes[0])) else {
            return texto
        }
        let reloj = partes[1].prefix(8).split(separator: ":")
        guard reloj.count == 3, let h = Int(reloj[0]), let m = Int(reloj[1]), let s = Int(reloj[2]),
            (0..<24).contains(h), (0..<60).contains(m), (0..<61).contains(s)
        else { return texto }
        let segundos = dia.diasDesde1970 * 86_400 + h * 3_600 + m * 60 + s
        let local = local(segundos)
        let resto = ((segundos % 60) + 60) % 60
        return "\(local.fecha) \(local.hora.reloj):\(resto < 10 ? "0" : "")\(resto)"
    }

    /// Today, in the user's zone.
    public static var hoy: FechaDeCalendario { local(Int(time(nil))).fecha }

    private static let preparada: Void = tzset()
}

extension Saque {
    /// `2018-06-14 17:00` in the user's zone when the instant is known; the venue's time as
    /// written otherwise (`2021-06-11 21:00`); only the day without a time.
    public var textoLocal: String {
        guard let hora else { return fecha.description }
        guard instanteConocido else { return "\(fecha) \(hora.reloj)" }
        let local = ZonaHoraria.local(segundos)
        return "\(local.fecha) \(local.hora.reloj)"
    }

    /// The day of kick-off in the user's zone (the venue's day when the instant is unknown):
    /// what `--fecha`, `--desde` and `--hasta` compare with.
    public var diaLocal: FechaDeCalendario {
        instanteConocido ? ZonaHoraria.local(segundos).fecha : fecha
    }
}
