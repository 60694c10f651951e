/// Everything a fan looks at about one match (fans.md): the script, where and when it was
/// played, its official result when imported, and how its latest finished run ended.
public struct FichaDePartido: Sendable, Hashable {
    public var partido: Partido
    public var ronda: String?
    public var fecha: String?
    public var hora: String?
    public var grupo: String?
    public var estadio: String?
    public var oficial: ResultadoOficial?
    /// Whether the file gave its goal list (imported matches may lack it).
    public var conGuion: Bool
    /// Scripted plus manual goals of its latest finished run, if it was ever played to the end.
    public var ultimoJugado: Marcador?

    public init(
        partido: Partido, ronda: String? = nil, fecha: String? = nil, hora: String? = nil,
        grupo: String? = nil, estadio: String? = nil, oficial: ResultadoOficial? = nil,
        conGuion: Bool = true, ultimoJugado: Marcador? = nil
    ) {
        self.partido = partido
        self.ronda = ronda
        self.fecha = fecha
        self.hora = hora
        self.grupo = grupo
        self.estadio = estadio
        self.oficial = oficial
        self.conGuion = conGuion
        self.ultimoJugado = ultimoJugado
    }

    /// The result a table counts: the official one (after extra time if there was some; a
    /// shoot-out decides who goes through, not the score), else the latest finished run's.
    public var resultado: Marcador? { oficial?.marcador ?? ultimoJugado }
}

/// A match's result as the file gives it: full time, after extra time, penalty shoot-out.
public struct ResultadoOficial: Sendable, Hashable, Codable {
    public var final: Marcador?
    public var prorroga: Marcador?
    public var penaltis: Marcador?

    public init(final: Marcador? = nil, prorroga: Marcador? = nil, penaltis: Marcador? = nil) {
        self.final = final
        self.prorroga = prorroga
        self.penaltis = penaltis
    }

    /// Nothing known.
    public var vacio: Bool { final == nil && prorroga == nil && penaltis == nil }

    /// The score of the match (the shoot-out is not part of it).
    public var marcador: Marcador? { prorroga ?? final }

    /// `3-3 tras la prórroga, 4-2 en los penaltis`, `1-1, 5-4 en los penaltis`, `2-1`.
    public var texto: String? {
        var partes: [String] = []
        if let prorroga {
            partes.append("\(prorroga) tras la prórroga")
        } else if let final {
            partes.append(final.description)
        }
        if let penaltis { partes.append("\(penaltis) en los penaltis") }
        return partes.isEmpty ? nil : partes.joined(separator: ", ")
    }

    /// How it was decided, when not in the 90 minutes: `(4-2 pen.)` after a shoot-out (with or
    /// without extra time before it), `(pró.)` after extra time; `nil` otherwise. One home for
    /// the mark every list, card, table and full-time alert puts after a score.
    public var desenlace: String? {
        Self.desenlace(prorroga: prorroga != nil, penaltis: penaltis)
    }

    public static func desenlace(prorroga: Bool, penaltis: Marcador?) -> String? {
        if let penaltis { return "(\(penaltis) pen.)" }
        return prorroga ? "(pró.)" : nil
    }

    /// `texto` followed by the mark, when there is one: `3-3 (4-2 pen.)`,
    /// `Terminado (pró.)`, `Argentina 3-3 France (4-2 pen.)`.
    public static func conDesenlace(_ texto: String, _ desenlace: String?) -> String {
        desenlace.map { "\(texto) \($0)" } ?? texto
    }

    /// For a list's or a table's cell: `2-1`, `1-2 (pró.)`, `3-3 (4-2 pen.)`.
    public var textoCorto: String? {
        guard let marcador else { return penaltis.map { "(\($0) pen.)" } }
        return Self.conDesenlace(marcador.description, desenlace)
    }
}
