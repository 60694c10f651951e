import Almacen
import Synchronization
import Torneo

/// Drains the outbox: claims due deliveries with a lease, hands each to its channel, and
/// records the outcome per channel (delivered, retry later, dead letter, discarded, expired).
///
/// Several dispatchers may drain one database at once (in `jugar`, in `avisos vigilar`, in
/// `avisos enviar`): the lease makes each delivery belong to one of them at a time. A
/// dispatcher that dies holding a lease only delays its deliveries until the lease expires;
/// they then go out again with the same identifier, which downstream treats as a replacement.
public final class Despachador: Sendable {
    public struct Configuracion: Sendable {
        /// Seconds a claimed delivery belongs to this dispatcher.
        public var arriendo: Double = 60
        /// Time-to-live of a goal alert, in seconds: an older one is expired, not delivered.
        public var caducidad: Double = 600
        /// Deliveries claimed per statement.
        public var lote: Int = 64
        public var politica = PoliticaDeReintentos()
        /// Deliver only notices never tried: the dispatcher inside `jugar` leaves retries to
        /// `avisos enviar` and `avisos vigilar`, so a failing channel never holds a match's
        /// process open after the final whistle.
        public var soloPrimerosIntentos = false

        public init() {}
    }

    let buzon: BuzonSQLite
    let canales: [String: any Notificador]
    let registro: any Registro
    let configuracion: Configuracion
    let arrendatario: String
    let ahora: @Sendable () -> Double
    let permitido: @Sendable () throws -> Bool
    /// Fetches attachments before delivery; `nil` delivers attachment URLs unchecked.
    let enriquecedor: Enriquecedor?
    private let ejecucionLocal = Mutex<Int?>(nil)

    /// - Parameters:
    ///   - canales: the channels this dispatcher delivers to (only their deliveries are claimed).
    ///   - permitido: reads the permission at each drain, so revoking it stops publishing.
    public init(
        buzon: BuzonSQLite,
        canales: [any Notificador],
        registro: any Registro,
        configuracion: Configuracion = Configuracion(),
        arrendatario: String =
            "despachador-\(Propietario.actual.pid)-\(UInt32.random(in: 0...UInt32.max))",
        ahora: @escaping @Sendable () -> Double = segundosUnix,
        enriquecedor: Enriquecedor? = nil,
        permitido: @escaping @Sendable () throws -> Bool
    ) {
        self.enriquecedor = enriquecedor
        self.buzon = buzon
        self.canales = Dictionary(canales.map { ($0.canal, $0) }, uniquingKeysWith: { a, _ in a })
        self.registro = registro
        self.configuracion = configuracion
        self.arrendatario = arrendatario
        self.ahora = ahora
        self.permitido = permitido
    }

    /// The run whose process-local deliveries (the terminal banner) this dispatcher owns.
    public func atender(ejecucion: Int?) {
        ejecucionLocal.withLock { $0 = ejecucion }
    }

    var nombresGlobales: [String] {
        canales.keys.filter { $0 != BuzonSQLite.canalTerminal }.sorted()
    }

    /// Delivers everything that is due now, until nothing due is left.
    @discardableResult
    public func enviarPendientes() async throws -> ResumenDeEnvio {
        var resumen = ResumenDeEnvio()
        let local = ejecucionLocal.withLock { $0 }
        // What was due when the drain started: a delivery that fails now waits for its
        // backoff in a later drain, so a drain ends even when a channel keeps failing.
        let inicio = ahora()
        while true {
            let momento = ahora()
            let lote = try buzon.reclamar(
                canales: nombresGlobales,
                ejecucionLocal: canales[BuzonSQLite.canalTerminal] == nil ? nil : local,
                arrendatario: arrendatario, ahora: momento, arriendo: configuracion.arriendo,
                limite: configuracion.lote, vencidasHasta: inicio,
                soloPrimerosIntentos: configuracion.soloPrimerosIntentos)
            if lote.isEmpty { return resumen }
            let permiso = try permitido()
            // Notices without an attachment go out at once; those with one wait for their
            // fetch (at most the enricher's deadline) without holding the others back.
            let enriquecer = permiso && enriquecedor != nil
            let conAdjunto = lote.filter { enriquecer && $0.aviso.adjunto != nil }
            let sinAdjunto = lote.filter { !(enriquecer && $0.aviso.adjunto != nil) }
            async let inmediatos = entregarPorCanal(
                sinAdjunto, permitido: permiso, momento: momento)
            let enriquecidos = try await self.enriquecer(conAdjunto, momento: momento)
            let resultados =
                await inmediatos
                + (await entregarPorCanal(enriquecidos, permitido: permiso, momento: momento))
            try buzon.registrar(resultados, arrendatario: arrendatario, ahora: ahora())
            for resultado in resultados { resumen.contar(resultado.desenlace) }
        }
    }

    /// Each channel's deliveries in parallel with the other channels'.
    private func entregarPorCanal(_ lote: [EntregaReclamada], permitido: Bool, momento: Double)
        async
        -> [ResultadoDeEntrega]
    {
        guard !lote.isEmpty else { return [] }
        return await withTaskGroup(of: [ResultadoDeEntrega].self) { grupo in
            for (canal, entregas) in Dictionary(grouping: lote, by: \.canal) {
                grupo.addTask {
                    await self.entregar(
                        entregas, por: canal, permitido: permitido, momento: momento)
                }
            }
            var todos: [ResultadoDeEntrega] = []
            for await parte in grupo { todos += parte }
            return todos
        }
    }

    /// Fetches each claimed notice's attachment once (not once per channel), all notices at
    /// once, and hands channels either the enriched notice or the original without attachment.
    private func enriquecer(_ lote: [EntregaReclamada], momento: Double) async throws
        -> [EntregaReclamada]
    {
        guard let enriquecedor else { return lote }
        var porAviso: [Int: AvisoDeGol] = [:]
        for entrega in lote
        where entrega.aviso.adjunto != nil && momento - entrega.creado <= configuracion.caducidad {
            porAviso[entrega.avisoId] = entrega.aviso
        }
        guard !porAviso.isEmpty else { return lote }
        let resultados = await withTaskGroup(of: (Int, Enriquecedor.Resultado).self) { grupo in
            for (id, aviso) in porAviso {
                grupo.addTask {
                    (
                        id,
                        await enriquecedor.enriquecer(
                            aviso.adjunto!, clave: "\(id)-\(aviso.claveDeIdempotencia)")
                    )
                }
            }
            var todos: [Int: Enriquecedor.Resultado] = [:]
            for await (id, resultado) in grupo { todos[id] = resultado }
            return todos
        }
        for (id, resultado) in resultados {
            let aviso = porAviso[id]!
            switch resultado {
            case .enriquecido:
                try buzon.anotarEnriquecimiento(aviso: id, enriquecido: true, motivo: nil)
            case .original(let motivo):
                registro.anotar(
                    "\(motivo); se entrega sin adjunto: \(aviso.identificador)",
                    partido: aviso.partidoId)
                try buzon.anotarEnriquecimiento(aviso: id, enriquecido: false, motivo: motivo)
            }
        }
        return lote.map { entrega in
            guard let resultado = resultados[entrega.avisoId] else { return entrega }
            var aviso = entrega.aviso
            switch resultado {
            case .enriquecido(let descargado):
                aviso.adjuntoLocal = descargado.ruta
                aviso.tipoDeAdjunto = descargado.tipo.rawValue
            case .original:
                aviso.adjunto = nil
            }
            return EntregaReclamada(
                avisoId: entrega.avisoId, canal: entrega.canal, intento: entrega.intento,
                aviso: aviso,
                creado: entrega.creado)
        }
    }

    /// One channel's deliveries, in notice order (a channel sees goals in the order they came).
    private func entregar(
        _ entregas: [EntregaReclamada], por canal: String, permitido: Bool, momento: Double
    ) async -> [ResultadoDeEntrega] {
        var resultados: [ResultadoDeEntrega] = []
        for entrega in entregas.sorted(by: { $0.avisoId < $1.avisoId }) {
            let desenlace = await desenlace(de: entrega, permitido: permitido, momento: momento)
            resultados.append(
                ResultadoDeEntrega(avisoId: entrega.avisoId, canal: canal, desenlace: desenlace))
        }
        return resultados
    }

    private func desenlace(de entrega: EntregaReclamada, permitido: Bool, momento: Double) async
        -> ResultadoDeEntrega.Desenlace
    {
        guard permitido else { return .descartada(motivo: "avisos de gol desactivados") }
        let edad = momento - entrega.creado
        if edad > configuracion.caducidad {
            let motivo = "más de \(Int(configuracion.caducidad)) s sin entregar"
            registro.anotar(
                "aviso caducado, no se entrega por \(entrega.canal): \(entrega.aviso.identificador) (\(motivo))",
                partido: entrega.aviso.partidoId)
            return .caducada(motivo: motivo)
        }
        guard let notificador = canales[entrega.canal] else {
            return .reintentar(
                cuando: momento + configuracion.arriendo, error: "canal no disponible aquí")
        }
        do {
            try await notificador.notificarGol(entrega.aviso)
            return .entregada
        } catch {
            let fallo =
                error as? FalloDeEntrega ?? FalloDeEntrega("\(error)", reintentable: true)
            registro.anotar(
                "no se pudo publicar la notificación: \(entrega.canal): \(fallo.motivo)",
                partido: entrega.aviso.partidoId)
            let politica = configuracion.politica
            guard fallo.reintentable, entrega.intento < politica.maximoDeIntentos else {
                return .fallida(error: fallo.motivo)
            }
            let demora = politica.demora(
                trasElIntento: entrega.intento, pedida: fallo.reintentarTras)
            return .reintentar(cuando: ahora() + demora, error: fallo.motivo)
        }
    }
}
