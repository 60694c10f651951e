import Torneo

/// One match read from a file, checked and ready to store.
public struct PartidoImportado: Sendable, Hashable {
    public var local: String
    public var visitante: String
    public var ronda: String?
    public var fecha: String?
    public var hora: String?
    public var grupo: String?
    public var estadio: String?
    /// Score at full time, after extra time, and of the penalty shoot-out, as the file gives them.
    public var finalDelPartido: Marcador?
    public var trasLaProrroga: Marcador?
    public var penaltis: Marcador?
    /// The goals in playing order; `nil` when the file gives no goal details for the match.
    public var goles: [Gol]?
    public var tieneProrroga: Bool
    /// What looked wrong but could be read (a minute past 90 without extra time, scores that
    /// do not add up).
    public var avisos: [String]

    /// What the match should end with when played with its duration.
    public var resultadoEsperado: Marcador? {
        tieneProrroga ? (trasLaProrroga ?? finalDelPartido) : finalDelPartido
    }

    /// The natural key: the same match of the same competition is imported once.
    public func clave(competicion: String) -> String {
        [competicion, fecha ?? "", local, visitante].joined(separator: "|")
    }
}

/// A whole file: its competition name and its matches.
public struct Competicion: Sendable, Hashable {
    public var nombre: String
    public var partidos: [PartidoImportado]
    /// Read for a live feed (`Rigor.directo`): the matches left out, each with why. An import
    /// refuses the whole file instead, so this is empty there.
    public var descartados: [String] = []

    public var goles: Int { partidos.reduce(0) { $0 + ($1.goles?.count ?? 0) } }
}

/// How strictly a file is read. An import refuses the whole file for one bad name or match
/// (safety.md: the user fixes the file and imports again); a live feed is the provider's data,
/// not ours to refuse, and one bad match must never hold back the others of the answer.
public enum Rigor: Sendable, Hashable {
    /// `importar`: a refused name or an unreadable match refuses the file.
    case importacion
    /// `directo`: names are made safe (`TextoSeguro.saneado`), an unreadable match is left out
    /// and said, and a repeated one keeps its first entry.
    case directo
}

/// A file that cannot be imported: which match and which field, in a sentence.
public struct FalloDeImportacion: Error, Sendable, Hashable, CustomStringConvertible {
    public var mensaje: String
    public var description: String { mensaje }
}
