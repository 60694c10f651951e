import Torneo

/// Where the program's log lines go (`partido CANCELADO en el minuto 7 (fd045)`, notices sent…).
///
/// Logging never throws: losing a log line must not stop a match, so implementations do their
/// best (the stores always echo to stderr, even when the database refuses the row).
public protocol Registro: Sendable {
    func anotar(_ linea: String, partido: Int?)

    /// Several lines at once, in order (one transaction where the store has them).
    func anotar(lineas: [(String, Int?)])
}

extension Registro {
    public func anotar(_ linea: String) { anotar(linea, partido: nil) }

    public func anotar(lineas: [(String, Int?)]) {
        for (linea, partido) in lineas { anotar(linea, partido: partido) }
    }
}
