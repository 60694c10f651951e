import Aplicacion
import Torneo

/// `marcador competiciones`: each competition with its counts.
struct ComandoCompeticiones: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "competiciones",
        resumen:
            "Las competiciones, con sus partidos, los que tienen el detalle de sus goles, los jugados y los goles."
    )

    @Bandera("--json", ayuda: "Escribe la lista en JSON, para otros programas.")
    var json: Bool

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let competiciones = try contexto.nucleo().competiciones()
        if json {
            contexto.terminal.linea(try documentoJSON(competiciones))
            return .ok
        }
        var tabla = Tabla(
            cabeceras: ["COMPETICIÓN", "PARTIDOS", "CON DETALLE", "JUGADOS", "GOLES"],
            aLaDerecha: [1, 2, 3, 4])
        for competicion in competiciones {
            tabla.anadir([
                competicion.nombre ?? "(sin competición)", "\(competicion.partidos)",
                "\(competicion.conGoles)", "\(competicion.jugados)", "\(competicion.goles)",
            ])
        }
        contexto.terminal.linea(tabla.texto { contexto.terminal.resaltar($0, .negrita) })
        return .ok
    }
}
