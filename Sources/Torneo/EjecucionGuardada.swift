/// A stored run of a match: what `--reanudar` continues from and what `partidos` shows.
public struct EjecucionGuardada: Sendable, Hashable {
    public enum Estado: String, Sendable, Hashable {
        /// Only manual goals so far: no `jugar` has started it.
        case sinEmpezar = "sin_empezar"
        case enJuego = "en_juego"
        case terminado
        case cancelado
    }

    public var id: Int
    public var partidoId: Int
    public var codigo: String
    public var duracion: Int
    /// Whether `--duracion` fixed it (otherwise it follows `ajustes duracion`).
    public var duracionFija: Bool
    public var msPorMinuto: Int
    public var estado: Estado
    public var minuto: Int
    public var goles: Marcador
    public var golesAMano: Marcador
    public var ultimoAviso: String
    /// The process playing it is still alive (meaningful while `estado == .enJuego`).
    public var propietarioVivo: Bool
    /// The process id playing it, if any.
    public var pid: Int?
    /// When it started and ended (ISO 8601 UTC), for the match card.
    public var empezada: String?
    public var acabada: String?

    public init(
        id: Int, partidoId: Int, codigo: String, duracion: Int, duracionFija: Bool,
        msPorMinuto: Int, estado: Estado, minuto: Int, goles: Marcador, golesAMano: Marcador,
        ultimoAviso: String, propietarioVivo: Bool, pid: Int?, empezada: String? = nil,
        acabada: String? = nil
    ) {
        self.empezada = empezada
        self.acabada = acabada
        self.id = id
        self.partidoId = partidoId
        self.codigo = codigo
        self.duracion = duracion
        self.duracionFija = duracionFija
        self.msPorMinuto = msPorMinuto
        self.estado = estado
        self.minuto = minuto
        self.goles = goles
        self.golesAMano = golesAMano
        self.ultimoAviso = ultimoAviso
        self.propietarioVivo = propietarioVivo
        self.pid = pid
    }

    /// How `partidos` names this run's standing.
    public var estadoDelPartido: EstadoDelPartido {
        Self.estadoDelPartido(estado, minuto: minuto, propietarioVivo: propietarioVivo)
    }

    /// A run's standing from the three facts it depends on, for readers that fetch only those.
    public static func estadoDelPartido(_ estado: Estado, minuto: Int, propietarioVivo: Bool)
        -> EstadoDelPartido
    {
        switch estado {
        case .sinEmpezar: .sinEmpezar
        case .enJuego: propietarioVivo ? .enJuego : .interrumpido(enElMinuto: minuto)
        case .terminado: .terminado
        case .cancelado: .cancelado(enElMinuto: minuto)
        }
    }
}
