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
        let repositorio = try contexto.repositorio
        let nombre = try Nombres.buscar(
            competicion ?? "", entre: repositorio.competiciones().compactMap(\.nombre),
            clase: "competición", plural: "competiciones", femenino: true)
        let fichas = try repositorio.fichas(competicion: nombre, conEventos: false)
        var grupos: [String: [FichaDePartido]] = [:]
        for ficha in fichas {
            if let grupo = ficha.grupo { grupos[grupo, default: []].append(ficha) }
        }
        guard !grupos.isEmpty else {
            throw Fallo.noEncontrado("La competición \(citado(nombre)) no tiene grupos.")
        }
        var elegidos = grupos.keys.map { (grupo: $0, clave: ClaveDeNombre.de($0)) }
            .sorted { $0.clave < $1.clave }.map(\.grupo)
        if let grupo {
            let clave = ClaveDeNombre.de(grupo)
            elegidos = elegidos.filter {
                let suya = ClaveDeNombre.de($0)
                return suya == clave || suya.hasSuffix(" " + clave)
            }
            guard !elegidos.isEmpty else {
                throw Fallo.noEncontrado(
                    "No hay ningún grupo \(citado(grupo)) en \(citado(nombre)). Grupos: "
                        + grupos.keys.sorted().map { "«\($0.limpio)»" }.joined(separator: ", ")
                        + ".")
            }
        }
        let tablas = elegidos.map { grupo -> (String, [Clasificacion.Fila]) in
            let partidos = grupos[grupo]!
            let equipos = Set(
                partidos.flatMap { [$0.partido.local.nombre, $0.partido.visitante.nombre] })
            let resultados = partidos.compactMap { ficha in
                ficha.resultado.map {
                    (
                        local: ficha.partido.local.nombre,
                        visitante: ficha.partido.visitante.nombre, marcador: $0
                    )
                }
            }
            return (grupo, Clasificacion.calcular(resultados, equipos: Array(equipos)))
        }
        if json {
            contexto.terminal.linea(
                try documentoJSON(
                    tablas.map { grupo, filas in
                        GrupoJSON(
                            grupo: grupo,
                            filas: filas.enumerated().map { posicion, fila in
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
        for (indice, (grupo, filas)) in tablas.enumerated() {
            if indice > 0 { t.linea("") }
            t.linea(t.resaltar("\(nombre.limpio) · \(grupo.limpio)", .negrita))
            var tabla = Tabla(
                cabeceras: ["#", "EQUIPO", "PJ", "G", "E", "P", "GF", "GC", "DG", "PTS"],
                aLaDerecha: [0, 2, 3, 4, 5, 6, 7, 8, 9])
            for (posicion, fila) in filas.enumerated() {
                tabla.anadir([
                    "\(posicion + 1)", fila.equipo, "\(fila.jugados)", "\(fila.ganados)",
                    "\(fila.empatados)", "\(fila.perdidos)", "\(fila.aFavor)", "\(fila.enContra)",
                    fila.diferenciaConSigno, "\(fila.puntos)",
                ])
            }
            t.linea(tabla.texto())
        }
        return .ok
    }
}
