/// Which tie-break a competition's regulations use, known by its name (fans.md): what
/// `clasificacion` applies when not told otherwise, and names under each table.
public struct ReglaDeDesempate: Sendable, Hashable {
    public let desempate: Clasificacion.Desempate
    /// Whose regulations they are («UEFA, Eurocopa»), or `nil` for a competition marcador does
    /// not know (then the general rule: goal difference first).
    public let reglamento: String?
    /// Chosen by the user (`--desempate`) instead of the competition's.
    public let elegida: Bool

    public init(desempate: Clasificacion.Desempate, reglamento: String?, elegida: Bool = false) {
        self.desempate = desempate
        self.reglamento = reglamento
        self.elegida = elegida
    }

    /// The competitions marcador knows, by words of their folded name, first match wins. The
    /// Euro's groups, LaLiga and Serie A (since 2022–23) put the head-to-head first; the World
    /// Cup, the Premier League, the Bundesliga, Ligue 1 and the Champions League's league phase,
    /// goal difference.
    static let conocidas: [(palabras: [String], regla: ReglaDeDesempate)] = [
        (["euro"], .init(desempate: .enfrentamientos, reglamento: "UEFA, Eurocopa")),
        (["eurocopa"], .init(desempate: .enfrentamientos, reglamento: "UEFA, Eurocopa")),
        (["serie", "a"], .init(desempate: .enfrentamientos, reglamento: "Lega Serie A")),
        (["laliga"], .init(desempate: .enfrentamientos, reglamento: "LaLiga")),
        (["la", "liga"], .init(desempate: .enfrentamientos, reglamento: "LaLiga")),
        (["primera", "division"], .init(desempate: .enfrentamientos, reglamento: "LaLiga")),
        (["world", "cup"], .init(desempate: .goles, reglamento: "FIFA, Copa Mundial")),
        (["mundial"], .init(desempate: .goles, reglamento: "FIFA, Copa Mundial")),
        (["premier", "league"], .init(desempate: .goles, reglamento: "Premier League")),
        (["bundesliga"], .init(desempate: .goles, reglamento: "Bundesliga")),
        (["ligue", "1"], .init(desempate: .goles, reglamento: "Ligue 1")),
        (["champions", "league"], .init(desempate: .goles, reglamento: "UEFA, Champions League")),
    ]

    /// The rule of competition `nombre`: a known one's, else the general rule.
    public static func de(competicion nombre: String) -> ReglaDeDesempate {
        let palabras = ClaveDeNombre.de(nombre).split(separator: " ").map(String.init)
        for (buscadas, regla) in conocidas where contiene(palabras, seguidas: buscadas) {
            return regla
        }
        return ReglaDeDesempate(desempate: .goles, reglamento: nil)
    }

    /// Whether `buscadas` appear in `palabras` one right after another.
    private static func contiene(_ palabras: [String], seguidas buscadas: [String]) -> Bool {
        guard buscadas.count <= palabras.count else { return false }
        return (0...(palabras.count - buscadas.count)).contains {
            Array(palabras[$0..<($0 + buscadas.count)]) == buscadas
        }
    }

    /// What is said under a table: `Desempate: enfrentamientos entre los empatados (reglamento
    /// de la UEFA, Eurocopa).`
    public var texto: String {
        let criterio =
            switch desempate {
            case .enfrentamientos: "enfrentamientos entre los empatados, luego diferencia de goles"
            case .goles: "diferencia de goles, goles a favor, luego enfrentamientos"
            }
        let origen =
            elegida
            ? "elegido con --desempate" : reglamento.map { "reglamento: \($0)" } ?? "regla general"
        return "Desempate: \(criterio) (\(origen))."
    }
}
