import Aplicacion
import Torneo

/// `marcador clasificacion --competicion NOMBRE [--grupo X]`: group tables from the results.
struct ComandoClasificacion: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "clasificacion", alias: ["clasificación"],
        resumen: "Las tablas de grupo de una competición, calculadas con los resultados.",
        detalles: """
            Cuenta el resultado oficial importado de cada partido (tras la prórroga si la hubo) y,
            si no lo tiene, el de su última ejecución terminada. Orden: puntos, diferencia de
            goles, goles a favor y nombre (sin los criterios de enfrentamiento directo ni de
            juego limpio de la FIFA).
            """)

    @Opcion(
        "--competicion", marcador: "NOMBRE",
        ayuda: "La competición (como sale en «competiciones»).",
        obligatoria: true)
    var competicion: String?

    @Opcion("--grupo", marcador: "GRUPO", ayuda: "Solo ese grupo («A» o «Group A»).")
    var grupo: String?

    @Bandera("--json", ayuda: "Escribe las tablas en JSON, para otros programas.")
    var json: Bool

    func validar() throws(Fallo) {
        if competicion == nil { throw .uso("Indica la competición con --competicion NOMBRE.") }
    }

    struct GrupoJSON: Encodable {
        var grupo: String
        var filas: [FilaJSON]
    }
    struct FilaJSON: Encodable {
        var posicion: Int
        var equipo: String
        var jugados, ganados, empatados, perdidos, aFavor, enContra, diferencia, puntos: Int
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let (nombre, tablas) = try contexto.nucleo().clasificacion(
            competicion: competicion ?? "", grupo: grupo)
        if json {
            contexto.terminal.linea(
                try documentoJSON(
                    tablas.map { tabla in
                        GrupoJSON(
                            grupo: tabla.grupo,
                            filas: tabla.filas.enumerated().map { posicion, fila in
                                FilaJSON(
                                    posicion: posicion + 1, equipo: fila.equipo,
                                    jugados: fila.jugados,
                                    ganados: fila.ganados, empatados: fila.empatados,
                                    perdidos: fila.perdidos, aFavor: fila.aFavor,
                                    enContra: fila.enContra, diferencia: fila.diferencia,
                                    puntos: fila.puntos)
                            })
                    }))
            return .ok
        }
        let t = contexto.terminal
        for (indice, tabla) in tablas.enumerated() {
            if indice > 0 { t.linea("") }
            t.linea(t.resaltar("\(nombre.limpio) · \(tabla.grupo.limpio)", .negrita))
            var salida = Tabla(
                cabeceras: ["#", "EQUIPO", "PJ", "G", "E", "P", "GF", "GC", "DG", "PTS"],
                aLaDerecha: [0, 2, 3, 4, 5, 6, 7, 8, 9])
            for (posicion, fila) in tabla.filas.enumerated() {
                salida.anadir([
                    "\(posicion + 1)", fila.equipo, "\(fila.jugados)", "\(fila.ganados)",
                    "\(fila.empatados)", "\(fila.perdidos)", "\(fila.aFavor)", "\(fila.enContra)",
                    fila.diferenciaConSigno, "\(fila.puntos)",
                ])
            }
            t.linea(salida.texto())
        }
        return .ok
    }
}
