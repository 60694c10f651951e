/// An error a store reports, which the user reads as a Spanish sentence about that store
/// (safety.md). Each driver says its own errors; the use cases and front ends only ask.
public protocol ErrorDeTienda: Error {
    /// Why it failed, in Spanish and without naming the store: «no queda espacio en el disco».
    var explicacion: String { get }
    /// The whole sentence, naming the store as `descripcion` (a path, or a URL without its
    /// password).
    func mensaje(para descripcion: String) -> String
}

extension ErrorDeTienda {
    public func mensaje(para descripcion: String) -> String {
        "Base de datos «\(descripcion)»: \(explicacion)."
    }
}

/// `error` in Spanish for a log line: a store's own explanation, or its description.
public func explicacion(de error: any Error) -> String {
    (error as? any ErrorDeTienda)?.explicacion ?? "\(error)"
}
