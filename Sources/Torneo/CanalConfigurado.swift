/// A channel as stored: its name, its type, whether it is on, and its settings (a JSON object
/// that only the channel's own code reads).
public struct CanalConfigurado: Sendable, Hashable {
    public var nombre: String
    public var tipo: TipoDeCanal
    public var activo: Bool
    public var ajustes: String
    /// What it follows; empty: every goal.
    public var filtros: FiltrosDeCanal

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
