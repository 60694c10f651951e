/// One line of `marcador partidos`: a match and how its latest run stands.
public struct ResumenDePartido: Sendable, Hashable {
    public var id: Int
    public var local: String
    public var visitante: String
    public var competicion: String?
    public var estado: EstadoDelPartido
    public var minuto: Int
    /// Goals from the script played so far.
    public var goles: Marcador
    /// Goals added by hand (`gol-a-mano`).
    public var golesAMano: Marcador
    public var duracion: Int

    public init(
        id: Int, local: String, visitante: String, competicion: String?,
        estado: EstadoDelPartido, minuto: Int, goles: Marcador, golesAMano: Marcador,
        duracion: Int
    ) {
        self.id = id
        self.local = local
        self.visitante = visitante
        self.competicion = competicion
        self.estado = estado
        self.minuto = minuto
        self.goles = goles
        self.golesAMano = golesAMano
        self.duracion = duracion
    }

    /// What the user sees: scripted plus manual goals.
    public var marcador: Marcador { goles + golesAMano }
}
