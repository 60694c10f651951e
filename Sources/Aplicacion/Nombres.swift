import Torneo

/// Names a user typed, found among the stored ones without case, accents or punctuation
/// (fans.md); one that matches nothing says what exists.
enum Nombres {
    /// The stored name `texto` stands for.
    /// - Parameters:
    ///   - clase: what the name is of, for the message: `equipo`, `competición`.
    ///   - plural: `equipos`, `competiciones`.
    static func buscar(
        _ texto: String, entre nombres: [String], clase: String, plural: String,
        femenino: Bool = false
    ) throws(Fallo) -> String {
        let clave = ClaveDeNombre.de(texto)
        if let exacto = nombres.first(where: { ClaveDeNombre.de($0) == clave }) { return exacto }
        // «serie a» for «Italian Serie A 2024/25»: the words given, whole and in order, inside
        // exactly one name. Two or more are a question, answered below with the candidates.
        let conLasPalabras = nombres.filter {
            (" " + ClaveDeNombre.de($0) + " ").contains(" " + clave + " ")
        }
        if !clave.isEmpty, conLasPalabras.count == 1 { return conLasPalabras[0] }
        var mensaje =
            "No hay \(femenino ? "ninguna" : "ningún") \(clase) \(femenino ? "llamada" : "llamado") "
            + "\(citado(texto))."
        let parecidos =
            conLasPalabras.count > 1
            ? conLasPalabras : ClaveDeNombre.parecidos(a: texto, entre: nombres)
        if !parecidos.isEmpty {
            mensaje +=
                " ¿Quizá " + parecidos.map { "«\(TextoSeguro.limpio($0))»" }.joined(separator: ", ")
                + "?"
        } else if nombres.isEmpty {
            mensaje += " Todavía no hay \(plural)."
        } else {
            let algunos = nombres.prefix(8).map { "«\(TextoSeguro.limpio($0))»" }
            mensaje +=
                " Hay \(Textos.cuenta(nombres.count, clase, plural)): "
                + algunos.joined(separator: ", ")
                + (nombres.count > 8 ? "…" : ".")
        }
        throw .noEncontrado(mensaje)
    }
}
