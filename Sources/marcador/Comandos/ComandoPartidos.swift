import Aplicacion
import Torneo

/// `marcador partidos`: every match with its kick-off, status, minute, score, official result
/// and duration, filtered by competition, team, days or status, in kick-off order.
struct ComandoPartidos: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "partidos",
        resumen: "Lista los partidos con su estado, minuto, marcador y duración.",
        detalles: """
            Los nombres se buscan sin distinguir mayúsculas, acentos ni signos («cote d ivoire»
            encuentra «Côte d'Ivoire»); si no hay ninguno, se dice cuáles se parecen. Van por
            orden de saque (los que no tienen fecha, primero). La hora sale en tu zona horaria
            (TZ) cuando el fichero da la del estadio con su desfase (18:00 UTC+3); si no, tal
            como viene. Un partido importado con resultado y sin jugar aquí sale «Terminado» con
            su resultado oficial; si se juega aquí, es una repetición y su marcador va junto al
            resultado oficial.
            """)

    @Opcion(
        "--competicion", marcador: "NOMBRE", ayuda: "Solo los partidos de esa competición.")
    var competicion: String?

    @Opcion("--equipo", marcador: "NOMBRE", ayuda: "Solo los partidos en que juega ese equipo.")
    var equipo: String?

    @Opcion(
        "--fecha",
        ayuda:
            "Solo los partidos de ese día: AAAA-MM-DD, hoy, mañana o ayer (en tu zona horaria, TZ)."
    )
    var fecha: Fecha?

    @Opcion(
        "--desde", ayuda: "Solo los partidos de ese día en adelante (también hoy, mañana, ayer).")
    var desde: Fecha?

    @Opcion(
        "--hasta", ayuda: "Solo los partidos hasta ese día, incluido (también hoy, mañana, ayer).")
    var hasta: Fecha?

    @Opcion(
        "--estado",
        ayuda:
            "Solo los partidos en ese estado: sin_empezar, en_juego, terminado, cancelado o interrumpido."
    )
    var estado: FiltroDeEstado?

    @Bandera("--json", ayuda: "Escribe la lista en JSON, para otros programas.")
    var json: Bool

    func validar() throws(Fallo) {
        if fecha != nil && (desde != nil || hasta != nil) {
            throw .uso("--fecha es un solo día: no se combina con --desde ni --hasta.")
        }
        // An empty range is a mistake, not a question with no answer.
        if let desde, let hasta, desde.dia > hasta.dia {
            throw .uso(
                "--desde (\(desde.dia)) va después de --hasta (\(hasta.dia)): entre ambos no hay "
                    + "ningún día. ¿Están al revés?")
        }
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let nucleo = try contexto.nucleo()
        let terminal = contexto.terminal
        let filtro = FiltroDePartidos(
            competicion: competicion, equipo: equipo, desde: (fecha ?? desde)?.dia,
            hasta: (fecha ?? hasta)?.dia, estado: estado?.clave)
        if json {
            var resumenes: [PartidoJSON] = []
            try nucleo.recorrerPartidos(filtro) { resumenes.append(PartidoJSON($0)) }
            terminal.linea(try documentoJSON(resumenes))
            return .ok
        }
        // FECHA and RESULTADO only appear when some match has them (imported ones).
        var tabla = Tabla(
            cabeceras: [
                "ID", "FECHA", "LOCAL", "VISITANTE", "ESTADO", "MINUTO", "MARCADOR", "RESULTADO",
                "DURACIÓN",
            ],
            aLaDerecha: [0, 5, 8], opcionales: [1, 7])
        try nucleo.recorrerPartidos(filtro) { resumen in
            tabla.anadir([
                String(resumen.id), resumen.saque?.textoLocal ?? "", resumen.local,
                resumen.visitante, resumen.textoDeEstado,
                resumen.minutoDeJuegoMostrado.description,
                resumen.marcadorMostrado.description, resumen.resultadoOficial?.textoCorto ?? "",
                String(resumen.duracionMostrada),
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
