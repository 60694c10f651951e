/// One stored log line.
public struct LineaDeRegistro: Sendable, Hashable, Codable {
    public var id: Int
    /// ISO 8601 UTC with milliseconds (`Dialecto.ahora`).
    public var momento: String
    public var partidoId: Int?
    public var linea: String

    public init(id: Int, momento: String, partidoId: Int?, linea: String) {
        self.id = id
        self.momento = momento
        self.partidoId = partidoId
        self.linea = linea
    }
}
