/// One player, however a file spells them (fans.md): within one team, names that differ only in
/// case, accents, punctuation or word order, or by a first name written in full, as an initial
/// or left out, are the same player — «Kane» and «Harry Kane», «R. Lukaku» and «Lukaku»,
/// «E. Cavani» and «Edinson Cavani», «Son Heung-min» and «Heung-min Son».
///
/// The rule, within a team:
/// 1. Names are compared folded (`ClaveDeNombre`), word by word.
/// 2. The same words in another order are the same player.
/// 3. Names with a first name and the same last word are the same player when their first words
///    agree: equal, or one the initial (or the start) of the other («e» and «eden»).
/// 4. A last word alone («Hazard») is that player only when every fuller name ending in it is one
///    player; when two players share it («E. Hazard», «T. Hazard»), it stays apart rather than
///    be given to either.
/// A player is shown under the fullest of their spellings (the most letters; ties: the first in
/// alphabetical order of their keys).
public enum ClaveDeJugador {
    /// For each name of `nombres` (all of one team), the name it is counted under.
    public static func agrupar(_ nombres: some Sequence<String>) -> [String: String] {
        let unicos = Array(Set(nombres))
        let palabras = unicos.map { ClaveDeNombre.de($0).split(separator: " ").map(String.init) }
        var conjuntos = UnionFind(unicos.count)

        // 2. The same words in another order.
        var porPalabras: [[String]: Int] = [:]
        for (i, p) in palabras.enumerated() where !p.isEmpty {
            let ordenadas = p.sorted()
            if let otro = porPalabras[ordenadas] {
                conjuntos.unir(i, otro)
            } else {
                porPalabras[ordenadas] = i
            }
        }

        // 3 and 4, by last word.
        var porApellido: [String: [Int]] = [:]
        for (i, p) in palabras.enumerated() {
            if let ultima = p.last { porApellido[ultima, default: []].append(i) }
        }
        for indices in porApellido.values {
            let completos = indices.filter { palabras[$0].count > 1 }
            for (n, a) in completos.enumerated() {
                for b in completos[(n + 1)...] where concuerdan(palabras[a], palabras[b]) {
                    conjuntos.unir(a, b)
                }
            }
            let solos = indices.filter { palabras[$0].count == 1 }
            guard let primero = completos.first ?? solos.first else { continue }
            let uno = completos.allSatisfy { conjuntos.raiz($0) == conjuntos.raiz(primero) }
            if uno { for solo in solos { conjuntos.unir(solo, primero) } }
        }

        // The name each group is shown under.
        var mejor: [Int: Int] = [:]
        for i in unicos.indices {
            let raiz = conjuntos.raiz(i)
            guard let actual = mejor[raiz] else {
                mejor[raiz] = i
                continue
            }
            if antes(i, actual, palabras, unicos) { mejor[raiz] = i }
        }
        var resultado: [String: String] = [:]
        for (i, nombre) in unicos.enumerated() {
            resultado[nombre] = unicos[mejor[conjuntos.raiz(i)] ?? i]
        }
        return resultado
    }

    /// For `nombres` (all of one team, repeats allowed), the index of the name each is counted
    /// under, and each one's folded key (`ClaveDeNombre`). A team whose names no rule could
    /// join — no two with the same last word or the same words — is answered without building
    /// the groups: a season of thousands of scorers is mostly such teams.
    public static func representantes(_ nombres: [String]) -> (
        representante: [Int], claves: [String]
    ) {
        let claves = nombres.map(ClaveDeNombre.de)
        let propios = Array(nombres.indices)
        guard nombres.count > 1, algunoPodriaUnirse(claves) else { return (propios, claves) }
        let cuenta = agrupar(nombres)
        var primero: [String: Int] = [:]
        for (i, nombre) in nombres.enumerated() where primero[nombre] == nil { primero[nombre] = i }
        return (nombres.map { primero[cuenta[$0] ?? $0] ?? 0 }, claves)
    }

    /// Whether two of the folded names meet a rule's condition: the same last word (rules 3
    /// and 4) or the same words (rule 2). Pairwise for a team's few names; a long list is
    /// left to `agrupar`.
    static func algunoPodriaUnirse(_ claves: [String]) -> Bool {
        guard claves.count <= 64 else { return true }
        // A folded name is words of letters and digits between single spaces: its last word
        // is after its last space, and the same words in another order have the same length
        // and the same sum of bytes, so the words are sorted only for names that agree there
        // (Swift splits strings by grapheme: splitting every name cost a fifth of the list).
        let formas = claves.indices.compactMap {
            i -> (indice: Int, ultima: Substring, largo: Int, suma: Int)? in
            let bytes = claves[i].utf8
            guard !bytes.isEmpty else { return nil }
            let inicio =
                bytes.lastIndex(of: UInt8(ascii: " ")).map { bytes.index(after: $0) }
                ?? bytes.startIndex
            return (i, claves[i][inicio...], bytes.count, bytes.reduce(0) { $0 + Int($1) })
        }
        func mismasPalabras(_ a: String, _ b: String) -> Bool {
            a.split(separator: " ").sorted() == b.split(separator: " ").sorted()
        }
        for a in formas.indices {
            for b in formas.indices[(a + 1)...] {
                let (x, y) = (formas[a], formas[b])
                if x.ultima == y.ultima { return true }
                if x.largo == y.largo && x.suma == y.suma
                    && mismasPalabras(claves[x.indice], claves[y.indice])
                {
                    return true
                }
            }
        }
        return false
    }

    /// Two names with a first name and the same last word: their first words agree.
    static func concuerdan(_ a: [String], _ b: [String]) -> Bool {
        guard let x = a.first, let y = b.first else { return false }
        return x.hasPrefix(y) || y.hasPrefix(x)
    }

    /// Whether name `i` shows a group better than name `j`: more letters, then its key first.
    private static func antes(_ i: Int, _ j: Int, _ palabras: [[String]], _ unicos: [String])
        -> Bool
    {
        let (li, lj) = (palabras[i].joined().count, palabras[j].joined().count)
        if li != lj { return li > lj }
        let (ci, cj) = (palabras[i].joined(separator: " "), palabras[j].joined(separator: " "))
        return ci != cj ? ci < cj : unicos[i] < unicos[j]
    }
}

/// Disjoint sets over `0..<n`, for grouping spellings.
struct UnionFind {
    private var padre: [Int]

    init(_ n: Int) { padre = Array(0..<n) }

    mutating func raiz(_ i: Int) -> Int {
        var i = i
        while padre[i] != i {
            padre[i] = padre[padre[i]]
            i = padre[i]
        }
        return i
    }

    mutating func unir(_ a: Int, _ b: Int) {
        let (ra, rb) = (raiz(a), raiz(b))
        if ra != rb { padre[max(ra, rb)] = min(ra, rb) }
    }
}
