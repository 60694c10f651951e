import Aplicacion
import Torneo

/// "Did you mean…": the closest known word to a mistyped one.
enum Sugerencia {
    /// The candidate at the smallest edit distance from `palabra`, if it is close enough to be
    /// a slip (at most a third of the word, and 3 edits).
    static func parecida(_ palabra: String, entre candidatas: [String]) -> String? {
        let limite = min(3, max(1, palabra.count / 3))
        let mejor = candidatas.map {
            ($0, ClaveDeNombre.distancia(palabra.lowercased(), $0.lowercased()))
        }
        .min { $0.1 < $1.1 }
        guard let mejor, mejor.1 <= limite, mejor.1 > 0 else { return nil }
        return mejor.0
    }
}
