/// An error a store reports, which the user reads as a Spanish sentence about that store
/// (DESIGN §7). Each driver says its own errors; the use cases and front ends only ask.
public protocol ErrorDeTienda: Error {
    /// The whole sentence, naming the store as `descripcion` (a path, or a URL without its
    /// password).
    func mensaje(para descripcion: String) -> String
}
