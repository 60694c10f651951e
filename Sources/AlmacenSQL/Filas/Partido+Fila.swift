import Torneo

extension Partido {
    /// The columns `init(cabecera:)` reads: a match without its script.
    static let columnasDeCabecera = """
        p.id, l.nombre AS local, v.nombre AS visitante, p.competicion, p.prorroga
        """

    /// A match as `columnasDeCabecera` reads it; its events come from another query.
    init(cabecera fila: some FilaSQL) {
        self.init(
            id: fila.int("id"), local: Equipo(fila.nombre("local")),
            visitante: Equipo(fila.nombre("visitante")), eventos: [],
            competicion: fila.nombreOpcional("competicion"), tieneProrroga: fila.bool("prorroga"))
    }
}

extension Gol {
    /// The columns `init(fila:)` reads, from `evento e` joined with its player `j` and the
    /// player's team `eq`.
    static let columnas = """
        e.partido_id, e.minuto, e.anadido, j.nombre AS jugador, eq.nombre AS equipo, e.lado,
        e.penalti, e.en_propia_puerta, e.adjunto
        """

    init(fila: some FilaSQL) throws {
        self.init(
            minuto: MinutoDeJuego(fila.int("minuto"), anadido: fila.int("anadido")),
            jugador: Jugador(fila.nombre("jugador"), de: Equipo(fila.nombre("equipo"))),
            lado: try fila.almacenado("lado", tabla: "evento"), penalti: fila.bool("penalti"),
            enPropiaPuerta: fila.bool("en_propia_puerta"), adjunto: fila.optionalString("adjunto"))
    }
}

extension EventoDePartido {
    /// An event as `Gol.columnas` plus `e.tipo, e.doble_amarilla, e.asistencia, e.sale` read it.
    init(fila: some FilaSQL) throws {
        switch fila.string("tipo") {
        case "roja": self = .roja(try TarjetaRoja(fila: fila))
        case "cambio":
            self = .cambio(
                Sustitucion(
                    minuto: MinutoDeJuego(fila.int("minuto"), anadido: fila.int("anadido")),
                    entra: fila.nombre("jugador"), sale: fila.optionalString("sale") ?? "",
                    equipo: fila.nombre("equipo"),
                    lado: try fila.almacenado("lado", tabla: "evento")))
        default:
            var gol = try Gol(fila: fila)
            gol.asistencia = fila.optionalString("asistencia")
            self = .gol(gol)
        }
    }
}

extension TarjetaRoja {
    /// A card as `Gol.columnas` plus `e.doble_amarilla` read it (a card's row has the goal's
    /// columns: the player sent off, his team and side).
    init(fila: some FilaSQL) throws {
        self.init(
            minuto: MinutoDeJuego(fila.int("minuto"), anadido: fila.int("anadido")),
            jugador: fila.nombre("jugador"), equipo: fila.nombre("equipo"),
            lado: try fila.almacenado("lado", tabla: "evento"),
            dobleAmarilla: fila.bool("doble_amarilla"))
    }
}

extension FichaDePartido {
    /// The columns `init(fila:)` reads: the match, its metadata, its official result, and the
    /// score of its latest finished run (`t`).
    static let columnas = """
        \(Partido.columnasDeCabecera), p.ronda, p.fecha, p.hora, p.grupo, p.estadio,
        p.ft_local, p.ft_visitante, p.et_local, p.et_visitante, p.penaltis_local,
        p.penaltis_visitante, p.con_guion, t.goles_local + t.mano_local AS jugado_local,
        t.goles_visitante + t.mano_visitante AS jugado_visitante
        """

    init(fila: some FilaSQL) {
        func marcador(_ local: String, _ visitante: String) -> Marcador? {
            guard let goles = fila.optionalInt(local) else { return nil }
            return Marcador(local: goles, visitante: fila.int(visitante))
        }
        let oficial = ResultadoOficial(
            final: marcador("ft_local", "ft_visitante"),
            prorroga: marcador("et_local", "et_visitante"),
            penaltis: marcador("penaltis_local", "penaltis_visitante"))
        let sinOficial = oficial.vacio
        self.init(
            partido: Partido(cabecera: fila), ronda: fila.nombreOpcional("ronda"),
            fecha: fila.optionalString("fecha"), hora: fila.optionalString("hora"),
            grupo: fila.nombreOpcional("grupo"), estadio: fila.nombreOpcional("estadio"),
            oficial: sinOficial ? nil : oficial, conGuion: fila.bool("con_guion"),
            ultimoJugado: marcador("jugado_local", "jugado_visitante"))
    }
}

extension ResumenDeCompeticion {
    /// The name as stored, not `nombre(_:)`: it is the key a user's `--competicion` is looked up
    /// by and then matched against in SQL; the renderers make it safe on its way out.
    init(fila: some FilaSQL) {
        self.init(
            nombre: fila.optionalString("competicion"), partidos: fila.int("partidos"),
            conGoles: fila.int("con_goles"), jugados: fila.int("jugados"),
            goles: fila.int("goles"))
    }
}
