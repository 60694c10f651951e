import Aplicacion
import Torneo

/// `marcador importar <fichero.json> [--simular]`: real matches from openfootball JSON.
struct ComandoImportar: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "importar",
        resumen: "Importa partidos de un fichero JSON de openfootball (todo o nada).",
        detalles: """
            Un partido con prórroga (score.et, o un gol entre el 100 y el 120) se juega en 120
            minutos. Un minuto entre 91 y 99 en un partido sin prórroga se lee como tiempo añadido
            (92 → 90+2), y uno entre 121 y 130 en un partido con prórroga, como 120+N; cada caso se
            advierte. Los penaltis de la tanda (score.p) son resultado, no goles. Volver a importar
            el mismo fichero no añade nada. Si un partido está mal escrito o repetido, o un nombre
            pasa de 200 caracteres o lleva caracteres de control, no se importa ninguno (65).
            """)

    @Argumento("FICHERO", ayuda: "El fichero JSON (formato openfootball: name, matches[…]).")
    var ruta: String

    @Bandera("--simular", ayuda: "Lo comprueba y cuenta, sin guardar nada.")
    var simular: Bool

    @Bandera("--dry-run", ayuda: "Lo mismo que --simular.", oculta: true)
    var dryRun: Bool

    var soloComprobar: Bool { simular || dryRun }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        // Read and checked whole before the store is even opened: a bad file changes nothing.
        let competicion = try Nucleo.leerPartidos(ruta)
        let nucleo = try contexto.nucleo()
        for advertencia in competicion.partidos.flatMap(\.avisos) {
            contexto.advertir("advertencia: \(TextoSeguro.limpio(advertencia))")
        }
        let hecha = try nucleo.importar(competicion, simular: soloComprobar)
        let terminal = contexto.terminal
        let resumen = hecha.resumen
        terminal.linea(
            "\(TextoSeguro.limpio(competicion.nombre)): "
                + Textos.cuenta(competicion.partidos.count, "partido", "partidos") + " y "
                + Textos.cuenta(competicion.goles, "gol", "goles") + " en el fichero.")
        terminal.linea(
            "Nuevos: \(resumen.nuevos) · ya estaban: \(resumen.yaEstaban) · "
                + "sin detalle de goles: \(resumen.sinGoles) · con advertencias: \(resumen.conAvisos)."
        )
        if soloComprobar { terminal.linea("(simulación: no se ha guardado nada)") }
        return .ok
    }
}
