/// Top scorers from the scripts (fans.md): goals per player and team, penalties shown apart,
/// own goals not counted for the scorer; a player a file spells several ways is counted once
/// (`ClaveDeJugador`).
public enum Goleadores {
    public struct Fila: Sendable, Hashable, Codable {
        public var jugador: String
        public var equipo: String
        public var goles: Int
        /// Of `goles`, how many were penalties.
        public var penaltis: Int

        public init(jugador: String, equipo: String, goles: Int = 0, penaltis: Int = 0) {
            self.jugador = jugador
            self.equipo = equipo
            self.goles = goles
            self.penaltis = penaltis
        }
    }

    /// Goals desc, then fewer penalties, then name.
    public static func contar(_ partidos: [Partido]) -> [Fila] {
        var porGol: [Fila] = []
        for partido in partidos {
            for case .gol(let gol) in partido.eventos where !gol.enPropiaPuerta {
                porGol.append(
                    Fila(
                        jugador: gol.jugador.nombre, equipo: gol.jugador.equipo.nombre, goles: 1,
                        penaltis: gol.penalti ? 1 : 0))
            }
        }
        return fundir(porGol)
    }

    /// Rows counted per name as written (one per goal, or one per stored player as a store
    /// sums them) folded into one per player and team (`ClaveDeJugador`: the spellings of one
    /// player are one row), in the list's order: goals desc, then fewer penalties, then name.
    /// - Parameter limite: only the first `limite` players and whoever has as many goals as
    ///   the last of them (a list never stops in the middle of a tie); all when `nil`.
    public static func fundir(_ filas: [Fila], primeros limite: Int? = nil) -> [Fila] {
        var fundidas = porJugador(filas)
        if let limite, limite < fundidas.count {
            // Only the shown players are sorted by name: the cut is found on the goals alone
            // (a season has thousands of scorers and the list shows twenty).
            let minimo = fundidas.map(\.fila.goles).sorted(by: >)[max(limite, 1) - 1]
            fundidas.removeAll { $0.fila.goles < minimo }
        }
        return fundidas.sorted { a, b in
            if a.fila.goles != b.fila.goles { return a.fila.goles > b.fila.goles }
            if a.fila.penaltis != b.fila.penaltis { return a.fila.penaltis < b.fila.penaltis }
            if a.clave != b.clave { return a.clave < b.clave }
            return a.fila.equipo < b.fila.equipo
        }
        .map(\.fila)
    }

    /// One row per player and team, with the folded name that orders the list: computed once
    /// per name, not twice per comparison.
    private static func porJugador(_ filas: [Fila]) -> [(fila: Fila, clave: String)] {
        var porEquipo: [String: [Int]] = [:]
        for (i, fila) in filas.enumerated() { porEquipo[fila.equipo, default: []].append(i) }
        var fundidas: [(fila: Fila, clave: String)] = []
        fundidas.reserveCapacity(filas.count)
        for indices in porEquipo.values {
            let grupos = ClaveDeJugador.representantes(indices.map { filas[$0].jugador })
            var posicion = [Int](repeating: -1, count: indices.count)
            for (k, i) in indices.enumerated() {
                let r = grupos.representante[k]
                if posicion[r] < 0 {
                    posicion[r] = fundidas.count
                    let nombre = filas[indices[r]].jugador
                    fundidas.append(
                        (Fila(jugador: nombre, equipo: filas[i].equipo), grupos.claves[r]))
                }
                fundidas[posicion[r]].fila.goles += filas[i].goles
                fundidas[posicion[r]].fila.penaltis += filas[i].penaltis
            }
        }
        return fundidas
    }
}
