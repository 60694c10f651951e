import Persistencia

/// An error meant for the user: a whole Spanish sentence and what kind of failure it is.
///
/// Use cases throw these; each front end turns the kind into its own terms (the CLI's exit
/// statuses of cli.md, the web API's HTTP statuses of §11), so a user never reads a Swift
/// error description or a crash trace, whichever front end they use.
public struct Fallo: Error, Sendable, Equatable {
    public enum Clase: Sendable, Hashable {
        /// Wrong arguments or values (CLI 64, HTTP 422).
        case uso
        /// A file or value with the wrong content (65, 422).
        case datos
        /// No such match, file, channel or name (66, 404).
        case noEncontrado
        /// The request is valid but the state forbids it: nothing to undo (64, 409).
        case conflicto
        /// A channel or library this machine lacks (69, 503).
        case noDisponible
        /// The store or a file could not be read or written (74, 503).
        case entradaSalida
    }

    public var mensaje: String
    public var clase: Clase

    public init(_ clase: Clase, _ mensaje: String) {
        self.clase = clase
        self.mensaje = mensaje
    }

    public static func uso(_ mensaje: String) -> Fallo { Fallo(.uso, mensaje) }
    public static func datos(_ mensaje: String) -> Fallo { Fallo(.datos, mensaje) }
    public static func noEncontrado(_ mensaje: String) -> Fallo { Fallo(.noEncontrado, mensaje) }
    public static func conflicto(_ mensaje: String) -> Fallo { Fallo(.conflicto, mensaje) }
    public static func noDisponible(_ mensaje: String) -> Fallo { Fallo(.noDisponible, mensaje) }
    public static func entradaSalida(_ mensaje: String) -> Fallo {
        Fallo(.entradaSalida, mensaje)
    }

    /// `error` as the user reads it: a `Fallo` as it is; what a store said, as its sentence
    /// about the store `descripcion`; anything else as an I/O failure of that store.
    public static func de(_ error: any Error, tienda descripcion: String) -> Fallo {
        if let fallo = error as? Fallo { return fallo }
        if let tienda = error as? any ErrorDeTienda {
            return .entradaSalida(tienda.mensaje(para: descripcion))
        }
        return .entradaSalida("Error con la base de datos «\(descripcion)»: \(error).")
    }
}
