import Almacen
import Torneo

/// `marcador partido <id>`: the match card (DESIGN §10).
struct ComandoPartido: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "partido",
        resumen:
            "La ficha de un partido: competición, fecha, estado, resultado oficial, goles y ejecuciones."
    )

    @Argumento("ID", ayuda: "El número del partido.")
    var id: IdDePartido

    @Bandera("--json", ayuda: "Escribe la ficha en JSON, para otros programas.")
    var json: Bool

    func validarTrasReinicio(en semilla: DatabaseQueue) throws {
        _ = try PartidosSQLite(semilla).partidoExistente(id.valor)
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let tienda = try contexto.tienda()
        let repositorio = tienda.partidos
        guard let ficha = try repositorio.ficha(id: id.valor) else {
            _ = try repositorio.partidoExistente(id.valor)  // the user's «no such match»
            return .noEncontrado
        }
        let ejecuciones = try tienda.ejecuciones.todas(partido: id.valor)
        let resumen = try repositorio.resumenes(competicion: ficha.partido.competicion).first {
            $0.id == id.valor
        }
        let goles = Self.linea(ficha.partido)
        if json {
            contexto.terminal.linea(
                try documentoJSON(
                    FichaJSON(
                        ficha: ficha, resumen: resumen, goles: goles, ejecuciones: ejecuciones)))
            return .ok
        }
        let t = contexto.terminal
        let partido = ficha.partido
        t.linea(
            t.resaltar("\(partido.local.nombre) – \(partido.visitante.nombre)".limpio, .negrita))
        let donde = [partido.competicion, ficha.grupo, ficha.ronda].compactMap { $0 }
        if !donde.isEmpty { t.linea(donde.joined(separator: " · ").limpio) }
        let cuando = [ficha.fecha, ficha.hora].compactMap { $0 }.joined(separator: " ")
        let lugar = [cuando.isEmpty ? nil : cuando, ficha.estadio].compactMap { $0 }
        if !lugar.isEmpty { t.linea(lugar.joined(separator: " · ").limpio) }
        if let resumen {
            var estado = "Estado: \(resumen.estado.texto) · \(partido.local.nombre.limpio) "
            estado += "\(resumen.marcador) \(partido.visitante.nombre.limpio)"
            if resumen.estado != .sinEmpezar { estado += " · minuto \(resumen.minuto)" }
            estado += " (\(resumen.duracion) minutos)"
            t.linea(estado)
        }
        if let texto = ficha.oficial?.texto { t.linea("Resultado oficial: \(texto)") }
        t.linea("")
        if goles.isEmpty {
            t.linea(
                ficha.conGuion ? "Sin goles en el guion." : "El fichero no dio la lista de goles.")
        } else {
            var tabla = Tabla(
                cabeceras: ["MINUTO", "JUGADOR", "EQUIPO", "MARCADOR"], aLaDerecha: [0])
            for gol in goles {
                tabla.anadir([
                    gol.minuto + "'", gol.jugadorConMarcas, gol.equipo, gol.marcador,
                ])
            }
            t.linea("Goles:\n" + tabla.texto { t.resaltar($0, .negrita) })
        }
        if let ultima = ejecuciones.last, ultima.golesAMano != .cero {
            t.linea(
                "\nGoles a mano (\(ultima.codigo)): \(partido.local.nombre.limpio) "
                    + "\(ultima.golesAMano.local), \(partido.visitante.nombre.limpio) "
                    + "\(ultima.golesAMano.visitante)")
        }
        if ejecuciones.isEmpty {
            t.linea("\nTodavía no se ha jugado.")
        } else {
            var tabla = Tabla(
                cabeceras: ["CÓDIGO", "DURACIÓN", "ESTADO", "MARCADOR", "EMPEZÓ"], aLaDerecha: [1])
            for ejecucion in ejecuciones {
                tabla.anadir([
                    ejecucion.codigo, "\(ejecucion.duracion)", ejecucion.estadoDelPartido.texto,
                    (ejecucion.goles + ejecucion.golesAMano).description,
                    ejecucion.empezada ?? "",
                ])
            }
            t.linea("\nEjecuciones:\n" + tabla.texto { t.resaltar($0, .negrita) })
        }
        return .ok
    }

    /// One goal of the timeline.
    struct GolJSON: Encodable {
        var minuto: String
        var jugador: String
        var equipo: String
        var penalti: Bool
        var enPropiaPuerta: Bool
        /// The score right after it.
        var marcador: String

        /// `Messi (p)`, `Mandžukić (pp)`.
        var jugadorConMarcas: String {
            jugador + (penalti ? " (p)" : "") + (enPropiaPuerta ? " (pp)" : "")
        }
    }

    /// The script as a timeline, in playing order, with the score after each goal; for a run
    /// being played (the screen of `servir`), only the goals up to its minute.
    nonisolated static func linea(
        _ partido: Partido, duracion: Int = Duracion.conProrroga, hastaElMinuto: Int = .max
    ) -> [GolJSON] {
        var marcador = Marcador.cero
        var goles: [GolJSON] = []
        for case .gol(let gol) in partido.eventos(hasta: duracion)
        where gol.minuto.minuto <= hastaElMinuto {
            marcador = marcador.sumando(gol.lado)
            goles.append(
                GolJSON(
                    minuto: gol.minuto.description, jugador: gol.jugador.nombre,
                    equipo: gol.jugador.equipo.nombre, penalti: gol.penalti,
                    enPropiaPuerta: gol.enPropiaPuerta, marcador: marcador.description))
        }
        return goles
    }

    struct FichaJSON: Encodable {
        struct Oficial: Encodable {
            var final: String?
            var prorroga: String?
            var penaltis: String?
            var texto: String?
        }
        struct EjecucionJSON: Encodable {
            var codigo: String
            var duracion: Int
            var estado: String
            var estadoTexto: String
            var minuto: Int
            var marcador: String
            var golesAMano: String
            var empezada: String?
            var acabada: String?
        }
        var id: Int
        var local: String
        var visitante: String
        var competicion: String?
        var grupo: String?
        var ronda: String?
        var fecha: String?
        var hora: String?
        var estadio: String?
        var estado: String?
        var estadoTexto: String?
        var minuto: Int?
        var marcador: String?
        var duracion: Int?
        var resultadoOficial: Oficial?
        var goles: [GolJSON]
        var ejecuciones: [EjecucionJSON]

        init(
            ficha: FichaDePartido, resumen: ResumenDePartido?, goles: [GolJSON],
            ejecuciones: [EjecucionGuardada]
        ) {
            id = ficha.partido.id
            local = ficha.partido.local.nombre
            visitante = ficha.partido.visitante.nombre
            competicion = ficha.partido.competicion
            grupo = ficha.grupo
            ronda = ficha.ronda
            fecha = ficha.fecha
            hora = ficha.hora
            estadio = ficha.estadio
            estado = resumen?.estado.clave
            estadoTexto = resumen?.estado.texto
            minuto = resumen?.minuto
            marcador = resumen?.marcador.description
            duracion = resumen?.duracion
            resultadoOficial = ficha.oficial.map {
                Oficial(
                    final: $0.final?.description, prorroga: $0.prorroga?.description,
                    penaltis: $0.penaltis?.description, texto: $0.texto)
            }
            self.goles = goles
            self.ejecuciones = ejecuciones.map {
                EjecucionJSON(
                    codigo: $0.codigo, duracion: $0.duracion, estado: $0.estadoDelPartido.clave,
                    estadoTexto: $0.estadoDelPartido.texto, minuto: $0.minuto,
                    marcador: ($0.goles + $0.golesAMano).description,
                    golesAMano: $0.golesAMano.description, empezada: $0.empezada,
                    acabada: $0.acabada)
            }
        }
    }
}

extension String {
    /// Made safe for a terminal (DESIGN §9).
    var limpio: String { TextoSeguro.limpio(self) }
}
