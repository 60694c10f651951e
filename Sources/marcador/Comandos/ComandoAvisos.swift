import Almacen
import Avisos
import Persistencia
import Sistema
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
        var canales: [CanalJSON]
        var entregas: [String: Int]
        var ultimos: [AvisoJSON]
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let tienda = try contexto.tienda()
        let buzon = tienda.buzon
        let ajustes = try tienda.partidos.ajustes()
        let recuento = try buzon.recuento()
        let ultimos = try buzon.ultimos(limite: self.ultimos ?? 10)
        if json {
            let documento = EstadoJSON(
                permiso: ajustes.avisosPermitidos == true, silencio: ajustes.sinAvisosEnPrimerPlano,
                canales: try CanalJSON.todos(tienda, contexto),
                entregas: Dictionary(
                    uniqueKeysWithValues: recuento.map { ($0.key.rawValue, $0.value) }),
                ultimos: ultimos.map {
                    EstadoJSON.AvisoJSON(
                        id: $0.id, partido: $0.aviso.partidoId,
                        identificador: $0.aviso.identificador,
                        titulo: $0.aviso.titulo, cuerpo: $0.aviso.cuerpo, entregas: $0.entregas,
                        adjunto: $0.enriquecido.map { $0 ? "enriquecido" : "original" },
                        motivoDelAdjunto: $0.motivoDelAdjunto)
                })
            contexto.terminal.linea(try documentoJSON(documento))
            return .ok
        }
        let terminal = contexto.terminal
        terminal.linea(AvisosActivar.texto(ajustes.avisosPermitidos == true))
        terminal.linea(
            "Silencio en primer plano: " + (ajustes.sinAvisosEnPrimerPlano ? "sí" : "no"))
        terminal.linea("\nCanales:\n" + (try CanalJSON.tabla(tienda, contexto)))
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
        try ComandoAjustes.cambiar(contexto) { $0.avisosPermitidos = true }
        contexto.terminal.linea(Self.texto(true))
        return .ok
    }

    static func texto(_ permitidos: Bool) -> String {
        permitidos ? "Avisos de gol: activados" : "Avisos de gol: desactivados"
    }
}

/// `marcador avisos desactivar`.
struct AvisosDesactivar: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "desactivar",
        resumen: "Quita el permiso de avisos de gol: nada se publica, queda como descartado.")

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        try ComandoAjustes.cambiar(contexto) { $0.avisosPermitidos = false }
        contexto.terminal.linea(AvisosActivar.texto(false))
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
        try ComandoAjustes.cambiar(contexto) { $0.sinAvisosEnPrimerPlano = silencio.valor }
        contexto.terminal.linea(AjusteSilencio.texto(silencio.valor))
        return .ok
    }
}

/// A channel as `avisos` and `avisos canales` show it.
struct CanalJSON: Encodable {
    var nombre: String
    var tipo: String
    var activo: Bool
    var disponible: Bool
    var motivo: String?
    var ajustes: String
    var sigue: FiltrosDeCanal

    @MainActor
    static func todos(_ tienda: any Tienda, _ contexto: Contexto) throws -> [CanalJSON] {
        try tienda.buzon.canales().map { canal in
            let creado = FabricaDeCanales.crear(
                canal, entorno: contexto.entorno, registro: tienda.registro(eco: false),
                cambios: tienda.cambios)
            var motivo: String?
            if case .failure(let fallo) = creado { motivo = fallo.motivo }
            return CanalJSON(
                nombre: canal.nombre, tipo: canal.tipo.rawValue, activo: canal.activo,
                disponible: motivo == nil, motivo: motivo, ajustes: ajustesVisibles(canal),
                sigue: canal.filtros)
        }
    }

    /// Settings as they may be shown: webhook URLs keep only scheme, host and port.
    static func ajustesVisibles(_ canal: CanalConfigurado) -> String {
        let ajustes = AjustesDeCanal.leer(canal.ajustes)
        var partes: [String] = []
        if let url = ajustes.url { partes.append("url=" + CanalWebhook.urlVisible(url)) }
        if let directorio = ajustes.directorio { partes.append("directorio=" + directorio) }
        if let bundle = ajustes.bundle { partes.append("bundle=" + bundle) }
        if let limite = ajustes.limite { partes.append("limite=\(formatoDeSegundos(limite)) s") }
        if ajustes.ntfy == true { partes.append("ntfy") }
        return partes.joined(separator: " ")
    }

    @MainActor
    static func tabla(_ tienda: any Tienda, _ contexto: Contexto) throws -> String {
        var tabla = Tabla(cabeceras: ["NOMBRE", "TIPO", "ESTADO", "SIGUE", "AJUSTES"])
        for canal in try todos(tienda, contexto) {
            let estado =
                !canal.activo
                ? "en pausa" : canal.disponible ? "activo" : "no disponible: \(canal.motivo ?? "")"
            tabla.anadir([
                canal.nombre, canal.tipo, estado, canal.sigue.descripcion, canal.ajustes,
            ])
        }
        return tabla.texto { contexto.terminal.resaltar($0, .negrita) }
    }
}
