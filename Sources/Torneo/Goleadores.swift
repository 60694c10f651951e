/// Top scorers from the scripts (DESIGN §10): goals per player and team, penalties shown apart,
/// own goals not counted for the scorer.
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
        var filas: [String: Fila] = [:]
        for partido in partidos {
            for case .gol(let gol) in partido.eventos where !gol.enPropiaPuerta {
                let clave = gol.jugador.equipo.nombre + "\u{0}" + gol.jugador.nombre
                var fila =
                    filas[clave]
                    ?? Fila(jugador: gol.jugador.nombre, equipo: gol.jugador.equipo.nombre)
                fila.goles += 1
                if gol.penalti { fila.penaltis += 1 }
                filas[clave] = fila
            }
        }
        return filas.values.sorted { a, b in
            if a.goles != b.goles { return a.goles > b.goles }
            if a.penaltis != b.penaltis { return a.penaltis < b.penaltis }
            return ClaveDeNombre.de(a.jugador) < ClaveDeNombre.de(b.jugador)
        }
    }
}
