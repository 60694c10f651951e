import Persistencia
import Synchronization
import Torneo

/// One channel's lane: it claims only its own channel's deliveries, so a channel that hangs
/// never holds back another. Within the lane each run's notices go out in goal order (one task
/// per run, one delivery after another); different runs go out concurrently.
final class Carril: Sendable {
    enum Modo: Sendable, Equatable {
        /// Keeps delivering as notices arrive, woken by the doorbell or every poll.
        case continuo
        /// Delivers what was due by then (of one notice only, if given) and ends when nothing
        /// is left.
        case drenar(hasta: Double, aviso: Int? = nil)
    }

    private enum Suceso: Sendable {
        case timbre
        case entregas(ResumenDeEnvio)
        /// The pause after the store refused outcomes is over.
        case reanudar
    }

    /// How long a serving lane stops claiming after the store refused to record outcomes: the
    /// first pause, doubled at each refusal in a row, up to the last (issue 41: with a short
    /// lease, every poll claimed and sent the same batch again — 35 POSTs for 5 notices in
    /// 3 s, same keys).
    static let pausasTrasFallo: (primera: Duration, maxima: Duration) = (.seconds(1), .seconds(30))

    let canal: CanalActivo
    private let timbre = Timbre()
    private let estado = Mutex<(modo: Modo, tarea: Task<ResumenDeEnvio, Never>?)>((.continuo, nil))

    init(_ canal: CanalActivo) { self.canal = canal }

    var nombre: String { canal.nombre }

    /// Starts the lane's loop in its own task (once).
    func arrancar(_ despachador: Despachador, modo: Modo) {
        estado.withLock { estado in
            guard estado.tarea == nil else { return }
            estado.modo = modo
            // On the dispatcher's own threads (child tasks too): a lane blocks on the store.
            estado.tarea = Task(executorPreference: despachador.ejecutor) {
                await self.bucle(despachador)
            }
        }
    }

    func despertar() { timbre.tocar() }

    /// From now on the lane only finishes what is due by `hasta`, then ends.
    func terminarTras(hasta: Double) {
        estado.withLock { $0.modo = .drenar(hasta: hasta, aviso: nil) }
        timbre.tocar()
    }

    /// Cancels the lane: transfers in flight are abandoned at once (their leases are given
    /// back by the dispatcher).
    func cancelar() { estado.withLock { $0.tarea }?.cancel() }

    /// What the lane delivered, once it ended.
    func terminado() async -> ResumenDeEnvio {
        guard let tarea = estado.withLock({ $0.tarea }) else { return ResumenDeEnvio() }
        return await tarea.value
    }

    private var modo: Modo { estado.withLock { $0.modo } }

    /// Runs the lane until it is cancelled or, draining, has nothing left.
    func bucle(_ despachador: Despachador) async -> ResumenDeEnvio {
        var resumen = ResumenDeEnvio()
        let configuracion = despachador.configuracion
        await withTaskGroup(of: Suceso.self) { grupo in
            var enVuelo = 0
            var esperando = false
            // The store could not record an outcome even after retrying (its deliveries went
            // back to the queue): claiming them again at once would only deliver them again.
            // A drain claims no more; a serving lane pauses (`pausasTrasFallo`), doorbells or not.
            var tiendaEnFallo = false
            var pausa = Self.pausasTrasFallo.primera
            var enPausa = false
            func pausar() {
                guard modo == .continuo, !enPausa else { return }
                enPausa = true
                let (reloj, esta) = (despachador.reloj, pausa)
                grupo.addTask {
                    try? await reloj.esperar(esta)
                    return .reanudar
                }
                pausa = min(pausa * 2, Self.pausasTrasFallo.maxima)
            }
            // How long a drain waits before claiming again what another claim had locked.
            var reintento = Duration.milliseconds(1)
            while !Task.isCancelled {
                let modo = self.modo
                var reclamadas = 0
                if enVuelo < configuracion.concurrencia && !tiendaEnFallo {
                    let lote: [EntregaReclamada]
                    // A channel that waits (a webhook) takes no more deliveries than it may have
                    // in flight: each becomes at most one transfer at a time, so the cap holds
                    // per delivery, not per batch (round 2: 78 POSTs in flight from one lane).
                    let cabe =
                        canal.notificador.esInmediato
                        ? configuracion.lote
                        : min(configuracion.lote, configuracion.concurrencia - enVuelo)
                    do {
                        lote = try despachador.reclamar(para: self, modo: modo, limite: cabe)
                    } catch {
                        resumen.anotarFalloDeTienda(error)
                        // A drain ends, and says so; a serving lane looks again at its next poll.
                        if case .drenar = modo, enVuelo == 0 { break }
                        lote = []
                    }
                    reclamadas = lote.count
                    if !lote.isEmpty && canal.notificador.esInmediato
                        && !despachador.haQueEnriquecer(lote)
                    {
                        // Nothing to wait for: the batch goes out here, in notice order (so in
                        // goal order for each run), with one write of its outcomes.
                        let parcial = await despachador.entregar(lote, por: canal)
                        resumen += parcial
                        if parcial.fallosDeTienda == 0 {
                            pausa = Self.pausasTrasFallo.primera
                            continue
                        }
                        tiendaEnFallo = true
                        pausar()
                    }
                    for deUnaEjecucion in Self.porEjecucion(tiendaEnFallo ? [] : lote) {
                        enVuelo += 1
                        grupo.addTask {
                            .entregas(await despachador.entregar(deUnaEjecucion, por: self.canal))
                        }
                    }
                    if reclamadas >= cabe && enVuelo < configuracion.concurrencia
                        && !tiendaEnFallo
                    {
                        continue
                    }
                }
                if case .drenar = modo, enVuelo == 0, reclamadas == 0 || tiendaEnFallo {
                    guard !tiendaEnFallo,
                        await volverAReclamar(despachador, modo, &resumen, &reintento)
                    else { break }
                    continue
                }
                reintento = .milliseconds(1)
                if !esperando {
                    esperando = true
                    grupo.addTask {
                        await self.esperarTrabajo(despachador.reloj, configuracion.sondeo, modo)
                        return .timbre
                    }
                }
                guard let suceso = await grupo.next() else { break }
                switch suceso {
                case .timbre:
                    esperando = false
                case .reanudar:
                    enPausa = false
                    if self.modo == .continuo { tiendaEnFallo = false }
                case .entregas(let parcial):
                    enVuelo -= 1
                    resumen += parcial
                    if parcial.fallosDeTienda > 0 {
                        tiendaEnFallo = true
                        pausar()
                    } else {
                        pausa = Self.pausasTrasFallo.primera
                    }
                }
            }
            grupo.cancelAll()
            while let suceso = await grupo.next() {
                if case .entregas(let parcial) = suceso { resumen += parcial }
            }
        }
        return resumen
    }

    /// After a drain's empty claim: whether to claim again. An empty claim beside another one
    /// may have met only that claim's row locks, so the drain ends only when the store sees
    /// nothing claimable left; otherwise it waits `reintento` (doubling up to 50 ms) first.
    private func volverAReclamar(
        _ despachador: Despachador, _ modo: Modo, _ resumen: inout ResumenDeEnvio,
        _ reintento: inout Duration
    ) async -> Bool {
        do {
            guard try despachador.quedanReclamables(para: self, modo: modo) else { return false }
        } catch {
            resumen.anotarFalloDeTienda(error)
            return false
        }
        try? await despachador.reloj.esperar(reintento)
        reintento = min(reintento * 2, .milliseconds(50))
        return true
    }

    /// Until the doorbell rings or, serving, the next poll is due (a draining lane only waits
    /// for its deliveries in flight, or for being told to stop).
    private func esperarTrabajo(_ reloj: Reloj, _ sondeo: Duration, _ modo: Modo) async {
        guard modo == .continuo else {
            await timbre.esperar()
            return
        }
        await withTaskGroup(of: Void.self) { carrera in
            carrera.addTask { await self.timbre.esperar() }
            carrera.addTask { try? await reloj.esperar(sondeo) }
            await carrera.next()
            carrera.cancelAll()
        }
    }

    /// A batch split by run, each run's deliveries in notice order.
    static func porEjecucion(_ lote: [EntregaReclamada]) -> [[EntregaReclamada]] {
        var orden: [Int] = []
        var grupos: [Int: [EntregaReclamada]] = [:]
        for entrega in lote {
            if grupos[entrega.ejecucion] == nil { orden.append(entrega.ejecucion) }
            grupos[entrega.ejecucion, default: []].append(entrega)
        }
        return orden.map { grupos[$0]!.sorted { $0.avisoId < $1.avisoId } }
    }
}
