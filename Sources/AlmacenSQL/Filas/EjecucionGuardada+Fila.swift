import Sistema
import Torneo

extension EjecucionGuardada {
    /// The columns `init(fila:)` reads, from `ejecucion` under the alias `e`.
    static func columnas(_ dialecto: Dialecto) -> String {
        """
        e.id, e.partido_id, e.codigo, e.duracion, e.duracion_fija, e.ms_por_minuto, e.estado,
        e.minuto, e.goles_local, e.goles_visitante, e.mano_local, e.mano_visitante,
        e.ultimo_aviso, e.pid, e.pid_inicio, e.anfitrion, e.empezada, e.acabada,
        \(dialecto.segundosDesde("e.latido")) AS latido_hace
        """
    }

    /// A run as `columnas` reads it; whether its owner lives is judged here (the OS on this
    /// host, the heartbeat for another).
    init(fila: some FilaSQL) throws {
        let estado: Estado = try fila.almacenado("estado", tabla: "ejecucion")
        let pid = fila.optionalInt("pid")
        let propietario = pid.map {
            Propietario(
                anfitrion: fila.optionalString("anfitrion") ?? "", pid: $0,
                inicio: fila.optionalInt("pid_inicio") ?? 0)
        }
        let msPorMinuto = fila.int("ms_por_minuto")
        self.init(
            id: fila.int("id"), partidoId: fila.int("partido_id"), codigo: fila.string("codigo"),
            duracion: fila.int("duracion"), duracionFija: fila.bool("duracion_fija"),
            msPorMinuto: msPorMinuto, estado: estado, minuto: fila.int("minuto"),
            goles: Marcador(local: fila.int("goles_local"), visitante: fila.int("goles_visitante")),
            golesAMano: Marcador(
                local: fila.int("mano_local"), visitante: fila.int("mano_visitante")),
            ultimoAviso: fila.string("ultimo_aviso"),
            propietarioVivo: estado == .enJuego
                && (propietario?.sigueVivo(
                    latidoHace: fila.optionalDouble("latido_hace"), msPorMinuto: msPorMinuto)
                    ?? false),
            pid: pid, empezada: fila.optionalString("empezada"),
            acabada: fila.optionalString("acabada"))
    }
}

extension Propietario {
    /// The owner columns of a run (`pid`, `pid_inicio`, `anfitrion`), `nil` when it has none.
    init?(fila: some FilaSQL) {
        guard let pid = fila.optionalInt("pid") else { return nil }
        self.init(
            anfitrion: fila.optionalString("anfitrion") ?? "", pid: pid,
            inicio: fila.optionalInt("pid_inicio") ?? 0)
    }
}
