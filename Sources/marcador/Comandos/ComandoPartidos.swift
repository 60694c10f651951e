import Torneo

/// `marcador partidos`: every match with its status, minute, score and duration.
struct ComandoPartidos: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "partidos",
        resumen: "Lista los partidos con su estado, minuto, marcador y duración.")

    @Opcion(
        "--competicion", marcador: "NOMBRE", ayuda: "Muestra solo los partidos de esa competición.")
    var competicion: String?

    @Bandera("--json", ayuda: "Escribe la lista en JSON, para otros programas.")
    var json: Bool

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let resumenes = try contexto.repositorio.resumenes(competicion: competicion)
        if json {
            contexto.terminal.linea(try documentoJSON(resumenes.map(PartidoJSON.init)))
            return .ok
        }
        if resumenes.isEmpty {
            let donde = competicion.map { " de la competición \(citado($0))" } ?? ""
            contexto.terminal.linea("No hay partidos\(donde).")
            return .ok
        }
        var tabla = Tabla(
            cabeceras: ["ID", "LOCAL", "VISITANTE", "ESTADO", "MINUTO", "MARCADOR", "DURACIÓN"],
            aLaDerecha: [0, 4, 6])
        for resumen in resumenes {
            tabla.filas.append([
                "\(resumen.id)", resumen.local, resumen.visitante, resumen.estado.texto,
                "\(resumen.minuto)", resumen.marcador.description, "\(resumen.duracion)",
            ])
        }
        contexto.terminal.linea(
            tabla.texto { contexto.terminal.resaltar($0, .negrita) })
        return .ok
    }
}

/// The `--json` shape of one match; keys are part of the scripting interface.
struct PartidoJSON: Encodable {
    var id: Int
    var local: String
    var visitante: String
    var competicion: String?
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
        estado = resumen.estado.clave
        estadoTexto = resumen.estado.texto
        minuto = resumen.minuto
        marcador = resumen.marcador.description
        golesDelGuion = resumen.goles.description
        golesAMano = resumen.golesAMano.description
        duracion = resumen.duracion
    }
}
