/// Which side of a match: the home team (`local`) or the away team (`visitante`).
public enum Lado: String, Sendable, Hashable, CaseIterable, Codable {
    case local
    case visitante

    /// The other side: the team an own goal's player belongs to.
    public var contrario: Lado {
        switch self {
        case .local: .visitante
        case .visitante: .local
        }
    }
}
