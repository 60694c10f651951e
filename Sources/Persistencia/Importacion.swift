import Torneo

/// Imported matches into a store (`importar`).
public protocol Importacion: Sendable {
    /// Imports `entradas` in one transaction; with `soloComprobar` nothing is written.
    func importar(_ entradas: [EntradaDeImportacion], soloComprobar: Bool) throws
        -> ResumenDeImportacion
    /// The file's result of an imported match (`nil` for hand-made ones).
    func resultadoEsperado(partido: Int) throws -> Marcador?
}

/// What an import did (or, in a dry run, would do).
public struct ResumenDeImportacion: Sendable, Hashable {
    public var nuevos = 0
    public var yaEstaban = 0
    public var sinGoles = 0
    public var conAvisos = 0
    public var goles = 0

    public init() {}
}

/// A match ready to store, whatever format it came from.
public struct EntradaDeImportacion: Sendable {
    public var clave: String
    public var local: String
    public var visitante: String
    public var competicion: String
    public var ronda, fecha, hora, grupo, estadio: String?
    public var finalDelPartido, trasLaProrroga, penaltis: Marcador?
    public var tieneProrroga: Bool
    public var goles: [Gol]?
    /// The players sent off, stored beside the goals (a live feed's match resource gives
    /// them; files do not).
    public var rojas: [TarjetaRoja] = []
    /// The substitutions, likewise.
    public var cambios: [Sustitucion] = []
    public var conAvisos: Bool

    /// The kick-off as the store orders by it (`Saque.segundos`), when the date is known.
    public var inicio: Int? { Saque(fecha: fecha, hora: hora)?.segundos }

    public init(
        clave: String, local: String, visitante: String, competicion: String, ronda: String?,
        fecha: String?, hora: String?, grupo: String?, estadio: String?,
        finalDelPartido: Marcador?,
        trasLaProrroga: Marcador?, penaltis: Marcador?, tieneProrroga: Bool, goles: [Gol]?,
        conAvisos: Bool
    ) {
        self.clave = clave
        self.local = local
        self.visitante = visitante
        self.competicion = competicion
        self.ronda = ronda
        self.fecha = fecha
        self.hora = hora
        self.grupo = grupo
        self.estadio = estadio
        self.finalDelPartido = finalDelPartido
        self.trasLaProrroga = trasLaProrroga
        self.penaltis = penaltis
        self.tieneProrroga = tieneProrroga
        self.goles = goles
        self.conAvisos = conAvisos
    }
}
