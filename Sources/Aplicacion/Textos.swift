import Torneo

/// Spanish wording rules shared by every use case and front end.
public enum Textos {
    /// `1 partido`, `2 partidos`: the number with the right form of the noun.
    public static func cuenta(_ n: Int, _ singular: String, _ plural: String) -> String {
        "\(n) \(n == 1 ? singular : plural)"
    }

    /// `30` rather than `30.0`.
    public static func segundos(_ segundos: Double) -> String {
        segundos == segundos.rounded() ? String(Int(segundos)) : String(segundos)
    }
}

/// What the user or a file said, quoted for a message: «…», shortened past 200 characters and
/// made safe for a terminal (safety.md).
public func citado(_ texto: String) -> String {
    let corto = texto.count > 200 ? String(texto.prefix(200)) + "…" : texto
    return "«\(TextoSeguro.limpio(corto))»"
}
