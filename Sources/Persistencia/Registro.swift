import Torneo

/// Where the program's log lines go (`partido CANCELADO en el minuto 7 (fd045)`, notices sent…).
///
/// Logging never throws: losing a log line must not stop a match, so implementations do their
/// best (the stores always echo to stderr, even when the database refuses the row).
public protocol Registro: Sendable {
    func anotar(_ linea: String, partido: Int?)

    /// Several lines at once, in order (one transaction where the store has them).
    func anotar(lineas: [(String, Int?)])

    /// Stores the lines, and throws when the store refused them: for the log channel, whose
    /// delivery counts only once its line is kept (delivery.md: outcomes on evidence).
    func guardar(lineas: [(String, Int?)]) throws

    /// Shows lines that another transaction already stored (the log channel's, written with
    /// their outcomes by the outbox) where this log shows its own: stderr, the terminal.
    func mostrar(lineas: [(String, Int?)])
}

extension Registro {
    public func anotar(_ linea: String) { anotar(linea, partido: nil) }

    public func anotar(lineas: [(String, Int?)]) {
        for (linea, partido) in lineas { anotar(linea, partido: partido) }
    }

    /// Where lines cannot fail (a log kept in memory), storing is noting.
    public func guardar(lineas: [(String, Int?)]) throws { anotar(lineas: lineas) }

    /// A log kept in memory has nowhere else to show them: it notes them.
    public func mostrar(lineas: [(String, Int?)]) { anotar(lineas: lineas) }
}
