import Aplicacion
import Sistema
import Torneo

/// `marcador registro`: every line the program logged, newest last.
struct ComandoRegistro: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "registro",
        resumen: "Muestra el registro: lo que el programa anotó, lo más nuevo al final.",
        detalles: """
            El registro guarda los últimos 30 días y 100000 líneas como mucho (se cambia con
            «marcador ajustes registro-dias» y «marcador ajustes registro-lineas»).
            """)

    @Opcion("--partido", marcador: "ID", ayuda: "Muestra solo las líneas de ese partido.")
    var partidoLeido: Int?

    @Opcion(
        "--ultimas", marcador: "N", desde: 1,
        ayuda: "Muestra solo las N líneas más recientes (1 o más).")
    var ultimas: Int?

    @Bandera("--json", ayuda: "Escribe las líneas en JSON, para otros programas.")
    var json: Bool

    var partido: Int? { partidoLeido }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let lineas = try contexto.nucleo().registro(partido: partido, ultimas: ultimas)
        if json {
            contexto.terminal.linea(try documentoJSON(lineas))
            return .ok
        }
        for linea in lineas {
            // In the user's zone on the terminal; `--json` keeps the stored UTC instant.
            let momento = contexto.terminal.resaltar(
                ZonaHoraria.momentoLocal(linea.momento), .gris)
            contexto.terminal.linea("\(momento)  \(TextoSeguro.limpio(linea.linea))")
        }
        return .ok
    }
}
