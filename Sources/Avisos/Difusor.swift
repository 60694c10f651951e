import Persistencia
import Sistema
import Synchronization
import Torneo

/// Delivers notices to devices by shards (contract.md §20): leases a shard, streams its
/// devices page by page in id order, sends a whole page at once (one batch per provider over
/// several HTTP/2 connections, up to `enVuelo` streams each), and commits the cursor — the
/// last device of the settled prefix — with the page's outcomes, so a dispatcher that dies is
/// resumed from there and repeats at most the page it was sending.
///
/// Memory does not grow with the number of devices: one page is all a shard holds. A device that fails for now gets a one-device shard of its own, due at its
/// backoff; one the provider calls dead is removed in the next commit, with the others.
public final class Difusor: Sendable {
    public struct Configuracion: Sendable {
        /// Seconds a shard belongs to this dispatcher unless it commits progress.
        public var arriendo: Double = 60
        public var caducidad: Double = AvisoDeGol.tiempoDeVida
        /// Devices read per statement, sent at once and committed together.
        public var pagina = 2_000
        /// Devices of a shard's first page.
        public var primeraPagina = 200
        /// Requests in flight per HTTP/2 connection (and one-by-one deliveries per page).
        public var enVuelo = 1_000
        /// HTTP/2 connections per provider.
        public var conexiones = 4
        /// Seconds a request of a batch waits for its answer.
        public var espera: Double = 10
        public var politica = PoliticaDeReintentos()
        public var soloPrimerosIntentos = false
        /// How often a serving difusor looks for due shards when nobody rang.
        public var sondeo: Duration = .milliseconds(200)
        /// Shards worked at once by this process.
        public var tramosALaVez = 2

        public init() {}
    }

    /// How one device's delivery ended, held until the cursor passes it.
    enum Resultado: Sendable {
        /// Cancelled without an answer: not settled, the next holder sends it again.
        case cancelado
        case omitido
        case entregada
        case fallida(String)
        case retirada(String)
        case reintento(AvanceDeTramo.Reintento)
    }

    let difusiones: any Difusiones
    let registro: any Registro
    public let configuracion: Configuracion
    public let arrendatario: String
    let ahora: @Sendable () -> Double
    let reloj: Reloj
    let ejecutor: EjecutorDedicado
    /// A device's notifier on connection number `conexion` (or why it cannot work here).
    let crear: @Sendable (CanalConfigurado, Int) -> Result<any Notificador, FalloDeCanal>
    let permitido: @Sendable () throws -> Bool
    /// One doorbell per serving worker (a doorbell has one waiter).
    private let timbres: [Timbre]
    private let servicio = Mutex<Task<Void, Never>?>(nil)
    private let turno = Atomic<Int>(0)
    private let parando = Atomic<Bool>(false)

    public init(
        difusiones: any Difusiones, registro: any Registro,
        configuracion: Configuracion = Configuracion(), arrendatario: String,
        ahora: @escaping @Sendable () -> Double, reloj: Reloj = .continuo,
        ejecutor: EjecutorDedicado = .deLaTienda,
        crear: @escaping @Sendable (CanalConfigurado, Int) -> Result<any Notificador, FalloDeCanal>,
        permitido: @escaping @Sendable () throws -> Bool
    ) {
        self.difusiones = difusiones
        self.registro = registro
        self.configuracion = configuracion
        self.arrendatario = arrendatario
        self.ahora = ahora
        self.reloj = reloj
        self.ejecutor = ejecutor
        self.crear = crear
        self.permitido = permitido
        timbres = (0..<max(1, configuracion.tramosALaVez)).map { _ in Timbre() }
    }

    // MARK: - Draining and serving

    /// Works every shard due by `hasta` until none is left (`avisos enviar`).
    public func drenar(hasta: Double) async -> ResumenDeEnvio {
        await withTaskExecutorPreference(ejecutor) {
            await withTaskGroup(of: ResumenDeEnvio.self) { grupo in
                for _ in 0..<max(1, configuracion.tramosALaVez) {
                    grupo.addTask { await self.trabajar(hasta: hasta) }
                }
                var total = ResumenDeEnvio()
                for await parcial in grupo { total += parcial }
                return total
            }
        }
    }

    /// Serves in the background: shards are taken as soon as `despertar` rings, or every
    /// `sondeo`. `detener` ends it.
    public func arrancar() {
        servicio.withLock { servicio in
            guard servicio == nil else { return }
            servicio = Task(executorPreference: ejecutor) {
                await withTaskGroup(of: Void.self) { grupo in
                    for timbre in self.timbres {
                        grupo.addTask { await self.servir(timbre) }
                    }
                }
            }
        }
    }

    public func despertar() { for timbre in timbres { timbre.tocar() } }

    /// Stops serving: what is due now is still worked for at most `plazo`, then the shard in
    /// flight is left where its last commit put it (the caller gives its lease back, or it runs
    /// out, or the dead-owner rule gives it back at once).
    public func detener(plazo: Duration = .zero) async {
        let tarea = servicio.withLock { servicio -> Task<Void, Never>? in
            defer { servicio = nil }
            return servicio
        }
        guard let tarea else { return }
        parando.store(true, ordering: .sequentiallyConsistent)
        despertar()
        let reloj = reloj
        let corte = Task {
            try? await reloj.esperar(plazo)
            tarea.cancel()
        }
        await tarea.value
        corte.cancel()
    }

    private func servir(_ timbre: Timbre) async {
        while !Task.isCancelled {
            _ = await trabajar(hasta: nil)
            if Task.isCancelled || parando.load(ordering: .sequentiallyConsistent) { return }
            let reloj = reloj
            let sondeo = configuracion.sondeo
            // Only an alarm that slept its whole poll rings. A cancelled one that rang anyway
            // (every ring from outside cancels it) left the bell rung for the next wait, whose
            // end cancelled the next alarm: one ring kept both cores busy for good.
            let alarma = Task {
                guard (try? await reloj.esperar(sondeo)) != nil, !Task.isCancelled else { return }
                timbre.tocar()
            }
            await timbre.esperar()
            alarma.cancel()
        }
    }

    /// Claims and works shards until none is due.
    private func trabajar(hasta: Double?) async -> ResumenDeEnvio {
        var total = ResumenDeEnvio()
        while !Task.isCancelled {
            let reclamo = ReclamoDeTramo(
                arrendatario: arrendatario, ahora: ahora(), arriendo: configuracion.arriendo,
                vencidosHasta: hasta, soloPrimerosIntentos: configuracion.soloPrimerosIntentos,
                caducidad: configuracion.caducidad)
            let tramo: TramoReclamado?
            do {
                tramo = try difusiones.reclamarTramo(reclamo)
            } catch {
                registro.anotar(
                    "no se pudo reclamar un tramo de dispositivos: \(explicacion(de: error))")
                total.anotarFalloDeTienda(error)
                return total
            }
            guard let tramo else { return total }
            // A first claim cuts what lies past its shard into a shard of its own: this
            // process's other workers take it now, not at their next poll.
            if !tramo.unico && tramo.cursor == nil { despertar() }
            total += await difundir(tramo)
        }
        return total
    }

    // MARK: - One shard

    /// Streams `tramo`'s devices page by page and delivers to each page at once (a batch per
    /// provider, every request in flight together), committing the page's outcomes and the
    /// cursor after it: a dispatcher that dies repeats at most the page it was sending.
    func difundir(_ tramo: TramoReclamado) async -> ResumenDeEnvio {
        var resumen = ResumenDeEnvio()
        var avance = AvanceDeTramo(tramo: tramo)
        let permiso: Bool
        do {
            permiso = try permitido()
        } catch {
            registro.anotar("no se pudo leer el permiso de avisos: \(explicacion(de: error))")
            resumen.anotarFalloDeTienda(error)
            return resumen
        }
        guard permiso else {
            avance.final = .descartada
            avance.error = "avisos de gol desactivados"
            guardar(&avance, resumen: &resumen)
            return resumen
        }
        var despues = tramo.cursor
        var agotado = false
        // The first page is short: the first phones hear of the goal before the rest of a
        // full page is read and signed for.
        var limite = min(configuracion.primeraPagina, configuracion.pagina)
        while !agotado && !Task.isCancelled {
            let pagina: [DispositivoDeTramo]
            defer { limite = configuracion.pagina }
            do {
                pagina = try difusiones.dispositivos(de: tramo, despues: despues, limite: limite)
            } catch {
                registro.anotar(
                    "no se pudieron leer los dispositivos de un tramo: \(explicacion(de: error))")
                resumen.anotarFalloDeTienda(error)
                return resumen
            }
            if pagina.count < limite { agotado = true }
            guard !pagina.isEmpty else { break }
            let resultados = await entregar(pagina, tramo)
            // The settled prefix: a device stopped without an answer ends it.
            var retirados = 0
            for (dispositivo, resultado) in zip(pagina, resultados) {
                switch resultado {
                case .cancelado: break
                case .omitido: break
                case .entregada:
                    avance.entregadas += 1
                    resumen.entregadas += 1
                case .fallida:
                    avance.fallidas += 1
                    resumen.fallidas += 1
                case .retirada:
                    avance.retirados.append(dispositivo.canal.nombre)
                    resumen.fallidas += 1
                    retirados += 1
                case .reintento(let reintento):
                    avance.reintentos.append(reintento)
                    if reintento.intentado { resumen.reintentos += 1 }
                }
                if case .cancelado = resultado { break }
                avance.cursor = dispositivo.canal.nombre
                despues = dispositivo.canal.nombre
            }
            if retirados > 0 {
                registro.anotar(
                    Self.cuenta(retirados, "dispositivo retirado", "dispositivos retirados")
                        + " (el proveedor dice que ya no existen)",
                    partido: tramo.aviso.partidoId)
            }
            if Task.isCancelled {
                // Stopped: the settled prefix is kept; what was in flight is sent again by the
                // next holder, from this cursor (same apns-id).
                guardar(&avance, resumen: &resumen)
                return resumen
            }
            if !agotado, !guardar(&avance, resumen: &resumen) { return resumen }
        }
        if Task.isCancelled {
            guardar(&avance, resumen: &resumen)
            return resumen
        }
        if tramo.unico {
            switch avance.reintentos.first {
            case .some(let reintento) where reintento.intentado:
                avance.reintentos = []
                if tramo.intento >= configuracion.politica.maximoDeIntentos {
                    avance.final = .fallida
                    avance.fallidas += 1
                } else {
                    avance.reprogramar = reintento.cuando
                }
                avance.error = reintento.error
            case .some(let reintento):
                // Its delay is not over: the same shard waits for it.
                avance.reintentos = []
                avance.reprogramar = reintento.cuando
            case .none:
                avance.final =
                    avance.entregadas > 0
                    ? .entregada
                    : avance.fallidas > 0 || !avance.retirados.isEmpty
                        ? .fallida : .descartada
            }
        } else {
            avance.final = .entregada
        }
        guardar(&avance, resumen: &resumen)
        return resumen
    }

    /// Delivers to one page of devices: those a provider takes in batches in one batch per
    /// provider, the rest each in a task of its own (at most `enVuelo` at once).
    private func entregar(_ pagina: [DispositivoDeTramo], _ tramo: TramoReclamado) async
        -> [Resultado]
    {
        var resultados = [Resultado](repeating: .cancelado, count: pagina.count)
        var lotes: [String: [(Int, any NotificadorEnLote, AvisoDeGol)]] = [:]
        var sueltos: [(Int, any Notificador, AvisoDeGol)] = []
        for (i, dispositivo) in pagina.enumerated() {
            switch preparar(dispositivo, tramo) {
            case .listo(let resultado):
                resultados[i] = resultado
            case .enviar(let notificador, let aviso):
                if let enLote = notificador as? any NotificadorEnLote,
                    let clave = enLote.claveDeLote
                {
                    lotes[clave, default: []].append((i, enLote, aviso))
                } else {
                    sueltos.append((i, notificador, aviso))
                }
            }
        }
        let configuracion = self.configuracion
        await withTaskGroup(of: (Bool, [(Int, Resultado)]).self) { grupo in
            for lote in lotes.values {
                grupo.addTask {
                    let desenlaces = await EnvioEnLote.enviar(
                        lote.map { ($0.1, $0.2) }, conexiones: configuracion.conexiones,
                        enVuelo: configuracion.enVuelo, espera: configuracion.espera)
                    var hechos: [(Int, Resultado)] = []
                    for ((i, notificador, aviso), desenlace) in zip(lote, desenlaces) {
                        guard let desenlace else {
                            hechos.append((i, .cancelado))
                            continue
                        }
                        switch desenlace {
                        case .success: hechos.append((i, .entregada))
                        case .failure(let fallo):
                            hechos.append(
                                (i, self.leer(fallo, de: notificador, aviso: aviso, tramo: tramo)))
                        }
                    }
                    return (false, hechos)
                }
            }
            var enVuelo = 0
            for (i, notificador, aviso) in sueltos {
                while enVuelo >= configuracion.enVuelo, let (suelto, hechos) = await grupo.next() {
                    if suelto { enVuelo -= 1 }
                    for (j, r) in hechos { resultados[j] = r }
                }
                enVuelo += 1
                grupo.addTask {
                    (true, [(i, await self.enviar(aviso, por: notificador, tramo: tramo))])
                }
            }
            for await (_, hechos) in grupo {
                for (j, r) in hechos { resultados[j] = r }
            }
        }
        return resultados
    }

    /// Stores `avance` and starts the next one from its cursor.
    /// - Returns: whether the shard is still this dispatcher's.
    @discardableResult
    private func guardar(_ avance: inout AvanceDeTramo, resumen: inout ResumenDeEnvio) -> Bool {
        do {
            let nuestro = try difusiones.avanzar(
                avance, arrendatario: arrendatario, ahora: ahora(),
                arriendo: configuracion.arriendo)
            var siguiente = AvanceDeTramo(tramo: avance.tramo)
            siguiente.cursor = avance.cursor
            avance = siguiente
            return nuestro
        } catch {
            registro.anotar(
                "no se pudo guardar el avance de un tramo de dispositivos: \(explicacion(de: error))"
            )
            resumen.anotarFalloDeTienda(error)
            return false
        }
    }

    private enum Paso {
        case listo(Resultado)
        case enviar(any Notificador, AvisoDeGol)
    }

    /// What to do with one device: nothing (it does not follow this notice), wait (behind an
    /// earlier retry, or for its delay), or send.
    private func preparar(_ dispositivo: DispositivoDeTramo, _ tramo: TramoReclamado) -> Paso {
        let canal = dispositivo.canal
        let aviso = tramo.aviso
        guard canal.activo, aviso.tipo.clase.map(canal.avisar.contains) ?? true,
            canal.filtros.dejanPasar(
                partido: aviso.partidoId, equipo: tramo.equipo, competicion: tramo.competicion)
        else { return .listo(.omitido) }
        let momento = ahora()
        if dispositivo.detras {
            return .listo(
                .reintento(
                    .init(
                        dispositivo: canal.nombre, cuando: momento,
                        error: "espera a un aviso anterior", intentado: false)))
        }
        if canal.retraso > 0, momento < tramo.creado + canal.retraso {
            return .listo(
                .reintento(
                    .init(
                        dispositivo: canal.nombre, cuando: tramo.creado + canal.retraso,
                        error: "espera su retraso", intentado: false)))
        }
        let conexion = turno.wrappingAdd(1, ordering: .relaxed).oldValue
        switch crear(canal, conexion % max(1, configuracion.conexiones)) {
        case .failure(let fallo):
            return .listo(.fallida(fallo.motivo))
        case .success(let notificador):
            let activo = CanalActivo(
                notificador: notificador, horasTranquilas: canal.horasTranquilas)
            return .enviar(notificador, aviso.enHorasTranquilas(activo.tranquilo(en: momento)))
        }
    }

    /// One request, and what its answer means.
    private func enviar(
        _ aviso: AvisoDeGol, por notificador: any Notificador, tramo: TramoReclamado
    )
        async -> Resultado
    {
        do {
            try await notificador.notificarGol(aviso)
            return .entregada
        } catch is CancellationError {
            return .cancelado
        } catch {
            if Task.isCancelled { return .cancelado }
            let fallo =
                error as? FalloDeEntrega
                ?? FalloDeEntrega(explicacion(de: error), reintentable: true)
            return leer(fallo, de: notificador, aviso: aviso, tramo: tramo)
        }
    }

    /// What a failed delivery leads to: the device removed, a retry of its own, or a failure.
    private func leer(
        _ fallo: FalloDeEntrega, de notificador: any Notificador, aviso: AvisoDeGol,
        tramo: TramoReclamado
    ) -> Resultado {
        if fallo.destinoRetirado { return .retirada(fallo.motivo) }
        registro.anotar(
            "no se pudo publicar la notificación: \(notificador.canal): \(fallo.motivo)",
            partido: aviso.partidoId)
        let politica = configuracion.politica
        guard fallo.reintentable, tramo.intento < politica.maximoDeIntentos else {
            return .fallida(fallo.motivo)
        }
        let demora = politica.demora(trasElIntento: tramo.intento, pedida: fallo.reintentarTras)
        return .reintento(
            .init(dispositivo: notificador.canal, cuando: ahora() + demora, error: fallo.motivo))
    }

    static func cuenta(_ n: Int, _ uno: String, _ varios: String) -> String {
        "\(n) \(n == 1 ? uno : varios)"
    }
}
