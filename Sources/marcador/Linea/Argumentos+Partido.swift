import Torneo

extension Argumentos {
    /// A match id from a positional argument: a positive integer.
    static func idDePartido(_ texto: String) throws(Fallo) -> Int {
        guard let id = Int(texto), id > 0 else {
            throw .uso("El id del partido es un número entero positivo, no «\(texto)».")
        }
        return id
    }

    /// `local` or `visitante`.
    static func lado(_ texto: String) throws(Fallo) -> Lado {
        guard let lado = Lado(rawValue: texto) else {
            throw .uso("Indica «local» o «visitante», no «\(texto)».")
        }
        return lado
    }
}
