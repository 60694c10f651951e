/// A match: two teams and the script of what happens in it.
public struct Partido: Sendable, Hashable, Identifiable, Codable {
    public var id: Int
    public var local: Equipo
    public var visitante: Equipo
    public var eventos: [EventoDePartido]
    /// Where the match comes from (`"World Cup 2018"`); `nil` for hand-made matches.
    public var competicion: String?
    /// Whether the match went to extra time, which is what allows a 120-minute duration.
    public var tieneProrroga: Bool

    public init(
        id: Int,
        local: Equipo,
        visitante: Equipo,
        eventos: [EventoDePartido],
        competicion: String? = nil,
        tieneProrroga: Bool = false
    ) {
        self.id = id
        self.local = local
        self.visitante = visitante
        self.eventos = eventos
        self.competicion = competicion
        self.tieneProrroga = tieneProrroga
    }

    public func equipo(_ lado: Lado) -> Equipo {
        switch lado {
        case .local: local
        case .visitante: visitante
        }
    }

    /// The duration `jugar` uses without `--duracion` (see `Duracion.segunAjuste`).
    public func duracionPorDefecto(ajuste: Int) -> Int {
        Duracion.segunAjuste(ajuste, conProrroga: tieneProrroga)
    }

    /// The durations a user may choose for this match.
    public var duracionesPermitidas: [Int] { Duracion.permitidas(conProrroga: tieneProrroga) }

    /// The events that fit in `duracion` minutes, in the order they are played: by minute, then
    /// by added time, then script order (the sort is stable).
    public func eventos(hasta duracion: Int) -> [EventoDePartido] {
        eventos.filter { $0.minuto.minuto <= duracion }.sorted { $0.minuto < $1.minuto }
    }
}
