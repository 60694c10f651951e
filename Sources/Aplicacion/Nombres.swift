import Torneo

/// Names a user typed, found among the stored ones without case, accents or punctuation
/// (DESIGN §10); one that matches nothing says what exists.
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
        var mensaje =
            "No hay \(femenino ? "ninguna" : "ningún") \(clase) \(femenino ? "llamada" : "llamado") "
            + "\(citado(texto))."
        let parecidos = ClaveDeNombre.parecidos(a: texto, entre: nombres)
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
