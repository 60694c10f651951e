import Torneo

/// One match as a live feed gives it, whatever the provider: what the snapshot is compared
/// with and what the store keeps.
public struct PartidoDelFeed: Sendable, Hashable {
    /// The provider's id (football-data), or the natural key (openfootball).
    public var claveExterna: String
    public var competicion: String
    /// The day and time as `importar` stores them (`2024-08-16`, `19:00 UTC`).
    public var fecha: String?
    public var hora: String?
    public var ronda: String?
    public var grupo: String?
    public var local: String
    public var visitante: String
    public var estado: EstadoEnDirecto
    /// The minute the feed says is being played, if it says, and its added time (`45+2`).
    public var minuto: Int?
    public var anadido: Int?
    /// The score now (after extra time; not the shoot-out), once there is one.
    public var marcador: Marcador?
    public var finalDelPartido: Marcador?
    public var trasLaProrroga: Marcador?
    /// The shoot-out's tally: live while it is taken, final once the match is over.
    public var penaltis: Marcador?
    /// The goals, in playing order, when the feed lists them (football-data's free plan does
    /// not: then only the score tells).
    public var goles: [Gol]?
    /// The sendings-off, in playing order, when the feed lists bookings (football-data's
    /// match resource does).
    public var rojas: [TarjetaRoja]?
    /// The substitutions, in playing order, when the feed lists them (the match resource).
    public var cambios: [Sustitucion]?
    /// Each side's starters and formation once the feed publishes them (the match resource).
    public var alineaciones: [Lado: Alineacion] = [:]
    /// When the provider last changed the match (`lastUpdated`): a list entry that changed,
    /// lineups published before kick-off included.
    public var actualizado: String?

    public init(
        claveExterna: String, competicion: String, fecha: String? = nil, hora: String? = nil,
        ronda: String? = nil, grupo: String? = nil, local: String, visitante: String,
        estado: EstadoEnDirecto, minuto: Int? = nil, marcador: Marcador? = nil,
        finalDelPartido: Marcador? = nil, trasLaProrroga: Marcador? = nil,
        penaltis: Marcador? = nil, goles: [Gol]? = nil
    ) {
        self.claveExterna = claveExterna
        self.competicion = competicion
        self.fecha = fecha
        self.hora = hora
        self.ronda = ronda
        self.grupo = grupo
        self.local = local
        self.visitante = visitante
        self.estado = estado
        self.minuto = minuto
        self.marcador = marcador
        self.finalDelPartido = finalDelPartido
        self.trasLaProrroga = trasLaProrroga
        self.penaltis = penaltis
        self.goles = goles
    }

    /// The natural key the store identifies matches by (as `importar`): the same match from
    /// a file and from a feed is one match.
    public var clave: String {
        [competicion, fecha ?? "", local, visitante].joined(separator: "|")
    }
}

/// A side's lineup as a feed publishes it.
public struct Alineacion: Sendable, Hashable {
    public var formacion: String?
    public var titulares: [String]

    public init(formacion: String?, titulares: [String]) {
        self.formacion = formacion
        self.titulares = titulares
    }
}

/// What one answer of a feed said: the matches it could read, and why each other one could
/// not be (one malformed match never holds back the rest).
public struct LecturaDeFeed: Sendable, Hashable {
    public var partidos: [PartidoDelFeed]
    public var descartados: [String]

    public init(partidos: [PartidoDelFeed], descartados: [String] = []) {
        self.partidos = partidos
        self.descartados = descartados
    }
}

/// A feed answer that cannot be read: what is wrong, in a sentence.
public struct FalloDeFeed: Error, Sendable, Hashable, CustomStringConvertible {
    public var mensaje: String
    public init(_ mensaje: String) { self.mensaje = mensaje }
    public var description: String { mensaje }
}

/// The providers marcador speaks.
public enum FormatoDeFuente: String, Sendable, Hashable, CaseIterable {
    case footballData = "football-data"
    case openfootball

    /// Seconds between polls unless `--cada` says otherwise: football-data's free plan allows
    /// 10 requests a minute for every competition a key follows; a file changes slowly.
    public var cadaPorDefecto: Double {
        switch self {
        case .footballData: 30
        case .openfootball: 60
        }
    }

    /// Reads one answer of this provider.
    /// - Throws: `FalloDeFeed` only for an answer that is unreadable as a whole (not JSON, no
    ///   match list); a match that cannot be read is left out and said in `descartados`.
    public func leer(_ bytes: [UInt8], nombrePorDefecto: String) throws -> LecturaDeFeed {
        switch self {
        case .footballData: try LectorDeFootballData.leer(bytes, competicion: nombrePorDefecto)
        case .openfootball: try LectorDeOpenFootballEnDirecto.leer(bytes, nombre: nombrePorDefecto)
        }
    }
}
