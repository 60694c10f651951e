/// A notice with the state of its deliveries, for `marcador avisos`.
public struct AvisoEnBuzon: Sendable, Hashable {
    public let id: Int
    public let aviso: AvisoDeGol
    public let creado: Double
    public let entregas: [EntregaDeAviso]
    /// `true` enriched, `false` delivered as the original, `nil` no attachment or not tried.
    public let enriquecido: Bool?
    public let motivoDelAdjunto: String?

    public init(
        id: Int, aviso: AvisoDeGol, creado: Double, entregas: [EntregaDeAviso], enriquecido: Bool?,
        motivoDelAdjunto: String?
    ) {
        self.id = id
        self.aviso = aviso
        self.creado = creado
        self.entregas = entregas
        self.enriquecido = enriquecido
        self.motivoDelAdjunto = motivoDelAdjunto
    }
}

/// One channel's delivery of a notice, as `avisos` shows it.
public struct EntregaDeAviso: Sendable, Hashable, Codable {
    public let canal: String
    public let estado: EstadoDeEntrega
    /// Attempts with a recorded outcome.
    public let intentos: Int
    public let ultimoError: String?

    public init(canal: String, estado: EstadoDeEntrega, intentos: Int, ultimoError: String?) {
        self.canal = canal
        self.estado = estado
        self.intentos = intentos
        self.ultimoError = ultimoError
    }
}
