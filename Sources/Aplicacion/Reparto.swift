import Avisos
import Persistencia
import Sistema
import Torneo

/// Hosting the outbox's dispatchers (delivery.md), for every process that delivers: `jugar`
/// (`RepartoEnProceso`), `avisos enviar`, `avisos vigilar` and `servir`, wired once here.
public struct Reparto: Sendable {
    let nucleo: Nucleo
    /// Told once about each channel that cannot work on this machine (and why).
    let alFallarCanal: @Sendable (FalloDeCanal) -> Void

    public init(_ nucleo: Nucleo, alFallarCanal: @escaping @Sendable (FalloDeCanal) -> Void) {
        self.nucleo = nucleo
        self.alFallarCanal = alFallarCanal
    }

    /// The active channels that work here; those that do not are reported.
    public func canalesActivos(registro: any Registro) throws -> [CanalActivo] {
        let tienda = nucleo.tienda
        let (canales, fallos) = FabricaDeCanales.activos(
            try tienda.buzon.canales(), entorno: nucleo.entorno, registro: registro,
            cambios: tienda.cambios, empuje: try nucleo.credencialesDeEmpuje(),
            ahora: { tienda.ahora() })
        for fallo in fallos { alFallarCanal(fallo) }
        return canales
    }

    /// A dispatcher for this machine's channels (plus `propios`, process-local ones such as the
    /// terminal banner), timed by the store's clock.
    public func despachador(
        configuracion: Despachador.Configuracion = Despachador.Configuracion(),
        propios: [CanalActivo] = [], registro: (any Registro)? = nil
    ) throws -> Despachador {
        let registro = registro ?? nucleo.registro()
        let repositorio = nucleo.tienda.partidos
        let tienda = nucleo.tienda
        return Despachador(
            buzon: tienda.buzon, canales: try canalesActivos(registro: registro) + propios,
            registro: registro, configuracion: configuracion, ahora: { tienda.ahora() },
            reloj: nucleo.reloj, enriquecedor: try enriquecedor(),
            permitido: { try repositorio.avisosPermitidos() })
    }

    /// The device sender beside `despachador` (contract.md §20), holding its leases under the
    /// same name, so the dead-owner rule gives back both at once.
    public func difusor(para despachador: Despachador) throws -> Difusor {
        let tienda = nucleo.tienda
        let repositorio = tienda.partidos
        let registro = nucleo.registro()
        let empuje = try nucleo.credencialesDeEmpuje()
        let entorno = nucleo.entorno
        var configuracion = Difusor.Configuracion()
        configuracion.soloPrimerosIntentos = despachador.configuracion.soloPrimerosIntentos
        configuracion.politica = despachador.configuracion.politica
        configuracion.caducidad = despachador.configuracion.caducidad
        if let conexiones = entorno["MARCADOR_CONEXIONES"].flatMap(Int.init), conexiones > 0 {
            configuracion.conexiones = min(conexiones, 64)
        }
        let ahora: @Sendable () -> Double = { tienda.ahora() }
        return Difusor(
            difusiones: tienda.difusiones, registro: registro, configuracion: configuracion,
            // Its poll is a safety net on real time: tests that drive the match's clock by
            // hand count that clock's sleepers, and this one is not theirs.
            arrendatario: despachador.arrendatario, ahora: ahora, reloj: .continuo,
            crear: { canal, conexion in
                FabricaDeCanales.crear(
                    canal, entorno: entorno, registro: registro, empuje: empuje,
                    conexion: conexion, ahora: ahora)
            }, permitido: { try repositorio.avisosPermitidos() })
    }

    /// The attachment fetcher every dispatcher of this program uses (none without a cache
    /// folder of the user's own).
    func enriquecedor() throws -> Enriquecedor? {
        guard let carpeta = Enriquecedor.carpetaPorDefecto(entorno: nucleo.entorno) else {
            return nil
        }
        let tienda = nucleo.tienda
        return Enriquecedor(
            plazo: try nucleo.ajustes().plazoDeAdjuntos, carpeta: carpeta,
            incrustados: { tienda.ficheroDeSemilla($0) })
    }

    /// Keeps `despachador` serving until the calling task is cancelled (`vigilar`, `servir`):
    /// a changed channel table is applied within one poll, orphaned banners expire, and the
    /// store is pruned every few minutes. Then the dispatcher stops and gives its leases back.
    /// - Returns: what it delivered.
    public func vigilar(_ despachador: Despachador) async throws -> ResumenDeEnvio {
        let tienda = nucleo.tienda
        let buzon = tienda.buzon
        let registro = nucleo.registro()
        let difusor = try difusor(para: despachador)
        despachador.arrancar()
        difusor.arrancar()
        // A new delivery rings at once: on PostgreSQL through LISTEN, naming its channel; on
        // SQLite through a watch of the write-ahead log (any commit, every lane). The poll stays
        // as the safety net.
        let escucha = tienda.escuchar(.entregas) { canal in
            Self.despertar(despachador, difusor, canal: canal)
        }
        defer { escucha?.parar() }
        do {
            var configurados = try buzon.canales()
            var vueltas = 0
            while !Task.isCancelled {
                try? await nucleo.reloj.esperar(despachador.configuracion.sondeo)
                if Task.isCancelled { break }
                let ahora = try buzon.canales()
                if ahora != configurados {
                    configurados = ahora
                    await despachador.actualizar(canales: try canalesActivos(registro: registro))
                    registro.anotar(
                        "los canales cambiaron: se atienden "
                            + (despachador.canales.isEmpty
                                ? "ninguno" : despachador.canales.joined(separator: ", ")))
                }
                vueltas += 1
                // Housekeeping that fails (a store refusing writes for a while) waits for its
                // next turn, as a delivery's outcome does: it never ends the dispatcher (a
                // full-suite run saw `avisos vigilar` exit 74 when the sweep of orphaned
                // banners met an injected fault, and nothing was delivered after it cleared).
                if vueltas % 25 == 0 {
                    mantener("caducar los banners huérfanos") {
                        _ = try buzon.caducarBannersHuerfanos(ahora: nucleo.ahora())
                    }
                }
                if vueltas % 300 == 1 { mantener("podar la base") { try nucleo.podarSiToca() } }
            }
        } catch {
            await difusor.detener()
            await despachador.detener(plazo: .zero)
            throw error
        }
        await difusor.detener()
        return await despachador.detener(plazo: .zero)
    }

    /// A ring of the outbox: `difusion` is for the device sender, a channel's name for its lane,
    /// nothing for everyone.
    static func despertar(_ despachador: Despachador, _ difusor: Difusor, canal: String) {
        if canal == "difusion" { return difusor.despertar() }
        if canal.isEmpty { difusor.despertar() }
        despachador.despertar(canal: canal)
    }

    /// Runs a housekeeping step; a failure is one log line, and the step is tried at its next
    /// turn.
    private func mantener(_ que: String, _ paso: () throws -> Void) {
        do {
            try paso()
        } catch {
            nucleo.registro().anotar("no se pudo \(que): \(explicacion(de: error)); se reintentará")
        }
    }

    /// One drain of everything due now, every channel at once (`avisos enviar`). Cancelled,
    /// what was in flight is given back for the next dispatcher, same key.
    /// - Throws: `Fallo.entradaSalida` when the store failed and work may be left undone: the
    ///   leases are given back and the sentence says how much is left (architecture.md).
    public func enviar(configuracion: Despachador.Configuracion) async throws -> ResumenDeEnvio {
        try nucleo.podarSiToca()
        let despachador = try despachador(configuracion: configuracion)
        let buzon = nucleo.tienda.buzon
        // What was pending at the start: with the store gone at the end, what is left is told
        // from it (at most that, less what this drain settled).
        let alEmpezar = (try? buzon.pendientesPorCanal(ejecucion: nil))?.values.reduce(0, +)
        let difusor = try difusor(para: despachador)
        let hasta = nucleo.ahora()
        async let aDispositivos = difusor.drenar(hasta: hasta)
        var resumen = try await despachador.enviarPendientes()
        resumen += await aDispositivos
        if Task.isCancelled || resumen.fallosDeTienda > 0 {
            // A store that is gone cannot take them back: then the leases run out.
            _ = try? buzon.liberar(
                arrendatario: despachador.arrendatario, canal: nil, ahora: nucleo.ahora())
        }
        if resumen.fallosDeTienda > 0 {
            let quedan: String
            if let ahora = (try? buzon.pendientesPorCanal(ejecucion: nil))?.values.reduce(0, +) {
                quedan = Textos.cuenta(
                    ahora, "entrega queda pendiente", "entregas quedan pendientes")
            } else if let alEmpezar {
                quedan =
                    "quedan pendientes como mucho "
                    + Textos.cuenta(max(0, alEmpezar - resumen.total), "entrega", "entregas")
                    + " (de \(alEmpezar); no se pudo volver a contar)"
            } else {
                quedan = "puede quedar trabajo pendiente"
            }
            throw Fallo.entradaSalida(
                "La base de datos «\(nucleo.descripcion)» falló durante el envío "
                    + "(el registro dice dónde); \(quedan): «marcador avisos enviar» las entrega "
                    + "cuando vuelva.")
        }
        return resumen
    }

    /// Enqueues «Prueba de marcador» for every active channel (or only `canal`), delivers that
    /// notice now and reports each channel's delivery.
    public func probar(canal: String?, configuracion: Despachador.Configuracion) async throws
        -> [EntregaDeAviso]
    {
        let buzon = nucleo.tienda.buzon
        if let canal {
            let elegido = try nucleo.canalExistente(canal)
            guard elegido.activo else {
                throw Fallo.uso(
                    "El canal \(citado(canal)) está en pausa: «marcador avisos canales activar \(TextoSeguro.limpio(canal))»."
                )
            }
        } else if !(try buzon.canales().contains(where: \.activo)) {
            throw Fallo.uso("No hay canales activos a los que mandar la prueba.")
        }
        let aviso = try buzon.encolarPrueba(canal: canal, ahora: nucleo.ahora())
        try await despachador(configuracion: configuracion).enviarPendientes(aviso: aviso)
        return try buzon.entregas(aviso: aviso)
    }

    /// `Entregadas: 5, para reintentar: 0, …`.
    public static func texto(_ resumen: ResumenDeEnvio) -> String {
        "Entregadas: \(resumen.entregadas), para reintentar: \(resumen.reintentos), "
            + "fallidas: \(resumen.fallidas), descartadas: \(resumen.descartadas), "
            + "caducadas: \(resumen.caducadas)."
    }
}

/// The dispatcher inside `jugar` (devices aside: their fan-out, a minute for a million, is
/// the serving dispatchers' — `avisos vigilar`, `servir` — and `avisos enviar`'s, never a
/// match's process held open or cut short mid-shard, contract.md §20): woken by its own process's commits that queue deliveries
/// (the store's signal, not the match's callbacks), so a notice reaches every channel within
/// the same tick, each channel at its own pace; it makes only first attempts (retries are for
/// `avisos enviar` and `avisos vigilar`). Stopped, it gives deliveries in flight half a second
/// (none after a signal), then their leases go back to the queue for the next dispatcher.
@MainActor
public final class RepartoEnProceso: Servicio {
    public let despachador: Despachador
    let buzon: any Buzon
    let tienda: any Tienda
    let cierre: Cierre
    private var ejecucion: Int?
    /// What is left pending of the run, per channel others can deliver, once it has stopped.
    public private(set) var pendientes: [String: Int] = [:]

    /// Builds the dispatcher for the active channels (plus `propios`) and starts it.
    public init(_ reparto: Reparto, propios: [CanalActivo], registro: any Registro, cierre: Cierre)
        throws
    {
        tienda = reparto.nucleo.tienda
        buzon = tienda.buzon
        self.cierre = cierre
        var configuracion = Despachador.Configuracion()
        configuracion.soloPrimerosIntentos = true
        despachador = try reparto.despachador(
            configuracion: configuracion, propios: propios, registro: registro)
        despachador.arrancar()
    }

    /// The run whose process-local deliveries (the banner) this process owns.
    public func atender(ejecucion: Int?) {
        self.ejecucion = ejecucion
        despachador.atender(ejecucion: ejecucion)
    }

    public func run() async {
        let despachador = self.despachador
        let escucha = tienda.escucharEsteProceso(.entregas) { canal in
            guard canal != "difusion" else { return }
            despachador.despertar(canal: canal)
        }
        await hastaQueLoParen()
        escucha?.parar()
        let (buzon, ejecucion, cierre) = (self.buzon, self.ejecucion, self.cierre)
        pendientes = await cierre.conGracia {
            await despachador.detener(plazo: cierre.plazo(.milliseconds(500)))
            var pendientes = (try? buzon.pendientesPorCanal(ejecucion: ejecucion)) ?? [:]
            pendientes[TipoDeCanal.nombreTerminal] = nil
            return pendientes
        }
    }
}
