import Sistema
import Torneo

/// The durable outbox of delivery.md and §8: notices enqueued in the transaction of their minute,
/// deliveries leased by dispatchers, one lane per channel.
///
/// Every method is one transaction of the store. Implementations: SQLite (`Almacen`) and
/// PostgreSQL (`AlmacenPostgres`), held to the same contract suite.
public protocol Buzon: Sendable {
    /// Leases up to `reclamo.limite` due deliveries of one channel, oldest notice first.
    ///
    /// A delivery is never leased while an earlier delivery of the same run on the same channel
    /// is pending and not taken by this very claim — leased by anyone, waiting for its retry,
    /// or left to other dispatchers — until that earlier one settles or passes its
    /// time-to-live: each match's notices reach a channel in goal order, across processes,
    /// retries and attachments.
    func reclamar(_ reclamo: Reclamo) throws -> [EntregaReclamada]

    /// Whether `reclamo` could still lease something, row locks aside: a claim that ran beside
    /// another one may come back empty while deliveries are left (PostgreSQL skips the rows
    /// the other claim has locked), so a drain ends only when this says nothing is left.
    /// Deliveries leased by someone else, or waiting behind one, are theirs: they do not count.
    func quedanReclamables(_ reclamo: Reclamo) throws -> Bool

    /// Stores outcomes; one whose lease was lost meanwhile is ignored, since another
    /// dispatcher owns the delivery now. Every outcome counts one attempt. A stored outcome's
    /// `anotacion` goes into the log in the same transaction, and only then.
    /// - Returns: how many outcomes were stored, and which notices' lines were written.
    @discardableResult
    func registrar(_ resultados: [ResultadoDeEntrega], arrendatario: String, ahora: Double) throws
        -> ResultadosGuardados

    /// Extends the leases `arrendatario` holds on `entregas` (avisoId by channel) until
    /// `hasta`: a holder keeps only the deliveries it is still working on, never one it gave up.
    /// Returns how many leases were extended.
    @discardableResult
    func renovar(_ entregas: [String: [Int]], arrendatario: String, hasta: Double) throws -> Int

    /// Of `avisos` on `canal`, those whose lease `arrendatario` still holds at `ahora`: a
    /// dispatcher that was paused past its lease checks before delivering, and delivers
    /// nothing another one owns now (fencing by lease).
    func conArriendo(_ avisos: [Int], canal: String, arrendatario: String, ahora: Double) throws
        -> Set<Int>

    /// Gives back the leases `arrendatario` holds on `entregas` (avisoId by channel), due at
    /// once for the next dispatcher: work this one could not finish.
    @discardableResult
    func soltar(_ entregas: [String: [Int]], arrendatario: String, ahora: Double) throws -> Int

    /// Who holds a lease on a pending delivery now (`Arrendatario.texto`, or an older form).
    func arrendatarios() throws -> Set<String>

    /// The processes connected to the store now, by `Propietario.nombreDeSesion`; `nil` where
    /// the store cannot tell (SQLite: each process opens the file by itself).
    func sesionesDeMarcador() throws -> Set<String>?

    /// Gives back the leases `arrendatario` holds on deliveries of `canal` (all channels when
    /// `nil`), due at once for the next dispatcher, with the same identifier.
    /// - Returns: how many leases were given back.
    @discardableResult
    func liberar(arrendatario: String, canal: String?, ahora: Double) throws -> Int

    /// Terminal banners whose watching process is gone (or whose run is over) can never be
    /// shown: they end `caducada` instead of staying pending forever.
    @discardableResult
    func caducarBannersHuerfanos(ahora: Double) throws -> Int

    /// Records whether a notice went out with its attachment, and if not, why.
    func anotarEnriquecimiento(aviso: Int, enriquecido: Bool, motivo: String?) throws

    /// Puts failed deliveries back in the queue, due now, with their attempts reset.
    @discardableResult
    func reintentarFallidas(ahora: Double) throws -> Int

    /// Deliveries by state, every state present (0 when none).
    func recuento() throws -> [EstadoDeEntrega: Int]

    /// Pending deliveries per channel, of one run or of all.
    func pendientesPorCanal(ejecucion: Int?) throws -> [String: Int]

    /// The latest notices with each delivery's state, newest first.
    func ultimos(limite: Int) throws -> [AvisoEnBuzon]

    /// The notices of kinds `tipos` its live feed gave match `partido` (annulled and
    /// corrected goals, lineups: what the page's timeline shows beside the script), oldest
    /// first.
    func avisosDelDirecto(partido: Int, tipos: [TipoDeAviso]) throws -> [AvisoDeGol]

    /// The earliest time a pending delivery of `canal` becomes due (or its lease ends).
    func proximoVencimiento(canal: String) throws -> Double?

    /// Every configured channel, by name; devices are not among them (`dispositivos`).
    func canales() throws -> [CanalConfigurado]

    /// Every device (contract.md §19), by id.
    func dispositivos() throws -> [CanalConfigurado]

    /// The devices that kept an id of the first, 40-bit form (`Dispositivo.nombreAntiguo`),
    /// with their settings: few or none in a store made since. Only `nombre`, when given.
    func dispositivosDeNombreAntiguo(_ nombre: String?) throws -> [String: String]

    /// The type of channel or device `nombre`, `nil` when there is none.
    func existe(_ nombre: String) throws -> TipoDeCanal?

    /// Adds or replaces `canales` in one transaction (`dispositivos importar`); their names
    /// are distinct.
    /// - Returns: how many were new.
    @discardableResult
    func guardar(_ canales: [CanalConfigurado]) throws -> Int

    /// Adds a channel; an existing name is replaced only with `reemplazar`.
    /// - Returns: `false` when the name exists and `reemplazar` is off (nothing changed).
    func guardar(_ canal: CanalConfigurado, reemplazar: Bool) throws -> Bool

    /// Replaces what channel `nombre` follows. Returns whether it exists.
    func cambiarFiltros(_ nombre: String, _ filtros: FiltrosDeCanal) throws -> Bool

    /// Enqueues each match's reminder («Empieza pronto») for the channels that choose
    /// reminders and follow it, each delivery due that channel's `--antes` before `saque`; a
    /// match already reminded is left alone (one reminder per match, whoever queues it).
    /// - Returns: how many reminders were new.
    func encolarRecordatorios(_ recordatorios: [(aviso: AvisoDeGol, saque: Double)], ahora: Double)
        throws -> Int

    /// Enqueues a test notice («Prueba de marcador») for every active channel, or only `canal`.
    /// - Returns: the notice's id.
    func encolarPrueba(canal: String?, ahora: Double) throws -> Int

    /// Each channel's delivery of notice `aviso`.
    func entregas(aviso: Int) throws -> [EntregaDeAviso]

    /// Removes a channel; its pending deliveries are discarded (nobody would take them).
    /// - Returns: whether the channel existed.
    func quitarCanal(_ nombre: String) throws -> Bool

    /// Pauses or resumes a channel without deleting it. Returns whether it exists.
    func activarCanal(_ nombre: String, activo: Bool) throws -> Bool

    /// The push provider's settings and keys (APNs, VAPID), by key.
    func credenciales() throws -> [String: String]

    /// Sets each key to its value (`nil` removes it) in one transaction; with `siFalta`, a key
    /// already stored keeps its value (two processes creating a key pair at once keep one).
    /// - Returns: every key as stored afterwards.
    @discardableResult
    func guardarCredenciales(_ valores: [String: String?], siFalta: Bool) throws -> [String: String]
}

/// What `Buzon.registrar` stored.
public struct ResultadosGuardados: Sendable, Hashable {
    /// Outcomes stored (those whose lease was still the caller's).
    public var guardados: Int
    /// Notices whose `anotacion` was written into the log.
    public var anotados: Set<Int>

    public init(guardados: Int = 0, anotados: Set<Int> = []) {
        self.guardados = guardados
        self.anotados = anotados
    }
}

/// What a lane asks `Buzon.reclamar` for.
public struct Reclamo: Sendable, Hashable {
    public var canal: String
    public var arrendatario: String
    public var ahora: Double
    /// Seconds the lease lasts unless renewed.
    public var arriendo: Double
    public var limite: Int
    /// Only deliveries due by then (default `ahora`): a drain passes its start time so a
    /// delivery it failed and rescheduled is not retried within the same drain.
    public var vencidasHasta: Double?
    /// Only notices never tried (the dispatcher inside `jugar` leaves retries to others).
    public var soloPrimerosIntentos: Bool
    /// For the terminal channel: only deliveries of this run (the one this process watches).
    public var ejecucion: Int?
    /// Only this notice's deliveries (`avisos probar`).
    public var aviso: Int?
    /// Seconds a notice lives: an earlier one older than this no longer holds the later ones.
    public var caducidad: Double

    public init(
        canal: String, arrendatario: String, ahora: Double, arriendo: Double, limite: Int,
        vencidasHasta: Double? = nil, soloPrimerosIntentos: Bool = false, ejecucion: Int? = nil,
        aviso: Int? = nil, caducidad: Double = 600
    ) {
        self.caducidad = caducidad
        self.aviso = aviso
        self.canal = canal
        self.arrendatario = arrendatario
        self.ahora = ahora
        self.arriendo = arriendo
        self.limite = limite
        self.vencidasHasta = vencidasHasta
        self.soloPrimerosIntentos = soloPrimerosIntentos
        self.ejecucion = ejecucion
    }
}
