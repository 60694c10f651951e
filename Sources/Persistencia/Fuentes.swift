import Sistema
import Torneo

/// A live feed as configured (`fuentes añadir`).
public struct FuenteConfigurada: Sendable, Hashable {
    public var nombre: String
    public var url: String
    /// `football-data` or `openfootball`.
    public var formato: String
    /// The provider's key (football-data's `X-Auth-Token`).
    public var clave: String?
    /// Seconds between polls.
    public var cada: Double

    public init(nombre: String, url: String, formato: String, clave: String?, cada: Double) {
        self.nombre = nombre
        self.url = url
        self.formato = formato
        self.clave = clave
        self.cada = cada
    }
}

/// A source and how its polls are going (`fuentes`).
public struct EstadoDeFuente: Sendable, Hashable {
    public var id: Int
    public var configurada: FuenteConfigurada
    public var ultimoSondeo: Double?
    public var ultimoEstado: String?
    public var fallosSeguidos: Int
    public var sondeos: Int
    public var proximoSondeo: Double
    /// Matches it follows.
    public var partidos: Int

    public init(
        id: Int, configurada: FuenteConfigurada, ultimoSondeo: Double?, ultimoEstado: String?,
        fallosSeguidos: Int, sondeos: Int, proximoSondeo: Double, partidos: Int
    ) {
        self.id = id
        self.configurada = configurada
        self.ultimoSondeo = ultimoSondeo
        self.ultimoEstado = ultimoEstado
        self.fallosSeguidos = fallosSeguidos
        self.sondeos = sondeos
        self.proximoSondeo = proximoSondeo
        self.partidos = partidos
    }
}

/// A source this poller holds the lease of, with what it needs to poll it: its validators and
/// the last snapshot of every match it follows.
public struct FuenteArrendada: Sendable {
    public var estado: EstadoDeFuente
    public var etag: String?
    public var modificado: String?
    /// By the provider's key of the match: the snapshot (JSON) and the stored match.
    public var fotos: [String: (foto: String, partido: Int)]

    public init(
        estado: EstadoDeFuente, etag: String?, modificado: String?,
        fotos: [String: (foto: String, partido: Int)]
    ) {
        self.estado = estado
        self.etag = etag
        self.modificado = modificado
        self.fotos = fotos
    }
}

/// One followed match after a poll that changed it: the match as stored, its new snapshot and
/// the notices of the change.
public struct PartidoSondeado: Sendable {
    public var claveExterna: String
    /// Teams, competition, day, results and goals, as an import stores them.
    public var entrada: EntradaDeImportacion
    public var directo: EstadoEnDirecto
    public var minuto: Int?
    /// The added time of that minute (`45+2`), if the feed says.
    public var anadido: Int?
    public var foto: String
    /// Their `partidoId` is the store's to fill in (a match seen for the first time has none).
    public var avisos: [AvisoDeGol]

    public init(
        claveExterna: String, entrada: EntradaDeImportacion, directo: EstadoEnDirecto,
        minuto: Int?, anadido: Int? = nil, foto: String, avisos: [AvisoDeGol]
    ) {
        self.anadido = anadido
        self.claveExterna = claveExterna
        self.entrada = entrada
        self.directo = directo
        self.minuto = minuto
        self.foto = foto
        self.avisos = avisos
    }
}

/// What a poll leaves: the source's validators, status and next due time, and the matches it
/// changed. Written all at once, or not at all if the lease was lost meanwhile.
public struct SondeoHecho: Sendable {
    public var fuente: Int
    public var etag: String?
    public var modificado: String?
    /// When the next poll is due (`cada`, a backoff, a `Retry-After`).
    public var proximo: Double
    /// A sentence for `fuentes` and the log: `200, 2 partidos cambiaron`, `HTTP 500`…
    public var estado: String
    public var fallido: Bool
    public var partidos: [PartidoSondeado]

    public init(
        fuente: Int, etag: String?, modificado: String?, proximo: Double, estado: String,
        fallido: Bool, partidos: [PartidoSondeado] = []
    ) {
        self.fuente = fuente
        self.etag = etag
        self.modificado = modificado
        self.proximo = proximo
        self.estado = estado
        self.fallido = fallido
        self.partidos = partidos
    }
}

/// Live feeds in a store (directo.md): their configuration, one poller at a time per source
/// (a lease, on SQLite and PostgreSQL alike), and each poll's outcome written with its
/// notices in one transaction.
public protocol Fuentes: Sendable {
    /// - Returns: `false` when a source of that name exists.
    func anadir(_ fuente: FuenteConfigurada) throws -> Bool
    /// - Returns: `false` when there is none of that name.
    func quitar(_ nombre: String) throws -> Bool
    func todas() throws -> [EstadoDeFuente]
    /// Leases the sources due now (none held by another live poller) for `arriendo` seconds.
    func arrendarDebidas(arrendatario: String, ahora: Double, arriendo: Double) throws
        -> [FuenteArrendada]
    /// When the next source is due, if there is any.
    func proximoSondeo() throws -> Double?
    /// Writes a poll's outcome, its matches, snapshots and notices (with their deliveries) and
    /// gives the lease back, in one transaction.
    /// - Returns: `false`, writing nothing, when the lease is no longer this poller's.
    @discardableResult
    func registrar(_ sondeo: SondeoHecho, arrendatario: String, ahora: Double) throws -> Bool
    /// Gives back a lease without polling (the poller is stopping, or it is gone).
    func soltar(fuente: Int, arrendatario: String) throws
    /// The sources leased now, with who holds each (`Arrendatario.texto`, or an older form).
    func arrendadas() throws -> [(fuente: Int, arrendatario: String)]
}
