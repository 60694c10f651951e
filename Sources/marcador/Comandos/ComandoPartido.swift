import Aplicacion
import Sistema
import Torneo

/// `marcador partido <id>`: the match card (fans.md).
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

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let completa = try contexto.nucleo().ficha(id.valor)
        if json {
            contexto.terminal.linea(try documentoJSON(FichaJSON(completa)))
            return .ok
        }
        let t = contexto.terminal
        let (ficha, resumen, ejecuciones) = (completa.ficha, completa.resumen, completa.ejecuciones)
        let partido = ficha.partido
        t.linea(
            t.resaltar("\(partido.local.nombre) – \(partido.visitante.nombre)".limpio, .negrita))
        let donde = [partido.competicion, ficha.grupo, ficha.ronda].compactMap { $0 }
        if !donde.isEmpty { t.linea(donde.joined(separator: " · ").limpio) }
        // The venue's day, time and offset as the file gives them; the user's time beside.
        var cuando: String?
        if let saque = Saque(fecha: ficha.fecha, hora: ficha.hora) {
            cuando = "\(saque.fecha)" + (saque.hora.map { " \($0)" } ?? "")
            if saque.instanteConocido { cuando! += " (\(saque.textoLocal) en tu zona)" }
        } else if let fecha = ficha.fecha {
            cuando = [fecha, ficha.hora].compactMap { $0 }.joined(separator: " ")
        }
        let lugar = [cuando, ficha.estadio].compactMap { $0 }
        if !lugar.isEmpty { t.linea(lugar.joined(separator: " · ").limpio) }
        if let resumen {
            var estado = "Estado: \(resumen.textoDeEstado) · \(partido.local.nombre.limpio) "
            estado += "\(resumen.marcadorMostrado) \(partido.visitante.nombre.limpio)"
            if resumen.jugadoSinRepetir, let desenlace = resumen.resultadoOficial?.desenlace {
                estado += " \(desenlace)"
            }
            if resumen.conEjecucion && resumen.estado != .sinEmpezar {
                estado += " · minuto \(resumen.minuto)"
            } else if resumen.enDirecto && resumen.estadoMostrado == .enJuego {
                estado += " · minuto \(resumen.minutoDeJuegoMostrado)"
            }
            estado += " (\(resumen.duracionMostrada) minutos)"
            t.linea(estado)
        }
        if let texto = completa.resultadoOficial?.texto { t.linea("Resultado oficial: \(texto)") }
        t.linea("")
        if completa.goles.isEmpty {
            t.linea(
                ficha.conGuion ? "Sin goles en el guion." : "El fichero no dio la lista de goles.")
        } else {
            var tabla = Tabla(
                cabeceras: ["MINUTO", "JUGADOR", "EQUIPO", "MARCADOR"], aLaDerecha: [0])
            for gol in completa.goles {
                tabla.anadir([gol.minuto + "'", gol.jugadorConMarcas, gol.equipo, gol.marcador])
            }
            // A match played for real lists its goals; a scripted one, its script — what every
            // run plays, not what a stopped run got to (issue 42: the card of a run stopped at
            // 23' listed goals at 35' and 60' under «Goles» with a score column of its own).
            let titulo =
                ficha.oficial?.marcador != nil
                ? "Goles:" : "Guion (lo que juega cada ejecución; su marcador, sin goles a mano):"
            t.linea(titulo + "\n" + tabla.texto { t.resaltar($0, .negrita) })
        }
        var rojas = Tabla(cabeceras: ["MINUTO", "JUGADOR", "EQUIPO"], aLaDerecha: [0])
        for case .roja(let tarjeta) in partido.eventos(hasta: Duracion.conProrroga) {
            rojas.anadir([
                "\(tarjeta.minuto)'",
                tarjeta.jugador + (tarjeta.dobleAmarilla ? " (doble amarilla)" : ""),
                tarjeta.equipo,
            ])
        }
        if !rojas.estaVacia {
            t.linea("\nTarjetas rojas:\n" + rojas.texto { t.resaltar($0, .negrita) })
        }
        let revisiones = completa.cronologia.filter {
            $0.clase == .anulado || $0.clase == .corregido
        }
        if !revisiones.isEmpty {
            t.linea("\nEl directo rectificó:")
            for suceso in revisiones { t.linea("  \(suceso.minuto)' \(suceso.texto.limpio)") }
        }
        if !completa.alineaciones.isEmpty {
            t.linea("\nAlineaciones:")
            for alineacion in completa.alineaciones { t.linea("  \(alineacion.limpio)") }
        }
        if let ultima = ejecuciones.last, ultima.golesAMano != .cero {
            t.linea(
                "\nGoles a mano (\(ultima.codigo), sin minuto: se cuentan, no se juegan): "
                    + "\(partido.local.nombre.limpio) \(ultima.golesAMano.local), "
                    + "\(partido.visitante.nombre.limpio) \(ultima.golesAMano.visitante)")
        }
        if ejecuciones.isEmpty {
            t.linea(
                ficha.oficial?.marcador != nil
                    ? "\nNo se ha repetido aquí." : "\nTodavía no se ha jugado.")
        } else {
            var tabla = Tabla(
                cabeceras: ["CÓDIGO", "DURACIÓN", "ESTADO", "MARCADOR", "EMPEZÓ"], aLaDerecha: [1])
            for ejecucion in ejecuciones {
                tabla.anadir([
                    ejecucion.codigo, "\(ejecucion.duracion)", ejecucion.estadoDelPartido.texto,
                    (ejecucion.goles + ejecucion.golesAMano).description,
                    ejecucion.empezada.map(ZonaHoraria.momentoLocal) ?? "",
                ])
            }
            t.linea("\nEjecuciones:\n" + tabla.texto { t.resaltar($0, .negrita) })
        }
        return .ok
    }
}

extension String {
    /// Made safe for a terminal (safety.md).
    var limpio: String { TextoSeguro.limpio(self) }
}
