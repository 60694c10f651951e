import Torneo

/// `marcador partidos`: every match with its status, minute, score and duration, filtered by
/// competition, team, date or status.
struct ComandoPartidos: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "partidos",
        resumen: "Lista los partidos con su estado, minuto, marcador y duración.",
        detalles: """
            Los nombres se buscan sin distinguir mayúsculas, acentos ni signos («cote d ivoire»
            encuentra «Côte d'Ivoire»); si no hay ninguno, se dice cuáles se parecen.
            """)

    @Opcion(
        "--competicion", marcador: "NOMBRE", ayuda: "Solo los partidos de esa competición.")
    var competicion: String?

    @Opcion("--equipo", marcador: "NOMBRE", ayuda: "Solo los partidos en que juega ese equipo.")
    var equipo: String?

    @Opcion("--fecha", ayuda: "Solo los partidos de ese día.")
    var fecha: Fecha?

    @Opcion(
        "--estado",
        ayuda:
            "Solo los partidos en ese estado: sin_empezar, en_juego, terminado, cancelado o interrumpido."
    )
    var estado: FiltroDeEstado?

    @Bandera("--json", ayuda: "Escribe la lista en JSON, para otros programas.")
    var json: Bool

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let repositorio = try contexto.repositorio
        let nombreDeCompeticion = try competicion.map {
            try Nombres.buscar(
                $0, entre: repositorio.competiciones().compactMap(\.nombre), clase: "competición",
                plural: "competiciones", femenino: true)
        }
        let nombreDeEquipo = try equipo.map {
            try Nombres.buscar($0, entre: repositorio.equipos(), clase: "equipo", plural: "equipos")
        }
        // Read once: the options are property wrappers, and this runs for every match.
        let (fecha, estado) = (self.fecha?.texto, self.estado?.clave)
        func cumple(_ resumen: ResumenDePartido) -> Bool {
            (nombreDeEquipo == nil || resumen.local == nombreDeEquipo
                || resumen.visitante == nombreDeEquipo)
                && (fecha == nil || resumen.fecha == fecha)
                && (estado == nil || resumen.estado.clave == estado)
        }
        if json {
            var resumenes: [PartidoJSON] = []
            try repositorio.recorrerResumenes(competicion: nombreDeCompeticion) {
                if cumple($0) { resumenes.append(PartidoJSON($0)) }
            }
            contexto.terminal.linea(try documentoJSON(resumenes))
            return .ok
        }
        var tabla = Tabla(
            cabeceras: ["ID", "LOCAL", "VISITANTE", "ESTADO", "MINUTO", "MARCADOR", "DURACIÓN"],
            aLaDerecha: [0, 4, 6])
        try repositorio.recorrerResumenes(competicion: nombreDeCompeticion) { resumen in
            guard cumple(resumen) else { return }
            tabla.anadir([
                String(resumen.id), resumen.local, resumen.visitante, resumen.estado.texto,
                String(resumen.minuto), resumen.marcador.description, String(resumen.duracion),
            ])
        }
        if tabla.estaVacia {
            contexto.terminal.linea("No hay partidos con esas condiciones.")
            return .ok
        }
        tabla.escribir { contexto.terminal.resaltar($0, .negrita) }
        return .ok
    }
}

/// The `--json` shape of one match; keys are part of the scripting interface.
struct PartidoJSON: Encodable {
    var id: Int
    var local: String
    var visitante: String
    var competicion: String?
    var fecha: String?
    var estado: String
    var estadoTexto: String
    var minuto: Int
    var marcador: String
    var golesDelGuion: String
    var golesAMano: String
    var duracion: Int

    init(_ resumen: ResumenDePartido) {
        id = resumen.id
        local = resumen.local
        visitante = resumen.visitante
        competicion = resumen.competicion
        fecha = resumen.fecha
        estado = resumen.estado.clave
        estadoTexto = resumen.estado.texto
        minuto = resumen.minuto
        marcador = resumen.marcador.description
        golesDelGuion = resumen.goles.description
        golesAMano = resumen.golesAMano.description
        duracion = resumen.duracion
    }
}
