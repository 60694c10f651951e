import Persistencia
import Sistema
import Synchronization
import Torneo

/// Drains the outbox (delivery.md, §8): one lane per channel claims that channel's due
/// deliveries with a lease, hands them to the channel in goal order per run, and records each
/// outcome (delivered, retry later, dead letter, discarded, expired).
///
/// Lanes never wait for each other: a webhook that hangs delays nothing but itself. Several
/// dispatchers may serve one store at once (in `jugar`, `avisos vigilar`, `avisos enviar`,
/// `servir`): a lease makes each delivery belong to one of them at a time, and the holder
/// renews its leases while it works, so a delivery is re-taken only from a holder that is gone;
/// it then goes out again with the same identifier, which downstream treats as a replacement.
public final class Despachador: Sendable {
    public struct Configuracion: Sendable {
        /// Seconds a claimed delivery belongs to this dispatcher unless renewed (renewed every
        /// third of it while the dispatcher runs).
        public var arriendo: Double = 60
        /// Time-to-live of a goal alert, in seconds: an older one is expired, not delivered.
        public var caducidad: Double = AvisoDeGol.tiempoDeVida
        /// Deliveries claimed per statement.
        public var lote: Int = 256
        public var politica = PoliticaDeReintentos()
        /// Deliver only notices never tried: the dispatcher inside `jugar` leaves retries to
        /// `avisos enviar` and `avisos vigilar`, so a failing channel never holds a match's
        /// process open after the final whistle.
        public var soloPrimerosIntentos = false
        /// How often a serving lane looks for due work when nobody rang.
        public var sondeo: Duration = .milliseconds(200)
        /// Runs one lane delivers at the same time.
        public var concurrencia = 16
        /// How often a serving dispatcher looks for leases of holders that are gone (a process
        /// of this host that no longer exists) and gives them back at once.
        public var relevo: Duration = .seconds(1)

        public init() {}
    }

    let buzon: any Buzon
    let registro: any Registro
    public let configuracion: Configuracion
    /// Who holds the leases this dispatcher takes.
    public let arrendatario: String
    let ahora: @Sendable () -> Double
    let reloj: Reloj
    let permitido: @Sendable () throws -> Bool
    /// Where lanes run: their calls into the store block, so never on the cooperative pool.
    let ejecutor: EjecutorDedicado
    private let adjuntos: Enriquecimientos?
    private let estado: Mutex<Estado>

    private struct Estado {
        var carriles: [String: Carril] = [:]
        var ejecucionLocal: Int?
        var renovacion: Task<Void, Never>?
        var relevo: Task<Void, Never>?
        var enMarcha = false
        /// The deliveries claimed and not yet settled, by channel: the only leases renewed.
        var enCurso: [String: Set<Int>] = [:]
        /// When (by `ahora`, which goes on while the process is stopped or the machine
        /// sleeps) the store last confirmed this dispatcher's leases: a claim or a renewal.
        var confirmado = -Double.infinity
        /// The store has not taken outcomes from this dispatcher yet, or refused the last ones:
        /// until it takes some, each delivery's outcome is recorded before the next goes out
        /// (so a store that refuses them costs one delivery per batch, not the whole batch).
        var resultadosSinConfirmar = true
    }

    /// - Parameters:
    ///   - canales: the channels this dispatcher delivers to (only their deliveries are
    ///     claimed); `actualizar` changes them while it runs.
    ///   - permitido: reads the permission at each batch, so revoking it stops publishing.
    public init(
        buzon: any Buzon,
        canales: [CanalActivo],
        registro: any Registro,
        configuracion: Configuracion = Configuracion(),
        arrendatario: String = Despachador.nuevoArrendatario(),
        ahora: @escaping @Sendable () -> Double = segundosUnix,
        reloj: Reloj = .continuo,
        enriquecedor: Enriquecedor? = nil,
        ejecutor: EjecutorDedicado = .deLaTienda,
        permitido: @escaping @Sendable () throws -> Bool
    ) {
        self.ejecutor = ejecutor
        self.buzon = buzon
        self.registro = registro
        self.configuracion = configuracion
        self.arrendatario = arrendatario
        self.ahora = ahora
        self.reloj = reloj
        self.permitido = permitido
        adjuntos = enriquecedor.map {
            Enriquecimientos(enriquecedor: $0, buzon: buzon, registro: registro, ejecutor: ejecutor)
        }
        var inicial = Estado()
        for canal in canales { inicial.carriles[canal.nombre] = Carril(canal) }
        estado = Mutex(inicial)
    }

    /// Convenience for channels without a configuration of their own (tests, the terminal).
    public convenience init(
        buzon: any Buzon, canales: [any Notificador], registro: any Registro,
        configuracion: Configuracion = Configuracion(),
        arrendatario: String = Despachador.nuevoArrendatario(),
        ahora: @escaping @Sendable () -> Double = segundosUnix, reloj: Reloj = .continuo,
        enriquecedor: Enriquecedor? = nil, permitido: @escaping @Sendable () throws -> Bool
    ) {
        self.init(
            buzon: buzon, canales: canales.map { CanalActivo(notificador: $0) },
            registro: registro, configuracion: configuracion, arrendatario: arrendatario,
            ahora: ahora, reloj: reloj, enriquecedor: enriquecedor, permitido: permitido)
    }

    /// A lease holder's name for a new dispatcher of this process (`Arrendatario`).
    public static func nuevoArrendatario() -> String {
        Arrendatario(
            etiqueta: "despachador-" + String(UInt32.random(in: 0...UInt32.max), radix: 16),
            propietario: .actual
        ).texto
    }

    /// Gives back at once the deliveries leased by holders observably gone — a process of this
    /// host that no longer exists (issue 40: a `kill -9`ed dispatcher held its work for a whole
    /// lease, and later goals reached a webhook 57–60 s late) — and wakes the lanes. A holder
    /// on another host is left to its lease, which only its renewals keep.
    /// - Returns: how many deliveries were given back.
    @discardableResult
    public func relevarHuerfanos() -> Int {
        guard let arrendatarios = try? buzon.arrendatarios() else { return 0 }
        // On PostgreSQL, a holder of another host whose sessions are all gone is gone too.
        let sesiones = (try? buzon.sesionesDeMarcador()) ?? nil
        var devueltas = 0
        for texto in arrendatarios where texto != arrendatario {
            guard let muerto = Propietario.huerfano(texto, sesiones: sesiones) else { continue }
            let n =
                (try? buzon.liberar(arrendatario: texto, canal: nil, ahora: ahora())) ?? 0
            if n > 0 {
                registro.anotar(
                    "\(n) \(n == 1 ? "aviso vuelve" : "avisos vuelven") a la cola: "
                        + "su despachador (pid \(muerto.pid)) ya no existe")
            }
            devueltas += n
        }
        if devueltas > 0 { despertar() }
        return devueltas
    }

    /// The run whose process-local deliveries (the terminal banner) this dispatcher owns.
    public func atender(ejecucion: Int?) {
        estado.withLock { $0.ejecucionLocal = ejecucion }
        despertar()
    }

    /// The channels served now, by name.
    public var canales: [String] { estado.withLock { $0.carriles.keys.sorted() } }

    // MARK: - One drain

    /// Delivers everything that is due now, every lane at once, until nothing due is left
    /// (what fails now waits for its backoff: a drain ends even when a channel keeps failing).
    /// - Parameter aviso: only this notice's deliveries (`avisos probar`).
    @discardableResult
    public func enviarPendientes(aviso: Int? = nil) async throws -> ResumenDeEnvio {
        relevarHuerfanos()
        try buzon.caducarBannersHuerfanos(ahora: ahora())
        let inicio = ahora()
        let carriles = estado.withLock { Array($0.carriles.values) }
        let renovacion = Task(executorPreference: ejecutor) { await self.renovarArriendos() }
        defer { renovacion.cancel() }
        return await withTaskCancellationHandler {
            await withTaskExecutorPreference(ejecutor) {
                await self.drenar(carriles, hasta: inicio, aviso: aviso)
            }
        } onCancel: {
            renovacion.cancel()
        }
    }

    /// Every lane's own drain at once; their results added up.
    private func drenar(_ carriles: [Carril], hasta inicio: Double, aviso: Int?) async
        -> ResumenDeEnvio
    {
        await withTaskGroup(of: ResumenDeEnvio.self) { grupo in
            for carril in carriles {
                // A lane of its own, not the serving one: the drain ends by itself.
                let deEstaVez = Carril(carril.canal)
                grupo.addTask {
                    deEstaVez.arrancar(self, modo: .drenar(hasta: inicio, aviso: aviso))
                    return await withTaskCancellationHandler {
                        await deEstaVez.terminado()
                    } onCancel: {
                        deEstaVez.cancelar()
                    }
                }
            }
            var total = ResumenDeEnvio()
            for await parcial in grupo { total += parcial }
            return total
        }
    }

    // MARK: - Serving

    /// Starts every lane in the background: they deliver as notices arrive (`despertar`) and
    /// look again every `sondeo`. `detener` ends them.
    public func arrancar() {
        let carriles = estado.withLock { estado -> [Carril] in
            guard !estado.enMarcha else { return [] }
            estado.enMarcha = true
            estado.renovacion = Task(executorPreference: ejecutor) {
                await self.renovarArriendos()
            }
            estado.relevo = Task(executorPreference: ejecutor) { await self.vigilarHuerfanos() }
            return Array(estado.carriles.values)
        }
        for carril in carriles { carril.arrancar(self, modo: .continuo) }
    }

    /// Tells every lane there may be new work (a minute with goals was committed).
    public func despertar() {
        for carril in estado.withLock({ Array($0.carriles.values) }) { carril.despertar() }
    }

    /// Tells the lane of `canal` there may be new work (PostgreSQL's ring names the channel);
    /// an empty name, from a store that does not say, wakes every lane.
    public func despertar(canal: String) {
        guard !canal.isEmpty else { return despertar() }
        estado.withLock { $0.carriles[canal] }?.despertar()
    }

    /// Serves exactly `canales` from now on: new channels get a lane, removed ones lose theirs
    /// (their leases are given back), and a channel whose configuration changed gets a new
    /// lane (a webhook's new URL is used from its next delivery).
    public func actualizar(canales: [CanalActivo]) async {
        let nuevos = Dictionary(canales.map { ($0.nombre, $0) }, uniquingKeysWith: { a, _ in a })
        let (quitados, anadidos) = estado.withLock {
            estado -> ([Carril], [Carril]) in
            var quitados: [Carril] = []
            var anadidos: [Carril] = []
            for (nombre, carril) in estado.carriles
            where nuevos[nombre]?.firma != carril.canal.firma {
                quitados.append(carril)
                estado.carriles[nombre] = nil
            }
            for (nombre, canal) in nuevos where estado.carriles[nombre] == nil {
                let carril = Carril(canal)
                estado.carriles[nombre] = carril
                anadidos.append(carril)
            }
            return (quitados, estado.enMarcha ? anadidos : [])
        }
        for carril in quitados { carril.cancelar() }
        for carril in quitados {
            _ = await carril.terminado()
            estado.withLock { _ = $0.enCurso.removeValue(forKey: carril.nombre) }
            _ = try? buzon.liberar(arrendatario: arrendatario, canal: carril.nombre, ahora: ahora())
        }
        for carril in anadidos { carril.arrancar(self, modo: .continuo) }
    }

    /// Ends serving: lanes finish what is due now for at most `plazo`, then whatever is still
    /// in flight is cancelled and its lease given back, due at once for the next dispatcher
    /// (same identifier). Cancelling the calling task cuts the wait short.
    @discardableResult
    public func detener(plazo: Duration) async -> ResumenDeEnvio {
        let (carriles, renovacion) = estado.withLock {
            estado -> ([Carril], Task<Void, Never>?) in
            estado.enMarcha = false
            estado.relevo?.cancel()
            estado.relevo = nil
            defer { estado.renovacion = nil }
            return (Array(estado.carriles.values), estado.renovacion)
        }
        let momento = ahora()
        for carril in carriles { carril.terminarTras(hasta: momento) }
        let reloj = reloj
        let corte = Task {
            try? await reloj.esperar(plazo)
            for carril in carriles { carril.cancelar() }
        }
        var total = ResumenDeEnvio()
        await withTaskCancellationHandler {
            for carril in carriles { total += await carril.terminado() }
        } onCancel: {
            corte.cancel()
        }
        corte.cancel()
        renovacion?.cancel()
        estado.withLock { $0.enCurso = [:] }
        _ = try? buzon.liberar(arrendatario: arrendatario, canal: nil, ahora: ahora())
        return total
    }

    // MARK: - What lanes use

    /// Leases the next batch of `carril`'s channel.
    /// - Throws: what the store threw (logged here; the lane decides what it means).
    func reclamar(para carril: Carril, modo: Carril.Modo, limite: Int) throws
        -> [EntregaReclamada]
    {
        let momento = ahora()
        guard let reclamo = reclamo(para: carril, modo: modo, limite: limite, ahora: momento)
        else { return [] }
        do {
            let lote = try buzon.reclamar(reclamo)
            if !lote.isEmpty {
                estado.withLock {
                    $0.enCurso[carril.nombre, default: []].formUnion(lote.map(\.avisoId))
                    $0.confirmado = momento
                }
            }
            return lote
        } catch {
            throw anotarQueNoSePudoReclamar(carril, error)
        }
    }

    /// After an empty claim, whether a draining lane should claim again: another claim had
    /// locked what it would have taken, and it is still there.
    /// - Throws: what the store threw (logged here).
    func quedanReclamables(para carril: Carril, modo: Carril.Modo) throws -> Bool {
        guard let reclamo = reclamo(para: carril, modo: modo, limite: 1, ahora: ahora()) else {
            return false
        }
        do {
            return try buzon.quedanReclamables(reclamo)
        } catch {
            throw anotarQueNoSePudoReclamar(carril, error)
        }
    }

    /// Logs a store failure while claiming for `carril`; returns it for the caller to throw.
    private func anotarQueNoSePudoReclamar(_ carril: Carril, _ error: any Error) -> any Error {
        registro.anotar(
            "no se pudieron reclamar avisos para «\(carril.nombre)»: \(explicacion(de: error))")
        return error
    }

    /// What `carril` claims now; `nil` when it may claim nothing (a terminal banner lane
    /// while this process watches no run).
    private func reclamo(para carril: Carril, modo: Carril.Modo, limite: Int, ahora momento: Double)
        -> Reclamo?
    {
        var reclamo = Reclamo(
            canal: carril.nombre, arrendatario: arrendatario, ahora: momento,
            arriendo: configuracion.arriendo, limite: limite,
            soloPrimerosIntentos: configuracion.soloPrimerosIntentos,
            caducidad: configuracion.caducidad)
        if case .drenar(let hasta, let aviso) = modo {
            reclamo.vencidasHasta = min(hasta, momento)
            reclamo.aviso = aviso
        }
        if carril.nombre == TipoDeCanal.nombreTerminal {
            guard let propia = estado.withLock({ $0.ejecucionLocal }) else { return nil }
            reclamo.ejecucion = propia
        }
        return reclamo
    }

    /// These deliveries are settled (or given back): their leases are no longer renewed.
    private func terminar(_ avisos: [Int], canal: String) {
        estado.withLock { estado in
            estado.enCurso[canal]?.subtract(avisos)
            if estado.enCurso[canal]?.isEmpty == true { estado.enCurso[canal] = nil }
        }
    }

    /// Gives back what this dispatcher could not finish, due at once for another one; if even
    /// that fails, the leases simply run out (they are no longer renewed).
    private func soltar(_ avisos: [Int], canal: String) {
        terminar(avisos, canal: canal)
        _ = try? buzon.soltar([canal: avisos], arrendatario: arrendatario, ahora: ahora())
    }

    /// Whether some notice of `lote` has an attachment to fetch first.
    func haQueEnriquecer(_ lote: [EntregaReclamada]) -> Bool {
        adjuntos != nil && lote.contains { $0.aviso.adjunto != nil }
    }

    /// One run's deliveries on one channel, one after another in goal order: a notice that
    /// waits for its attachment holds back the later ones of its run on this channel only.
    func entregar(_ entregas: [EntregaReclamada], por canal: CanalActivo) async -> ResumenDeEnvio {
        var resumen = ResumenDeEnvio()
        let permiso: Bool
        do {
            permiso = try permitido()
        } catch {
            registro.anotar("no se pudo leer el permiso de avisos: \(explicacion(de: error))")
            resumen.anotarFalloDeTienda(error)
            soltar(entregas.map(\.avisoId), canal: canal.nombre)
            return resumen
        }
        var pendientes: [ResultadoDeEntrega] = []
        var desdeElUltimoGuardado = ahora()
        func guardar() async {
            guard !pendientes.isEmpty else { return }
            let avisos = pendientes.map(\.avisoId)
            switch await registrarConReintentos(pendientes) {
            case .success(let guardado):
                estado.withLock { $0.resultadosSinConfirmar = false }
                for resultado in pendientes { resumen.contar(resultado.desenlace) }
                terminar(avisos, canal: canal.nombre)
                registro.mostrar(
                    lineas: pendientes.compactMap { resultado in
                        guard guardado.anotados.contains(resultado.avisoId),
                            let anotacion = resultado.anotacion
                        else { return nil }
                        return (anotacion.texto, anotacion.partido)
                    })
            case .failure(let error):
                estado.withLock { $0.resultadosSinConfirmar = true }
                registro.anotar(
                    "no se pudo guardar el resultado de "
                        + (pendientes.count == 1 ? "1 aviso" : "\(pendientes.count) avisos")
                        + ": \(explicacion(de: error)); "
                        + "se devuelven a la cola")
                resumen.anotarFalloDeTienda(error)
                soltar(avisos, canal: canal.nombre)
            }
            pendientes = []
            desdeElUltimoGuardado = ahora()
        }
        var indice = 0
        // Runs with a notice waiting for its retry in this batch: their later notices wait too
        // (the order holds across retries) and go back to the queue undelivered.
        var retenidas: Set<Int> = []
        while indice < entregas.count, !Task.isCancelled {
            let momento = ahora()
            let entrega = entregas[indice]
            if retenidas.contains(entrega.ejecucion) {
                soltar([entrega.avisoId], canal: canal.nombre)
                indice += 1
                continue
            }
            guard sigueSiendoMia(entrega, canal: canal.nombre) else {
                registro.anotar(
                    "el arriendo de \(entrega.aviso.identificador) para «\(canal.nombre)» pasó a "
                        + "otro despachador mientras este estaba parado: no se entrega aquí",
                    partido: entrega.aviso.partidoId)
                terminar([entrega.avisoId], canal: canal.nombre)
                indice += 1
                continue
            }
            if let final = desenlaceSinEntregar(entrega, permiso: permiso, momento: momento) {
                pendientes.append(
                    ResultadoDeEntrega(
                        avisoId: entrega.avisoId, canal: canal.nombre, desenlace: final))
                indice += 1
                continue
            }
            // Consecutive notices with nothing to fetch go to a channel that answers at once in
            // one call, whatever their runs (the log writes a whole batch in one transaction,
            // not one per match); to one that waits, one at a time, each checked against its
            // lease first; one with an attachment goes alone, enriched.
            var tramo: [AvisoDeGol]
            if let adjuntos, entrega.aviso.adjunto != nil {
                tramo = [await adjuntos.preparar(entrega)]
                if Task.isCancelled { break }
            } else {
                tramo = [entrega.aviso]
                while canal.notificador.esInmediato && indice + tramo.count < entregas.count {
                    let siguiente = entregas[indice + tramo.count]
                    guard adjuntos == nil || siguiente.aviso.adjunto == nil,
                        !retenidas.contains(siguiente.ejecucion),
                        desenlaceSinEntregar(siguiente, permiso: permiso, momento: momento) == nil
                    else { break }
                    tramo.append(siguiente.aviso)
                }
            }
            // Quiet hours are the moment of delivery's, not of the goal's.
            if canal.tranquilo(en: ahora()) {
                tramo = tramo.map { $0.enHorasTranquilas() }
            }
            let fallos: [FalloDeEntrega?]
            // The log channel's delivery is its line, stored with the outcome (one transaction):
            // nothing to call.
            let lineas = tramo.map(canal.notificador.lineaEnLaTienda)
            if lineas.allSatisfy({ $0 != nil }) {
                fallos = Array(repeating: nil, count: tramo.count)
            } else {
                do {
                    fallos = Array(
                        try await canal.notificador.notificarGoles(tramo).prefix(tramo.count))
                } catch {
                    break  // cancelled: nothing is known of this call; its leases are given back
                }
            }
            var retirado = false
            for (desplazamiento, fallo) in fallos.enumerated() {
                let de = entregas[indice + desplazamiento]
                let final = desenlace(de, fallo: fallo)
                if case .reintentar = final { retenidas.insert(de.ejecucion) }
                if case .retirada = final { retirado = true }
                let anotacion = lineas[desplazamiento].map {
                    ResultadoDeEntrega.Anotacion(
                        $0, partido: de.aviso.tipo.esDePartido ? de.aviso.partidoId : nil)
                }
                pendientes.append(
                    ResultadoDeEntrega(
                        avisoId: de.avisoId, canal: canal.nombre, desenlace: final,
                        anotacion: anotacion))
            }
            // What the channel did not attempt goes back to the queue, and the rest of each of
            // its runs in this batch waits with it: nothing of a run overtakes a notice of it
            // that was given back.
            let sinIntentar = entregas[(indice + fallos.count)..<(indice + tramo.count)]
            if !sinIntentar.isEmpty {
                retenidas.formUnion(sinIntentar.map(\.ejecucion))
                soltar(sinIntentar.map(\.avisoId), canal: canal.nombre)
            }
            indice += tramo.count
            // A device that is gone gets nothing more: its outcome removes it and discards
            // what it still had queued, these included.
            if retirado {
                await guardar()
                if indice < entregas.count {
                    soltar(entregas[indice...].map(\.avisoId), canal: canal.nombre)
                }
                return resumen
            }
            // Slow channels record each outcome at once (a crash then repeats less), and every
            // channel does while the store is refusing outcomes.
            if ahora() - desdeElUltimoGuardado > 0.02
                || estado.withLock({ $0.resultadosSinConfirmar })
            {
                await guardar()
                // The store refused the outcome: the rest of the batch goes back untried
                // rather than out, each to be refused again (issue 41: with a short lease the
                // same notices went out again and again); the lane pauses.
                if resumen.fallosDeTienda > 0 && indice < entregas.count {
                    soltar(entregas[indice...].map(\.avisoId), canal: canal.nombre)
                    return resumen
                }
            }
        }
        await guardar()
        return resumen
    }

    /// Whether `entrega` is still this dispatcher's to deliver. A dispatcher whose leases the
    /// store confirmed within the last third of a lease (claim or renewal) knows it is; one
    /// that went longer (paused by SIGSTOP, a frozen machine) asks the store first, and drops
    /// what another took meanwhile (round 2: 26 notices became 47 POSTs).
    private func sigueSiendoMia(_ entrega: EntregaReclamada, canal: String) -> Bool {
        let confirmado = estado.withLock { $0.confirmado }
        let momento = ahora()
        guard momento - confirmado > configuracion.arriendo / 3 else { return true }
        let mias =
            (try? buzon.conArriendo(
                [entrega.avisoId], canal: canal, arrendatario: arrendatario, ahora: ahora()))
            ?? []
        if mias.contains(entrega.avisoId) {
            estado.withLock { $0.confirmado = max($0.confirmado, momento) }
            return true
        }
        return false
    }

    /// Stores outcomes, trying again with backoff (0.1 s doubling up to 2 s) while a third of
    /// the lease is left, so a full disk or a busy store that clears in time loses nothing and
    /// the deliveries stay this dispatcher's meanwhile (delivery.md).
    private func registrarConReintentos(_ resultados: [ResultadoDeEntrega]) async -> Result<
        ResultadosGuardados, any Error
    > {
        let inicio = ahora()
        var espera = 0.1
        while true {
            do {
                return .success(
                    try buzon.registrar(resultados, arrendatario: arrendatario, ahora: ahora()))
            } catch {
                let transcurrido = ahora() - inicio
                guard transcurrido + espera < configuracion.arriendo / 3, !Task.isCancelled
                else { return .failure(error) }
                do {
                    try await reloj.esperar(.milliseconds(Int64(espera * 1000)))
                } catch {
                    return .failure(CancellationError())
                }
                espera = min(espera * 2, 2)
            }
        }
    }

    /// The outcome of a delivery that is not handed to its channel at all, if so.
    private func desenlaceSinEntregar(
        _ entrega: EntregaReclamada, permiso: Bool, momento: Double
    ) -> ResultadoDeEntrega.Desenlace? {
        guard permiso else { return .descartada(motivo: "avisos de gol desactivados") }
        if momento - entrega.creado > configuracion.caducidad {
            let motivo = "más de \(Int(configuracion.caducidad)) s sin entregar"
            registro.anotar(
                "aviso caducado, no se entrega por \(entrega.canal): \(entrega.aviso.identificador) (\(motivo))",
                partido: entrega.aviso.partidoId)
            return .caducada(motivo: motivo)
        }
        return nil
    }

    private func desenlace(_ entrega: EntregaReclamada, fallo: FalloDeEntrega?)
        -> ResultadoDeEntrega.Desenlace
    {
        guard let fallo else { return .entregada }
        registro.anotar(
            "no se pudo publicar la notificación: \(entrega.canal): \(fallo.motivo)",
            partido: entrega.aviso.partidoId)
        if fallo.destinoRetirado { return .retirada(error: fallo.motivo) }
        let politica = configuracion.politica
        guard fallo.reintentable, entrega.intento < politica.maximoDeIntentos else {
            return .fallida(error: fallo.motivo)
        }
        let demora = politica.demora(trasElIntento: entrega.intento, pedida: fallo.reintentarTras)
        return .reintentar(cuando: ahora() + demora, error: fallo.motivo)
    }

    /// While serving: `relevarHuerfanos` every `relevo`.
    private func vigilarHuerfanos() async {
        relevarHuerfanos()
        while true {
            do {
                try await reloj.esperar(configuracion.relevo)
            } catch {
                return
            }
            relevarHuerfanos()
        }
    }

    /// Keeps this dispatcher's leases while it works: every third of the lease, the leases of
    /// the deliveries in flight are extended by a whole lease. A dispatcher that dies stops
    /// renewing, and its deliveries become claimable when their lease runs out; one it gave up
    /// is never renewed.
    private func renovarArriendos() async {
        let intervalo = Duration.milliseconds(Int64(configuracion.arriendo * 1000 / 3))
        while true {
            do {
                try await reloj.esperar(intervalo)
            } catch {
                return
            }
            let enCurso = estado.withLock { $0.enCurso.mapValues { Array($0) } }
            let antes = ahora()
            // A renewal that finds every lease still ours confirms them; one that finds fewer
            // leaves the check to each delivery.
            if let renovadas = try? buzon.renovar(
                enCurso, arrendatario: arrendatario, hasta: ahora() + configuracion.arriendo),
                renovadas == enCurso.values.reduce(0, { $0 + $1.count })
            {
                estado.withLock { $0.confirmado = max($0.confirmado, antes) }
            }
        }
    }
}
