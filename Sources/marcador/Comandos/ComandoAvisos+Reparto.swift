import Almacen
import Avisos
import Persistencia
import Sistema
import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lease a dispatcher process takes, for `enviar` and `vigilar`.
struct OpcionDeArriendo: GrupoDeOpciones {
    @Opcion(
        "--arriendo", marcador: "SEGUNDOS", rango: 1...86_400, unidad: " segundos",
        ayuda:
            "Cuánto es suyo un aviso reclamado si este proceso muere, de 1 a 86400 segundos (por defecto, 60); mientras vive lo renueva."
    )
    var arriendo: Double?

    var configuracion: Despachador.Configuracion {
        var configuracion = Despachador.Configuracion()
        if let arriendo { configuracion.arriendo = arriendo }
        return configuracion
    }
}

/// Building dispatchers for this process's channels.
@MainActor
enum Reparto {
    /// The channels that work here; those that do not are reported once per change.
    static func canalesActivos(
        _ tienda: any Tienda, _ contexto: Contexto, registro: any Registro,
        avisados: inout Set<String>
    ) throws -> [CanalActivo] {
        let (canales, fallos) = FabricaDeCanales.activos(
            try tienda.buzon.canales(), entorno: contexto.entorno, registro: registro,
            cambios: tienda.cambios)
        for fallo in fallos where avisados.insert("\(fallo.canal) \(fallo.motivo)").inserted {
            escribirEnStderr(
                "marcador: canal \(TextoSeguro.limpio(fallo.canal)) no disponible aquí: \(fallo.motivo).\n"
            )
        }
        return canales
    }

    static func despachador(
        _ tienda: any Tienda, _ contexto: Contexto, configuracion: Despachador.Configuracion,
        avisados: inout Set<String>
    ) throws -> Despachador {
        let registro = tienda.registro(eco: true)
        let canales = try canalesActivos(tienda, contexto, registro: registro, avisados: &avisados)
        let repositorio = tienda.partidos
        return Despachador(
            buzon: tienda.buzon, canales: canales, registro: registro, configuracion: configuracion,
            enriquecedor: try Enriquecedores.crear(repositorio, entorno: contexto.entorno),
            permitido: { try repositorio.avisosPermitidos() })
    }

    /// Keeps `despachador` serving until the calling task is cancelled (`vigilar`, `servir`):
    /// a changed channel table is applied within one poll, orphaned banners expire, and the
    /// store is pruned every few minutes.
    static func vigilar(
        _ despachador: Despachador, _ tienda: any Tienda, _ contexto: Contexto,
        avisados: Set<String>
    ) async throws {
        let registro = tienda.registro(eco: true)
        let buzon = tienda.buzon
        var avisados = avisados
        despachador.arrancar()
        // On PostgreSQL a new delivery rings at once (LISTEN); the poll stays as a fallback.
        let escucha = tienda.escuchar(.entregas) { _ in despachador.despertar() }
        defer { escucha?.parar() }
        var configurados = try buzon.canales()
        var vueltas = 0
        while !Task.isCancelled {
            try? await Task.sleep(for: despachador.configuracion.sondeo)
            if Task.isCancelled { break }
            let ahora = try buzon.canales()
            if ahora != configurados {
                configurados = ahora
                await despachador.actualizar(
                    canales: try canalesActivos(
                        tienda, contexto, registro: registro, avisados: &avisados))
            }
            vueltas += 1
            if vueltas % 25 == 0 { try buzon.caducarBannersHuerfanos(ahora: segundosUnix()) }
            if vueltas % 300 == 1 { try tienda.mantenimiento.podar(ahora: segundosUnix()) }
        }
    }

    static func texto(_ resumen: ResumenDeEnvio) -> String {
        "Entregadas: \(resumen.entregadas), para reintentar: \(resumen.reintentos), "
            + "fallidas: \(resumen.fallidas), descartadas: \(resumen.descartadas), "
            + "caducadas: \(resumen.caducadas)."
    }
}

/// `marcador avisos enviar`: one drain of everything due now, every channel at once.
struct AvisosEnviar: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "enviar", resumen: "Entrega una vez todo lo que toca ahora y termina.")

    var arriendo = OpcionDeArriendo()

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let tienda = try contexto.tienda()
        try tienda.mantenimiento.podar(ahora: segundosUnix())
        var avisados = Set<String>()
        let despachador = try Reparto.despachador(
            tienda, contexto, configuracion: arriendo.configuracion, avisados: &avisados)
        let senales = Senales.escuchar([SIGINT, SIGTERM, SIGHUP])
        let salida = SalidaPorSenal()
        let envio = Task { try await despachador.enviarPendientes() }
        let vigia = Task { @MainActor in
            for await numero in senales {
                salida.recibir(numero)
                envio.cancel()
                return
            }
        }
        defer { vigia.cancel() }
        let resumen = try await envio.value
        if let senal = salida.senal {
            // What was in flight is given back for the next dispatcher, same key.
            try tienda.buzon.liberar(
                arrendatario: despachador.arrendatario, canal: nil, ahora: segundosUnix())
            return CodigoDeSalida.porSenal(senal)
        }
        contexto.terminal.linea(Reparto.texto(resumen))
        return .ok
    }
}

/// `marcador avisos vigilar`: keeps delivering until a signal; follows channel changes.
struct AvisosVigilar: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "vigilar",
        resumen: "Sigue entregando hasta Ctrl-C (130), SIGTERM (143) o SIGHUP (129).",
        detalles: """
            Lee los canales en cada vuelta (cada 200 ms): los que se añaden, cambian, pausan o
            quitan mientras vigila se atienden desde la vuelta siguiente.
            """)

    var arriendo = OpcionDeArriendo()

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let tienda = try contexto.tienda()
        var avisados = Set<String>()
        let despachador = try Reparto.despachador(
            tienda, contexto, configuracion: arriendo.configuracion, avisados: &avisados)
        let senales = Senales.escuchar([SIGINT, SIGTERM, SIGHUP])
        let salida = SalidaPorSenal()
        let yaAvisados = avisados
        let bucle = Task { @MainActor in
            try await Reparto.vigilar(despachador, tienda, contexto, avisados: yaAvisados)
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
        contexto.terminal.linea(Reparto.texto(total))
        return salida.senal.map(CodigoDeSalida.porSenal) ?? .interrumpido
    }
}

/// `marcador avisos reintentar`.
struct AvisosReintentar: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "reintentar",
        resumen: "Vuelve a poner en cola las entregas fallidas, con los intentos a cero.")

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let n = try contexto.tienda().buzon.reintentarFallidas(ahora: segundosUnix())
        contexto.terminal.linea(
            n == 1
                ? "1 entrega fallida vuelve a la cola."
                : "\(n) entregas fallidas vuelven a la cola.")
        return .ok
    }
}

/// `marcador avisos probar [--canal NOMBRE]`: a test notice through the outbox, and what each
/// channel did with it.
struct AvisosProbar: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "probar",
        resumen:
            "Manda un aviso de prueba («Prueba de marcador») por la cola y dice qué hizo cada canal.",
        detalles: """
            Sale con 0 si todos los canales lo entregaron y con 69 si alguno no pudo (el aviso
            queda en la cola para reintentarse como cualquier otro).
            """)

    @Opcion(
        "--canal", marcador: "NOMBRE", ayuda: "Solo ese canal (por defecto, todos los activos).")
    var canal: String?

    var arriendo = OpcionDeArriendo()

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let tienda = try contexto.tienda()
        let buzon = tienda.buzon
        let canales = try buzon.canales()
        if let canal {
            guard let elegido = canales.first(where: { $0.nombre == canal }) else {
                throw Fallo.noEncontrado("No hay ningún canal llamado \(citado(canal)).")
            }
            guard elegido.activo else {
                throw Fallo.uso(
                    "El canal \(citado(canal)) está en pausa: «marcador avisos canales activar \(canal.limpio)»."
                )
            }
        } else if !canales.contains(where: \.activo) {
            throw Fallo.uso("No hay canales activos a los que mandar la prueba.")
        }
        let aviso = try buzon.encolarPrueba(canal: canal, ahora: segundosUnix())
        var avisados = Set<String>()
        let despachador = try Reparto.despachador(
            tienda, contexto, configuracion: arriendo.configuracion, avisados: &avisados)
        try await despachador.enviarPendientes(aviso: aviso)
        var todos = true
        for entrega in try buzon.entregas(aviso: aviso) {
            var linea = "\(entrega.canal.limpio): "
            switch entrega.estado {
            case .entregada: linea += "entregado"
            case .pendiente:
                linea +=
                    "no entregado (\(entrega.ultimoError ?? "no disponible aquí")); se reintentará"
            default: linea += "\(entrega.estado.rawValue) (\(entrega.ultimoError ?? ""))"
            }
            if entrega.estado != .entregada { todos = false }
            contexto.terminal.linea(linea)
        }
        return todos ? .ok : .canalNoDisponible
    }
}
