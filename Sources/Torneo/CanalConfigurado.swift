/// A channel as stored: its name, its type, whether it is on, and its settings (a JSON object
/// that only the channel's own code reads).
public struct CanalConfigurado: Sendable, Hashable {
    public var nombre: String
    public var tipo: TipoDeCanal
    public var activo: Bool
    public var ajustes: String
    /// What it follows; empty: every goal.
    public var filtros: FiltrosDeCanal
    /// The kinds of notice it gets (`--avisar`).
    public var avisar: Set<ClaseDeAviso> = ClaseDeAviso.porDefecto
    /// When it gets them quietly (`--horas-tranquilas`), if ever.
    public var horasTranquilas: HorasTranquilas?
    /// Seconds its notices wait after the event (`--retraso`): a stream lags the pitch.
    public var retraso: Double = 0
    /// Seconds before kick-off its reminders come (`--antes`); `nil`: 15 minutes.
    public var antes: Double?

    public init(
        nombre: String, tipo: TipoDeCanal, activo: Bool = true, ajustes: String = "{}",
        filtros: FiltrosDeCanal = FiltrosDeCanal()
    ) {
        self.nombre = nombre
        self.tipo = tipo
        self.activo = activo
        self.ajustes = ajustes
        self.filtros = filtros
    }
}
