import Torneo

/// A delivery a dispatcher holds the lease of: one notice for one channel.
public struct EntregaReclamada: Sendable, Hashable {
    public let avisoId: Int
    public let canal: String
    /// 1 for the first attempt.
    public let intento: Int
    public let aviso: AvisoDeGol
    /// When the notice was enqueued (unix seconds).
    public let creado: Double

    public init(avisoId: Int, canal: String, intento: Int, aviso: AvisoDeGol, creado: Double) {
        self.avisoId = avisoId
        self.canal = canal
        self.intento = intento
        self.aviso = aviso
        self.creado = creado
    }

    /// The run the notice belongs to: deliveries of one run go out in order on each channel.
    public var ejecucion: Int { aviso.ejecucion ?? 0 }
}
