/// One line of `marcador partidos`: a match and how its latest run stands.
public struct ResumenDePartido: Sendable, Hashable {
    public var id: Int
    public var local: String
    public var visitante: String
    public var competicion: String?
    /// `2018-06-14`, for imported matches.
    public var fecha: String?
    public var estado: EstadoDelPartido
    public var minuto: Int
    /// Goals from the script played so far.
    public var goles: Marcador
    /// Goals added by hand (`gol-a-mano`).
    public var golesAMano: Marcador
    public var duracion: Int

    public init(
        id: Int, local: String, visitante: String, competicion: String?, fecha: String? = nil,
        estado: EstadoDelPartido, minuto: Int, goles: Marcador, golesAMano: Marcador,
        duracion: Int
    ) {
        self.fecha = fecha
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
