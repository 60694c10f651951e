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

        mutating func sumar(penalti: Bool) {
            goles += 1
            if penalti { penaltis += 1 }
        }
    }

    /// Goals desc, then fewer penalties, then name.
    public static func contar(_ partidos: [Partido]) -> [Fila] {
        struct Clave: Hashable {
            var equipo: String
            var jugador: String
        }
        var nombres: [String: Set<String>] = [:]
        for partido in partidos {
            for case .gol(let gol) in partido.eventos where !gol.enPropiaPuerta {
                nombres[gol.jugador.equipo.nombre, default: []].insert(gol.jugador.nombre)
            }
        }
        let comoSeCuenta = nombres.mapValues { ClaveDeJugador.agrupar($0) }
        var filas: [Clave: Fila] = [:]
        for partido in partidos {
            for case .gol(let gol) in partido.eventos where !gol.enPropiaPuerta {
                let equipo = gol.jugador.equipo.nombre
                let jugador = comoSeCuenta[equipo]?[gol.jugador.nombre] ?? gol.jugador.nombre
                filas[
                    Clave(equipo: equipo, jugador: jugador),
                    default: Fila(jugador: jugador, equipo: equipo)
                ].sumar(penalti: gol.penalti)
            }
        }
        // The folded name is computed once per player, not twice per comparison: a big
        // competition has thousands of scorers.
        return filas.values.map { (fila: $0, clave: ClaveDeNombre.de($0.jugador)) }
            .sorted { a, b in
                if a.fila.goles != b.fila.goles { return a.fila.goles > b.fila.goles }
                if a.fila.penaltis != b.fila.penaltis { return a.fila.penaltis < b.fila.penaltis }
                return a.clave < b.clave
            }
            .map(\.fila)
    }
}
