import Torneo

/// Something a page shows changed (screen.md): one event of `GET /eventos`, in commit order.
/// Its id is what a reconnecting page sends back to get exactly what it missed.
public struct Cambio: Sendable, Hashable {
    public enum Clase: String, Sendable, Hashable {
        /// A run's standing: a snapshot of it (`ejecucion`).
        case partido
        /// The `navegador` channel delivered a notice (`aviso`).
        case notificacion
        /// The settings changed.
        case ajustes
        /// The list of matches changed (an import, a reset).
        case partidos
    }

    /// A run's standing as it was written.
    public struct Instantanea: Sendable, Hashable {
        public var ejecucion: Int
        public var estado: EjecucionGuardada.Estado
        public var minuto: Int
        public var goles: Marcador
        public var golesAMano: Marcador
        public var duracion: Int
        /// The lesson's «Último aviso» (`minuto 15 con 1-0`).
        public var ultimoAviso: String

        public init(
            ejecucion: Int, estado: EjecucionGuardada.Estado, minuto: Int, goles: Marcador,
            golesAMano: Marcador, duracion: Int, ultimoAviso: String
        ) {
            self.ultimoAviso = ultimoAviso
            self.ejecucion = ejecucion
            self.estado = estado
            self.minuto = minuto
            self.goles = goles
            self.golesAMano = golesAMano
            self.duracion = duracion
        }
    }

    public var id: Int
    public var clase: Clase
    public var partidoId: Int?
    /// For `.partido`.
    public var instantanea: Instantanea?
    /// For `.notificacion`: the notice as delivered, and the local copy of its attachment.
    public var aviso: AvisoDeGol?
    public var imagen: String?
    /// When that notice was queued (unix seconds): a stale one is not replayed.
    public var avisoCreado: Double?

    public init(
        id: Int, clase: Clase, partidoId: Int? = nil, instantanea: Instantanea? = nil,
        aviso: AvisoDeGol? = nil, imagen: String? = nil
    ) {
        self.id = id
        self.clase = clase
        self.partidoId = partidoId
        self.instantanea = instantanea
        self.aviso = aviso
        self.imagen = imagen
    }
}
