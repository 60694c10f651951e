/// An error meant for the user: a full Spanish sentence and the exit status it leads to.
///
/// Commands throw these; the one `catch` in `Programa` prints the message on stderr and exits
/// with the code, so no Swift error description or crash trace ever reaches a user.
struct Fallo: Error, Sendable, Equatable {
    var mensaje: String
    var codigo: CodigoDeSalida

    static func uso(_ mensaje: String) -> Fallo { Fallo(mensaje: mensaje, codigo: .uso) }
    static func datos(_ mensaje: String) -> Fallo { Fallo(mensaje: mensaje, codigo: .datos) }
    static func noEncontrado(_ mensaje: String) -> Fallo {
        Fallo(mensaje: mensaje, codigo: .noEncontrado)
    }
    static func entradaSalida(_ mensaje: String) -> Fallo {
        Fallo(mensaje: mensaje, codigo: .entradaSalida)
    }
}
