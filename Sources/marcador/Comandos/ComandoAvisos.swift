import Aplicacion
import Persistencia
import Torneo

/// `marcador avisos …`: permission, quiet mode, channels, the outbox, and its dispatchers.
/// Alone, it shows where the notices stand.
struct ComandoAvisos: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "avisos",
        resumen:
            "Avisos de gol: permiso, silencio, canales, estado de la cola, enviar, vigilar, reintentar.",
        detalles: """
            Sin subcomando muestra el permiso, el silencio, los canales, las entregas por estado y
            los últimos avisos.
            Reintentos: hasta 5 intentos con espera exponencial (1, 2, 4, 8 s, con variación
            aleatoria; respeta Retry-After). Un aviso con más de 10 minutos caduca sin entregarse.
            """,
        subcomandos: [
            AvisosActivar.self, AvisosDesactivar.self, AvisosSilencio.self, AvisosCanales.self,
            AvisosEnviar.self, AvisosVigilar.self, AvisosReintentar.self, AvisosProbar.self,
        ])

    @Bandera("--json", ayuda: "Escribe el estado en JSON, para otros programas.")
    var json: Bool

    @Opcion(
        "--ultimos", marcador: "N", desde: 1,
        ayuda: "Cuántos avisos recientes mostrar, 1 o más (por defecto, 10).")
    var ultimos: Int?

    struct EstadoJSON: Encodable {
        struct AvisoJSON: Encodable {
            var id: Int
            var partido: Int
            /// `gol`, `anulado`, `inicio`, `descanso`, `final`, `prueba`.
            var tipo: String
            var identificador: String
            var titulo: String
            var cuerpo: String
            var entregas: [EntregaDeAviso]
            /// `enriquecido`, `original` or absent (no attachment, or not tried yet).
            var adjunto: String?
            var motivoDelAdjunto: String?
        }
        var permiso: Bool
        var silencio: Bool
        var canales: [EstadoDeCanal]
        var entregas: [String: Int]
        var ultimos: [AvisoJSON]
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let nucleo = try contexto.nucleo()
        let estado = try nucleo.estadoDeAvisos(ultimos: self.ultimos ?? 10)
        let (ajustes, recuento, ultimos) = (estado.ajustes, estado.recuento, estado.ultimos)
        if json {
            let documento = EstadoJSON(
                permiso: ajustes.avisosPermitidos == true, silencio: ajustes.sinAvisosEnPrimerPlano,
                canales: estado.canales,
                entregas: Dictionary(
                    uniqueKeysWithValues: recuento.map { ($0.key.rawValue, $0.value) }),
                ultimos: ultimos.map {
                    EstadoJSON.AvisoJSON(
                        id: $0.id, partido: $0.aviso.partidoId, tipo: $0.aviso.tipo.rawValue,
                        identificador: $0.aviso.identificador,
                        titulo: $0.aviso.titulo, cuerpo: $0.aviso.cuerpo, entregas: $0.entregas,
                        adjunto: $0.enriquecido.map { $0 ? "enriquecido" : "original" },
                        motivoDelAdjunto: $0.motivoDelAdjunto)
                })
            contexto.terminal.linea(try documentoJSON(documento))
            return .ok
        }
        let terminal = contexto.terminal
        terminal.linea(Frases.permiso(ajustes.avisosPermitidos == true))
        terminal.linea(
            "Silencio en primer plano: " + (ajustes.sinAvisosEnPrimerPlano ? "sí" : "no"))
        terminal.linea("\nCanales:\n" + tablaDeCanales(estado.canales, terminal))
        terminal.linea(
            "\nEntregas: "
                + EstadoDeEntrega.allCases.map { "\(recuento[$0] ?? 0) \($0.plural)" }
                .joined(separator: ", "))
        guard !ultimos.isEmpty else {
            terminal.linea("\nTodavía no hay avisos.")
            return .ok
        }
        var tabla = Tabla(
            cabeceras: ["ID", "PARTIDO", "IDENTIFICADOR", "AVISO", "ADJUNTO", "ENTREGAS"],
            aLaDerecha: [0, 1])
        for aviso in ultimos {
            let entregas = aviso.entregas.map { entrega in
                var texto = "\(entrega.canal): \(entrega.estado.rawValue)"
                if let error = entrega.ultimoError, entrega.estado != .entregada {
                    texto += " (\(error))"
                }
                return texto
            }.joined(separator: " · ")
            let adjunto: String
            switch aviso.enriquecido {
            case true?: adjunto = "enriquecido"
            case false?: adjunto = "original (\(aviso.motivoDelAdjunto ?? ""))"
            case nil: adjunto = aviso.aviso.adjunto == nil ? "-" : "pendiente"
            }
            tabla.anadir([
                "\(aviso.id)", "\(aviso.aviso.partidoId)", aviso.aviso.identificador,
                aviso.aviso.cuerpo, adjunto, entregas,
            ])
        }
        terminal.linea("\nÚltimos avisos:\n" + tabla.texto { terminal.resaltar($0, .negrita) })
        return .ok
    }
}

/// `marcador avisos activar`: like the system dialog's «Permitir».
struct AvisosActivar: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "activar", resumen: "Da el permiso de avisos de gol (sin preguntar).")

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        try contexto.nucleo().permitirAvisos(true)
        contexto.terminal.linea(Frases.permiso(true))
        return .ok
    }
}

/// `marcador avisos desactivar`.
struct AvisosDesactivar: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "desactivar",
        resumen: "Quita el permiso de avisos de gol: nada se publica, queda como descartado.")

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        try contexto.nucleo().permitirAvisos(false)
        contexto.terminal.linea(Frases.permiso(false))
        return .ok
    }
}

/// `marcador avisos silencio si|no`: the same setting as `marcador ajustes silencio`.
struct AvisosSilencio: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "silencio",
        resumen:
            "Sin banner ni campana en la terminal que mira el partido (igual que «ajustes silencio»)."
    )

    @Argumento("SI|NO", ayuda: "«si» o «no».")
    var silencio: SiNo

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        try contexto.nucleo().cambiarSilencio(silencio.valor)
        contexto.terminal.linea(Frases.silencio(silencio.valor))
        return .ok
    }
}

/// The channels as a table, for `avisos` and `avisos canales`.
@MainActor
func tablaDeCanales(_ canales: [EstadoDeCanal], _ terminal: Terminal) -> String {
    var tabla = Tabla(cabeceras: ["NOMBRE", "TIPO", "ESTADO", "SIGUE", "AJUSTES"])
    for canal in canales {
        let estado =
            !canal.activo
            ? "en pausa" : canal.disponible ? "activo" : "no disponible: \(canal.motivo ?? "")"
        tabla.anadir([canal.nombre, canal.tipo, estado, canal.sigue.descripcion, canal.ajustes])
    }
    return tabla.texto { terminal.resaltar($0, .negrita) }
}
