import Aplicacion
import Torneo

/// `marcador clasificacion --competicion NOMBRE`: the tables of a competition, whatever its
/// format (groups, a league, a league phase), from the results.
struct ComandoClasificacion: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "clasificacion", alias: ["clasificación"],
        resumen: "Las tablas de una competición (grupos, liga o fase de liga), con los resultados.",
        detalles: """
            Una competición con grupos da una tabla por grupo; una liga, una tabla de todos sus
            partidos; una fase de liga (como la de la Champions), la tabla de sus jornadas, sin
            las eliminatorias. Cuenta el resultado oficial importado de cada partido (tras la
            prórroga si la hubo) y, si no lo tiene, el de su última ejecución terminada. Orden:
            puntos y luego el desempate de su reglamento: los enfrentamientos entre los empatados
            (puntos, diferencia y goles entre ellos) en la Eurocopa, LaLiga y la Serie A; la
            diferencia de goles y los goles a favor en el Mundial, la Premier, la Bundesliga, la
            Ligue 1, la Champions y cualquier otra. Bajo las tablas se dice cuál se usó;
            --desempate elige otro. ÚLTIMOS son los cinco últimos resultados, del más antiguo al más reciente
            (G ganado, E empatado, P perdido).
            """)

    @Opcion(
        "--competicion", marcador: "NOMBRE",
        ayuda: "La competición (como sale en «competiciones»).",
        obligatoria: true)
    var competicion: String?

    @Opcion("--grupo", marcador: "GRUPO", ayuda: "Solo ese grupo («A» o «Group A»).")
    var grupo: String?

    @Bandera("--local", ayuda: "Solo los partidos en casa de cada equipo.")
    var local: Bool

    @Bandera("--visitante", ayuda: "Solo los partidos fuera de casa de cada equipo.")
    var visitante: Bool

    @Opcion(
        "--desempate",
        ayuda:
            "Qué decide entre empatados a puntos: goles o enfrentamientos (por defecto, el reglamento de la competición si marcador lo conoce; si no, goles)."
    )
    var desempate: Clasificacion.Desempate?

    @Bandera("--json", ayuda: "Escribe las tablas en JSON, para otros programas.")
    var json: Bool

    func validar() throws(Fallo) {
        if competicion == nil { throw .uso("Indica la competición con --competicion NOMBRE.") }
        if local && visitante {
            throw .uso("--local y --visitante no van juntas: sin ninguna, cuentan todos.")
        }
    }

    struct TablaJSON: Encodable {
        var competicion: String
        var formato: String
        var grupo: String?
        var campo: String
        var desempate: String
        /// Whose regulations the tie-break is (`nil`: chosen with --desempate, or the general
        /// rule of a competition marcador does not know).
        var reglamento: String?
        /// Matches of the table without a result yet (not counted).
        var sinResultado: Int
        var filas: [FilaJSON]
    }
    struct FilaJSON: Encodable {
        var posicion: Int
        var equipo: String
        var jugados, ganados, empatados, perdidos, aFavor, enContra, diferencia, puntos: Int
        var ultimos: String
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let campo: Clasificacion.Campo = local ? .local : visitante ? .visitante : .todos
        let (nombre, formato, tablas, regla) = try contexto.nucleo().clasificacion(
            competicion: competicion ?? "", grupo: grupo, campo: campo, desempate: desempate)
        if json {
            contexto.terminal.linea(
                try documentoJSON(
                    tablas.map { tabla in
                        TablaJSON(
                            competicion: nombre, formato: formato.rawValue, grupo: tabla.grupo,
                            campo: campo.rawValue, desempate: regla.desempate.rawValue,
                            reglamento: regla.elegida ? nil : regla.reglamento,
                            sinResultado: tabla.sinResultado,
                            filas: tabla.filas.enumerated().map { posicion, fila in
                                FilaJSON(
                                    posicion: posicion + 1, equipo: fila.equipo,
                                    jugados: fila.jugados,
                                    ganados: fila.ganados, empatados: fila.empatados,
                                    perdidos: fila.perdidos, aFavor: fila.aFavor,
                                    enContra: fila.enContra, diferencia: fila.diferencia,
                                    puntos: fila.puntos, ultimos: fila.ultimos)
                            })
                    }))
            return .ok
        }
        let t = contexto.terminal
        let titulo: (TablaDeGrupo) -> String = { tabla in
            var partes = [nombre]
            if let grupo = tabla.grupo { partes.append(grupo) }
            if formato == .faseDeLiga { partes.append("fase de liga") }
            if campo == .local { partes.append("en casa") }
            if campo == .visitante { partes.append("fuera de casa") }
            return partes.joined(separator: " · ")
        }
        for (indice, tabla) in tablas.enumerated() {
            if indice > 0 { t.linea("") }
            t.linea(t.resaltar(titulo(tabla).limpio, .negrita))
            var salida = Tabla(
                cabeceras: [
                    "#", "EQUIPO", "PJ", "G", "E", "P", "GF", "GC", "DG", "PTS", "ÚLTIMOS",
                ],
                aLaDerecha: [0, 2, 3, 4, 5, 6, 7, 8, 9])
            for (posicion, fila) in tabla.filas.enumerated() {
                salida.anadir([
                    "\(posicion + 1)", fila.equipo, "\(fila.jugados)", "\(fila.ganados)",
                    "\(fila.empatados)", "\(fila.perdidos)", "\(fila.aFavor)", "\(fila.enContra)",
                    fila.diferenciaConSigno, "\(fila.puntos)", fila.ultimos,
                ])
            }
            t.linea(salida.texto())
            if tabla.sinResultado > 0 { t.linea(Frases.sinResultado(tabla.sinResultado)) }
        }
        t.linea(regla.texto)
        return .ok
    }
}
