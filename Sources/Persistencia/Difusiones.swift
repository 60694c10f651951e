import Torneo

/// A notice's fan-out to devices by shards (contract.md §20): one row per shard of at most
/// `tamanoDeTramo` devices, written with the notice; leased by any dispatcher of any process or
/// host, streamed in device-id order, with a cursor committed as it progresses.
///
/// Implementations: SQLite and PostgreSQL (`DifusionSQL`), held to the same contract suite.
public protocol Difusiones: Sendable {
    /// Leases the next due shard, oldest notice first: a shard of a run's later notice waits
    /// until every shard of its earlier notices is settled (each device gets a match's notices
    /// in order), and a device's own retry waits for its earlier retries. Expired shards are
    /// settled `caducada` on the way.
    func reclamarTramo(_ reclamo: ReclamoDeTramo) throws -> TramoReclamado?

    /// Up to `limite` devices of `tramo` after `despues` (after its cursor when `nil`), in id
    /// order, each with what it follows.
    func dispositivos(de tramo: TramoReclamado, despues: String?, limite: Int) throws
        -> [DispositivoDeTramo]

    /// Commits a shard's progress in one transaction, only while `arrendatario` still holds its
    /// lease: the cursor and counts, the devices declared dead removed, the devices to try
    /// again later given shards of their own, the lease extended (or the shard settled).
    /// - Returns: whether the lease was still the caller's (else nothing was written).
    @discardableResult
    func avanzar(_ avance: AvanceDeTramo, arrendatario: String, ahora: Double, arriendo: Double)
        throws -> Bool

    /// How the fan-out of `aviso` (of every notice when `nil`) stands.
    func recuentoDeDifusion(aviso: Int?) throws -> RecuentoDeDifusion
}

/// What `Difusiones.reclamarTramo` is asked for.
public struct ReclamoDeTramo: Sendable, Hashable {
    public var arrendatario: String
    public var ahora: Double
    public var arriendo: Double
    /// Only shards due by then (a drain passes its start time).
    public var vencidosHasta: Double?
    /// Only shards never tried (the dispatcher inside `jugar`).
    public var soloPrimerosIntentos: Bool
    /// Seconds a notice lives: an older one's shards are expired, not delivered.
    public var caducidad: Double

    public init(
        arrendatario: String, ahora: Double, arriendo: Double, vencidosHasta: Double? = nil,
        soloPrimerosIntentos: Bool = false, caducidad: Double = AvisoDeGol.tiempoDeVida
    ) {
        self.arrendatario = arrendatario
        self.ahora = ahora
        self.arriendo = arriendo
        self.vencidosHasta = vencidosHasta
        self.soloPrimerosIntentos = soloPrimerosIntentos
        self.caducidad = caducidad
    }
}

/// A leased shard.
public struct TramoReclamado: Sendable, Hashable {
    public let id: Int
    public let tipo: TipoDeCanal
    public let avisoId: Int
    public let aviso: AvisoDeGol
    /// When the notice was enqueued (unix seconds).
    public let creado: Double
    public let desde: String
    public let hasta: String?
    /// The last device whose outcome is stored; `nil` when none yet.
    public let cursor: String?
    /// A retry of one device (`desde` = `hasta`).
    public let unico: Bool
    /// 1 for the first attempt.
    public let intento: Int
    /// The notice's team and its match's competition, for devices' filters.
    public let equipo: String?
    public let competicion: String?

    public init(
        id: Int, tipo: TipoDeCanal, avisoId: Int, aviso: AvisoDeGol, creado: Double,
        desde: String, hasta: String?, cursor: String?, unico: Bool, intento: Int,
        equipo: String? = nil, competicion: String? = nil
    ) {
        self.equipo = equipo
        self.competicion = competicion
        self.id = id
        self.tipo = tipo
        self.avisoId = avisoId
        self.aviso = aviso
        self.creado = creado
        self.desde = desde
        self.hasta = hasta
        self.cursor = cursor
        self.unico = unico
        self.intento = intento
    }
}

extension TramoReclamado {
    /// Devices in a shard at most (contract.md §20).
    public static let tamanoMaximo = 10_000
}

/// One device of a shard, as stored, with what the shard needs to know about it.
public struct DispositivoDeTramo: Sendable, Hashable {
    public let canal: CanalConfigurado
    /// It has an earlier notice of the same run still waiting for a retry: this one must
    /// queue behind it rather than overtake it.
    public let detras: Bool

    public init(canal: CanalConfigurado, detras: Bool) {
        self.canal = canal
        self.detras = detras
    }
}

/// What a dispatcher commits of a shard.
public struct AvanceDeTramo: Sendable, Hashable {
    /// A device to try again at `cuando`, with why.
    public struct Reintento: Sendable, Hashable {
        public let dispositivo: String
        public let cuando: Double
        public let error: String
        /// Whether it was tried (`false`: it waits behind an earlier retry, or for its delay).
        public let intentado: Bool

        public init(dispositivo: String, cuando: Double, error: String, intentado: Bool = true) {
            self.dispositivo = dispositivo
            self.cuando = cuando
            self.error = error
            self.intentado = intentado
        }
    }

    public let tramo: TramoReclamado
    public var cursor: String?
    public var entregadas = 0
    public var fallidas = 0
    /// Devices the provider said are gone: removed in this commit, with their queues.
    public var retirados: [String] = []
    public var reintentos: [Reintento] = []
    /// How the shard ends with this commit (`nil`: it goes on); the error stored with it.
    public var final: EstadoDeEntrega?
    /// A one-device shard to try again then (its lease given back).
    public var reprogramar: Double?
    public var error: String?

    public init(tramo: TramoReclamado) {
        self.tramo = tramo
        cursor = tramo.cursor
    }

    public var vacio: Bool {
        entregadas == 0 && fallidas == 0 && retirados.isEmpty && reintentos.isEmpty
            && final == nil && reprogramar == nil && cursor == tramo.cursor
    }
}

/// How a fan-out stands: shards by state, and the deliveries counted so far.
public struct RecuentoDeDifusion: Sendable, Hashable {
    public var tramos: [EstadoDeEntrega: Int] = [:]
    public var entregadas = 0
    public var fallidas = 0
    public var retiradas = 0

    public init() {}

    public var pendientes: Int { tramos[.pendiente] ?? 0 }
}
