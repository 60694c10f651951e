/// A channel as stored: its name, its type, whether it is on, and its settings (a JSON object
/// that only the channel's own code reads).
public struct CanalConfigurado: Sendable, Hashable {
    public var nombre: String
    public var tipo: TipoDeCanal
    public var activo: Bool
    public var ajustes: String

    public init(nombre: String, tipo: TipoDeCanal, activo: Bool = true, ajustes: String = "{}") {
        self.nombre = nombre
        self.tipo = tipo
        self.activo = activo
        self.ajustes = ajustes
    }
}
