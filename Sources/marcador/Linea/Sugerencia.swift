/// "Did you mean…": the closest known word to a mistyped one.
enum Sugerencia {
    /// The candidate at the smallest edit distance from `palabra`, if it is close enough to be
    /// a slip (at most a third of the word, and 3 edits).
    static func parecida(_ palabra: String, entre candidatas: [String]) -> String? {
        let limite = min(3, max(1, palabra.count / 3))
        let mejor = candidatas.map { ($0, distancia(palabra, $0)) }.min { $0.1 < $1.1 }
        guard let mejor, mejor.1 <= limite, mejor.1 > 0 else { return nil }
        return mejor.0
    }

    /// Levenshtein distance over characters, case-insensitive.
    static func distancia(_ a: String, _ b: String) -> Int {
        let x = Array(a.lowercased())
        let y = Array(b.lowercased())
        guard !x.isEmpty else { return y.count }
        guard !y.isEmpty else { return x.count }
        var anterior = Array(0...y.count)
        for i in 1...x.count {
            var actual = [i] + Array(repeating: 0, count: y.count)
            for j in 1...y.count {
                actual[j] = min(
                    anterior[j] + 1, actual[j - 1] + 1,
                    anterior[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            anterior = actual
        }
        return anterior[y.count]
    }
}
