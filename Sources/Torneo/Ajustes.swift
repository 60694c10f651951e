/// The user's stored preferences. Defaults are those of runs.md and §4.
public struct Ajustes: Sendable, Hashable, Codable {
    /// Minutes a match lasts when `jugar` gets no `--duracion`.
    public var duracion: Int
    /// Real milliseconds per match minute.
    public var msPorMinuto: Int
    /// Quiet mode: no banner and no bell in the terminal watching the match.
    public var sinAvisosEnPrimerPlano: Bool
    /// Goal notices permission: `nil` until the user is first asked (off meanwhile).
    public var avisosPermitidos: Bool?
    /// Seconds an attachment may take to fetch before the notice goes out without it.
    public var plazoDeAdjuntos: Double
    /// The log keeps this many days of lines…
    public var diasDeRegistro: Int
    /// …and at most this many lines.
    public var lineasDeRegistro: Int

    public init(
        duracion: Int = Duracion.porDefecto,
        msPorMinuto: Int = 250,
        sinAvisosEnPrimerPlano: Bool = false,
        avisosPermitidos: Bool? = nil,
        plazoDeAdjuntos: Double = 30,
        diasDeRegistro: Int = 30,
        lineasDeRegistro: Int = 100_000
    ) {
        self.diasDeRegistro = diasDeRegistro
        self.lineasDeRegistro = lineasDeRegistro
        self.plazoDeAdjuntos = plazoDeAdjuntos
        self.duracion = duracion
        self.msPorMinuto = msPorMinuto
        self.sinAvisosEnPrimerPlano = sinAvisosEnPrimerPlano
        self.avisosPermitidos = avisosPermitidos
    }
}
