import Aplicacion
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
        let nucleo = try contexto.nucleo()
        let terminal = contexto.terminal
        let filtro = FiltroDePartidos(
            competicion: competicion, equipo: equipo, fecha: fecha?.texto, estado: estado?.clave)
        if json {
            var resumenes: [PartidoJSON] = []
            try nucleo.recorrerPartidos(filtro) { resumenes.append(PartidoJSON($0)) }
            terminal.linea(try documentoJSON(resumenes))
            return .ok
        }
        var tabla = Tabla(
            cabeceras: ["ID", "LOCAL", "VISITANTE", "ESTADO", "MINUTO", "MARCADOR", "DURACIÓN"],
            aLaDerecha: [0, 4, 6])
        try nucleo.recorrerPartidos(filtro) { resumen in
            tabla.anadir([
                String(resumen.id), resumen.local, resumen.visitante, resumen.estado.texto,
                String(resumen.minuto), resumen.marcador.description, String(resumen.duracion),
            ])
        }
        if tabla.estaVacia {
            terminal.linea("No hay partidos con esas condiciones.")
            return .ok
        }
        tabla.escribir(en: terminal) { terminal.resaltar($0, .negrita) }
        return .ok
    }
}
