/// Spanish wording rules shared by every command.
enum Textos {
    /// `1 partido`, `2 partidos`: the number with the right form of the noun.
    static func cuenta(_ n: Int, _ singular: String, _ plural: String) -> String {
        "\(n) \(n == 1 ? singular : plural)"
    }
}
