import Almacen
import Avisos
import Sistema
import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `marcador avisos …`: permission, quiet mode, channels, the outbox, and its dispatchers.
struct ComandoAvisos: Comando {
    static let nombre = "avisos"
    static let resumen =
        "Avisos de gol: permiso, silencio, canales, estado de la cola, enviar, vigilar, reintentar."
    static let posicionales = [
        Posicional(
            nombre: "ACCIÓN", ayuda: "Qué hacer (sin acción, muestra el estado).", opcional: true),
        Posicional(nombre: "ARGUMENTOS", ayuda: "Lo que pida la acción.", opcional: true),
    ]
    static let opciones: [Opcion] = [
        .bandera("--json", ayuda: "Escribe el estado en JSON, para otros programas."),
        .conValor("--ultimos", "N", ayuda: "Cuántos avisos recientes mostrar (por defecto, 10)."),
        .conValor("--nombre", "NOMBRE", ayuda: "Nombre del canal nuevo (por defecto, su tipo)."),
        .conValor("--url", "URL", ayuda: "URL del webhook (http:// o https://)."),
        .conValor(
            "--directorio", "DIR", ayuda: "Carpeta donde el canal apns deja los ficheros .apns."),
        .conValor("--bundle", "ID", ayuda: "«Simulator Target Bundle» de los ficheros .apns."),
        .conValor(
            "--limite", "SEGUNDOS",
            ayuda: "Tiempo máximo de una entrega del canal (por defecto, 10)."),
        .conValor(
            "--arriendo", "SEGUNDOS",
            ayuda: "Cuánto tiempo es suyo un aviso reclamado por este proceso (por defecto, 60)."),
        .bandera("--ntfy", ayuda: "El webhook habla como ntfy (título y adjunto en cabeceras)."),
        .bandera(
            "--reemplazar", ayuda: "Al añadir un canal, reemplaza el que tenga el mismo nombre."),
    ]
    static let detalles: String? = """
        Acciones:
          (ninguna)                     Permiso, silencio, canales, entregas por estado y últimos avisos.
          activar | desactivar          Da o quita el permiso de avisos de gol (sin preguntar).
          silencio si|no                Sin banner ni campana en la terminal que mira el partido.
          canales                       Lista los canales.
          canales añadir TIPO           Añade un canal: registro, escritorio, webhook (--url) o
                                        apns (--directorio [--bundle]).
          canales quitar NOMBRE         Quita un canal (sus entregas pendientes se descartan).
          enviar                        Entrega una vez todo lo que toca ahora.
          vigilar                       Sigue entregando hasta Ctrl-C (sale con 130).
          reintentar                    Vuelve a poner en cola las entregas fallidas.
        Reintentos: hasta 5 intentos con espera exponencial (1, 2, 4, 8 s, con variación
        aleatoria; respeta Retry-After). Un aviso con más de 10 minutos caduca sin entregarse.
        """

    enum Accion: Equatable {
        case estado
        case permiso(Bool)
        case silencio(Bool)
        case listarCanales
        case anadirCanal(tipo: TipoDeCanal)
        case quitarCanal(String)
        case enviar
        case vigilar
        case reintentar
    }

    let accion: Accion
    let argumentos: Argumentos

    init(_ argumentos: Argumentos) throws(Fallo) {
        self.argumentos = argumentos
        let p = argumentos.posicionales
        func exigir(_ n: Int, _ uso: String) throws(Fallo) {
            if p.count < n { throw .uso("Falta un argumento. Uso: marcador avisos \(uso)") }
            if p.count > n {
                throw .uso("Sobra el argumento «\(p[n])». Uso: marcador avisos \(uso)")
            }
        }
        switch p.first {
        case nil: accion = .estado
        case "activar":
            try exigir(1, "activar")
            accion = .permiso(true)
        case "desactivar":
            try exigir(1, "desactivar")
            accion = .permiso(false)
        case "silencio":
            try exigir(2, "silencio si|no")
            guard ["si", "sí", "no"].contains(p[1]) else {
                throw .uso("Indica «si» o «no» para silencio, no «\(p[1])».")
            }
            accion = .silencio(p[1] != "no")
        case "canales":
            switch p.count > 1 ? p[1] : nil {
            case nil: accion = .listarCanales
            case "añadir", "anadir":
                try exigir(3, "canales añadir TIPO [--nombre N] [--url URL] [--directorio DIR]")
                guard let tipo = TipoDeCanal(rawValue: p[2]) else {
                    throw .uso(
                        "Tipo de canal desconocido «\(TextoSeguro.limpio(p[2]))». Tipos: "
                            + TipoDeCanal.lista + ".")
                }
                accion = .anadirCanal(tipo: tipo)
            case "quitar":
                try exigir(3, "canales quitar NOMBRE")
                accion = .quitarCanal(p[2])
            case let otra?:
                throw .uso("Acción de canales desconocida «\(otra)». Acciones: añadir, quitar.")
            }
        case "enviar":
            try exigir(1, "enviar")
            accion = .enviar
        case "vigilar":
            try exigir(1, "vigilar")
            accion = .vigilar
        case "reintentar":
            try exigir(1, "reintentar")
            accion = .reintentar
        case let otra?:
            throw .uso(
                "Acción desconocida «\(otra)». Acciones: activar, desactivar, silencio, canales, "
                    + "enviar, vigilar, reintentar.")
        }
        let deCanal = ["--nombre", "--url", "--directorio", "--bundle", "--limite"]
        if case .anadirCanal = accion {
        } else if let opcion = deCanal.first(where: { argumentos.valor($0) != nil })
            ?? ["--ntfy", "--reemplazar"].first(where: { argumentos.tiene($0) })
        {
            throw .uso("\(opcion) solo vale con «marcador avisos canales añadir».")
        }
        if argumentos.valor("--arriendo") != nil && accion != .enviar && accion != .vigilar {
            throw .uso("--arriendo solo vale con «avisos enviar» y «avisos vigilar».")
        }
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let queue = try contexto.almacen()
        let repositorio = PartidosSQLite(queue)
        let buzon = BuzonSQLite(queue)
        let terminal = contexto.terminal
        switch accion {
        case .estado:
            try mostrarEstado(repositorio, buzon, contexto)
        case .permiso(let permitido):
            var ajustes = try repositorio.ajustes()
            ajustes.avisosPermitidos = permitido
            try repositorio.guardar(ajustes)
            terminal.linea(permitido ? "Avisos de gol: activados" : "Avisos de gol: desactivados")
        case .silencio(let silencio):
            var ajustes = try repositorio.ajustes()
            ajustes.sinAvisosEnPrimerPlano = silencio
            try repositorio.guardar(ajustes)
            terminal.linea(
                silencio ? "Silencio: sí (sin banner ni campana en la terminal)." : "Silencio: no.")
        case .listarCanales:
            terminal.linea(try tablaDeCanales(buzon, contexto))
        case .anadirCanal(let tipo):
            return try anadirCanal(tipo, buzon, contexto)
        case .quitarCanal(let nombre):
            guard try buzon.quitarCanal(nombre) else {
                throw Fallo.noEncontrado(
                    "No hay ningún canal llamado «\(TextoSeguro.limpio(nombre))».")
            }
            terminal.linea("Canal «\(TextoSeguro.limpio(nombre))» quitado.")
        case .enviar:
            try MantenimientoSQLite(queue).podar(ahora: segundosUnix())
            let despachador = try despachador(queue, contexto)
            let resumen = try await despachador.enviarPendientes()
            terminal.linea(Self.texto(resumen))
        case .vigilar:
            return try await vigilar(queue, contexto)
        case .reintentar:
            let n = try buzon.reintentarFallidas(ahora: segundosUnix())
            terminal.linea(
                n == 1
                    ? "1 entrega fallida vuelve a la cola."
                    : "\(n) entregas fallidas vuelven a la cola.")
        }
        return .ok
    }

    static func texto(_ resumen: ResumenDeEnvio) -> String {
        "Entregadas: \(resumen.entregadas), para reintentar: \(resumen.reintentos), "
            + "fallidas: \(resumen.fallidas), descartadas: \(resumen.descartadas), "
            + "caducadas: \(resumen.caducadas)."
    }

    private func configuracion() throws -> Despachador.Configuracion {
        var configuracion = Despachador.Configuracion()
        if let texto = argumentos.valor("--arriendo") {
            guard let arriendo = Double(texto), arriendo >= 1, arriendo <= 86_400 else {
                throw Fallo.uso(
                    "--arriendo va de 1 a 86400 segundos, no «\(TextoSeguro.limpio(texto))».")
            }
            configuracion.arriendo = arriendo
        }
        return configuracion
    }

    /// The channels that work here; those that do not are reported once per change.
    private func canalesActivos(
        _ buzon: BuzonSQLite, _ contexto: Contexto, registro: any Registro,
        avisados: inout Set<String>
    ) throws -> [CanalActivo] {
        let (canales, fallos) = FabricaDeCanales.activos(
            try buzon.canales(), entorno: contexto.entorno, registro: registro)
        for fallo in fallos where avisados.insert("\(fallo.canal) \(fallo.motivo)").inserted {
            escribirEnStderr(
                "marcador: canal \(TextoSeguro.limpio(fallo.canal)) no disponible aquí: \(fallo.motivo).\n"
            )
        }
        return canales
    }

    private func despachador(_ queue: DatabaseQueue, _ contexto: Contexto) throws -> Despachador {
        let registro = RegistroSQLite(queue)
        let buzon = BuzonSQLite(queue)
        var avisados = Set<String>()
        let canales = try canalesActivos(buzon, contexto, registro: registro, avisados: &avisados)
        let repositorio = PartidosSQLite(queue)
        let configuracion = try configuracion()
        return Despachador(
            buzon: buzon, canales: canales, registro: registro, configuracion: configuracion,
            enriquecedor: try Enriquecedores.crear(repositorio, entorno: contexto.entorno),
            permitido: { try repositorio.ajustes().avisosPermitidos == true })
    }

    /// Keeps delivering until SIGINT, SIGTERM or SIGHUP, which end it within the tick (what is
    /// in flight is abandoned and its lease given back). Channels added, removed or changed
    /// meanwhile are served from the next poll.
    private func vigilar(_ queue: DatabaseQueue, _ contexto: Contexto) async throws
        -> CodigoDeSalida
    {
        let registro = RegistroSQLite(queue)
        let buzon = BuzonSQLite(queue)
        var avisados = Set<String>()
        let despachador = try despachador(queue, contexto)
        let senales = Senales.escuchar([SIGINT, SIGTERM, SIGHUP])
        let salida = SalidaPorSenal()
        let sondeo = despachador.configuracion.sondeo
        let bucle = Task { @MainActor in
            despachador.arrancar()
            var configurados = try buzon.canales()
            var vueltas = 0
            while !Task.isCancelled {
                try? await Task.sleep(for: sondeo)
                if Task.isCancelled { break }
                // Live configuration: a changed channel table is applied within one poll.
                let ahora = try buzon.canales()
                if ahora != configurados {
                    configurados = ahora
                    await despachador.actualizar(
                        canales: try canalesActivos(
                            buzon, contexto, registro: registro, avisados: &avisados))
                }
                vueltas += 1
                if vueltas % 25 == 0 { try buzon.caducarBannersHuerfanos(ahora: segundosUnix()) }
                if vueltas % 300 == 1 {
                    try MantenimientoSQLite(queue).podar(ahora: segundosUnix())
                }
            }
        }
        let vigia = Task { @MainActor in
            for await numero in senales {
                salida.recibir(numero)
                bucle.cancel()
                return
            }
        }
        defer { vigia.cancel() }
        contexto.terminal.linea("Vigilando la cola de avisos; Ctrl-C para terminar.")
        let fallo: (any Error)?
        switch await bucle.result {
        case .success: fallo = nil
        case .failure(let error): fallo = error
        }
        let total = await despachador.detener(plazo: .zero)
        if let fallo { throw fallo }
        contexto.terminal.linea(Self.texto(total))
        return salida.senal.map(CodigoDeSalida.porSenal) ?? .interrumpido
    }

    private func anadirCanal(_ tipo: TipoDeCanal, _ buzon: BuzonSQLite, _ contexto: Contexto)
        throws -> CodigoDeSalida
    {
        let nombre = argumentos.valor("--nombre") ?? tipo.rawValue
        guard !nombre.isEmpty, nombre.count <= 64, !TextoSeguro.tieneControl(nombre),
            nombre != TipoDeCanal.nombreTerminal
        else {
            throw Fallo.uso(
                "«\(TextoSeguro.limpio(nombre))» no vale como nombre de canal "
                    + "(de 1 a 64 caracteres, sin caracteres de control; «terminal» está reservado)."
            )
        }
        var ajustes = AjustesDeCanal()
        if let limite = argumentos.valor("--limite") {
            guard let segundos = Double(limite), segundos > 0, segundos <= 300 else {
                throw Fallo.uso(
                    "--limite va de más de 0 a 300 segundos, no «\(TextoSeguro.limpio(limite))».")
            }
            ajustes.limite = segundos
        }
        switch tipo {
        case .webhook:
            guard let url = argumentos.valor("--url") else {
                throw Fallo.uso("Un canal webhook necesita --url URL.")
            }
            do {
                _ = try DireccionWeb(url)
            } catch {
                throw Fallo.uso(
                    "La URL del webhook \(error.mensaje): «\(DireccionWeb.visible(url))».")
            }
            ajustes.url = url
            if argumentos.tiene("--ntfy") { ajustes.ntfy = true }
        case .apns:
            guard let directorio = argumentos.valor("--directorio") else {
                throw Fallo.uso("Un canal apns necesita --directorio DIR.")
            }
            ajustes.directorio =
                directorio.hasPrefix("/") ? directorio : directorioActual() + "/" + directorio
            ajustes.bundle = argumentos.valor("--bundle")
        case .registro, .escritorio:
            break
        }
        if tipo != .webhook && argumentos.tiene("--ntfy") {
            throw Fallo.uso("--ntfy solo vale para un canal webhook.")
        }
        let configurado = CanalConfigurado(nombre: nombre, tipo: tipo, ajustes: ajustes.json)
        if case .failure(let fallo) = FabricaDeCanales.crear(
            configurado, entorno: contexto.entorno,
            registro: RegistroSQLite(buzon.queue, eco: false))
        {
            throw Fallo(
                mensaje:
                    "El canal \(tipo.rawValue) no está disponible en esta máquina: \(fallo.motivo).",
                codigo: .canalNoDisponible)
        }
        let reemplazar = argumentos.tiene("--reemplazar")
        guard try buzon.guardar(configurado, reemplazar: reemplazar) else {
            throw Fallo.uso(
                "Ya hay un canal llamado «\(TextoSeguro.limpio(nombre))». Elige otro --nombre, "
                    + "o añade --reemplazar para sustituirlo.")
        }
        contexto.terminal.linea(
            "Canal «\(TextoSeguro.limpio(nombre))» (\(tipo.rawValue)) "
                + (reemplazar ? "guardado." : "añadido."))
        return .ok
    }

    private func directorioActual() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        return getcwd(&buffer, buffer.count).map { String(cString: $0) } ?? "."
    }

    // MARK: - Estado

    struct CanalJSON: Encodable {
        var nombre: String
        var tipo: String
        var activo: Bool
        var disponible: Bool
        var motivo: String?
        var ajustes: String
    }

    private func canalesJSON(_ buzon: BuzonSQLite, _ contexto: Contexto) throws -> [CanalJSON] {
        try buzon.canales().map { canal in
            let creado = FabricaDeCanales.crear(
                canal, entorno: contexto.entorno, registro: RegistroSQLite(buzon.queue, eco: false))
            var motivo: String?
            if case .failure(let fallo) = creado { motivo = fallo.motivo }
            return CanalJSON(
                nombre: canal.nombre, tipo: canal.tipo.rawValue, activo: canal.activo,
                disponible: motivo == nil,
                motivo: motivo, ajustes: Self.ajustesVisibles(canal))
        }
    }

    /// Settings as they may be shown: webhook URLs keep only scheme, host and port.
    static func ajustesVisibles(_ canal: CanalConfigurado) -> String {
        let ajustes = AjustesDeCanal.leer(canal.ajustes)
        var partes: [String] = []
        if let url = ajustes.url { partes.append("url=" + CanalWebhook.urlVisible(url)) }
        if let directorio = ajustes.directorio { partes.append("directorio=" + directorio) }
        if let bundle = ajustes.bundle { partes.append("bundle=" + bundle) }
        if let limite = ajustes.limite { partes.append("limite=\(limite) s") }
        if ajustes.ntfy == true { partes.append("ntfy") }
        return partes.joined(separator: " ")
    }

    private func tablaDeCanales(_ buzon: BuzonSQLite, _ contexto: Contexto) throws -> String {
        var tabla = Tabla(cabeceras: ["NOMBRE", "TIPO", "ESTADO", "AJUSTES"])
        for canal in try canalesJSON(buzon, contexto) {
            let estado =
                !canal.activo
                ? "inactivo" : canal.disponible ? "activo" : "no disponible: \(canal.motivo ?? "")"
            tabla.filas.append([canal.nombre, canal.tipo, estado, canal.ajustes])
        }
        return tabla.texto { contexto.terminal.resaltar($0, .negrita) }
    }

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

    private func mostrarEstado(
        _ repositorio: PartidosSQLite, _ buzon: BuzonSQLite, _ contexto: Contexto
    )
        throws
    {
        let ajustes = try repositorio.ajustes()
        let limite = try argumentos.entero("--ultimos") ?? 10
        guard limite >= 0 else { throw Fallo.uso("--ultimos debe ser 0 o más, no \(limite).") }
        let recuento = try buzon.recuento()
        let ultimos = try buzon.ultimos(limite: limite)
        if contexto.json {
            let documento = EstadoJSON(
                permiso: ajustes.avisosPermitidos == true, silencio: ajustes.sinAvisosEnPrimerPlano,
                canales: try canalesJSON(buzon, contexto),
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
            return
        }
        let terminal = contexto.terminal
        terminal.linea(
            ajustes.avisosPermitidos == true
                ? "Avisos de gol: activados" : "Avisos de gol: desactivados")
        terminal.linea(
            "Silencio en primer plano: " + (ajustes.sinAvisosEnPrimerPlano ? "sí" : "no"))
        terminal.linea("\nCanales:\n" + (try tablaDeCanales(buzon, contexto)))
        terminal.linea(
            "\nEntregas: "
                + EstadoDeEntrega.allCases.map { "\(recuento[$0] ?? 0) \($0.plural)" }
                .joined(separator: ", "))
        guard !ultimos.isEmpty else {
            terminal.linea("\nTodavía no hay avisos.")
            return
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
            tabla.filas.append([
                "\(aviso.id)", "\(aviso.aviso.partidoId)", aviso.aviso.identificador,
                aviso.aviso.cuerpo, adjunto, entregas,
            ])
        }
        terminal.linea("\nÚltimos avisos:\n" + tabla.texto { terminal.resaltar($0, .negrita) })
    }
}
