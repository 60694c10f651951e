/// A match minute as football writes it: the regulation minute plus added time (`90+3`).
///
/// Added-time goals are played at their regulation minute (a `45+2` goal happens when the clock
/// reaches 45) and ordered by their offset, so ordering compares the minute first.
public struct MinutoDeJuego: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var minuto: Int
    public var anadido: Int

    public init(_ minuto: Int, anadido: Int = 0) {
        self.minuto = minuto
        self.anadido = anadido
    }

    /// Reads `"35"`, `"90+3"` or `"120+1"`; `nil` for anything else (including negatives).
    public init?(texto: String) {
        let partes = texto.trimmingEspacios().split(
            separator: "+", omittingEmptySubsequences: false)
        guard partes.count == 1 || partes.count == 2,
            let minuto = Int(partes[0]), minuto >= 0
        else { return nil }
        var anadido = 0
        if partes.count == 2 {
            guard let extra = Int(partes[1]), extra >= 0 else { return nil }
            anadido = extra
        }
        self.init(minuto, anadido: anadido)
    }

    public var description: String {
        anadido > 0 ? "\(minuto)+\(anadido)" : "\(minuto)"
    }

    public static func < (a: MinutoDeJuego, b: MinutoDeJuego) -> Bool {
        (a.minuto, a.anadido) < (b.minuto, b.anadido)
    }
}

extension StringProtocol {
    func trimmingEspacios() -> Substring {
        let sinInicio = drop { $0 == " " || $0 == "\t" }
        var fin = sinInicio.endIndex
        while fin > sinInicio.startIndex {
            let anterior = sinInicio.index(before: fin)
            guard sinInicio[anterior] == " " || sinInicio[anterior] == "\t" else { break }
            fin = anterior
        }
        return Substring(sinInicio[sinInicio.startIndex..<fin])
    }
}
