/// A group table computed from results (DESIGN §10).
///
/// Ordering: points (3 a win, 1 a draw), then goal difference, then goals for, then name
/// (without case or accents). FIFA's head-to-head and fair-play criteria are not applied.
public enum Clasificacion {
    /// One team's line: played, won, drawn, lost, goals for and against.
    public struct Fila: Sendable, Hashable, Codable {
        public var equipo: String
        public var jugados = 0
        public var ganados = 0
        public var empatados = 0
        public var perdidos = 0
        public var aFavor = 0
        public var enContra = 0

        public init(equipo: String) { self.equipo = equipo }

        public var diferencia: Int { aFavor - enContra }
        public var puntos: Int { ganados * 3 + empatados }

        mutating func sumar(a favor: Int, en contra: Int) {
            jugados += 1
            aFavor += favor
            enContra += contra
            if favor > contra {
                ganados += 1
            } else if favor == contra {
                empatados += 1
            } else {
                perdidos += 1
            }
        }
    }

    /// The table of `resultados`; `equipos` adds teams with no result yet (0 played).
    public static func calcular(
        _ resultados: [(local: String, visitante: String, marcador: Marcador)],
        equipos: [String] = []
    ) -> [Fila] {
        var filas: [String: Fila] = [:]
        for equipo in equipos { filas[equipo] = Fila(equipo: equipo) }
        for (local, visitante, marcador) in resultados {
            filas[local, default: Fila(equipo: local)].sumar(
                a: marcador.local, en: marcador.visitante)
            filas[visitante, default: Fila(equipo: visitante)].sumar(
                a: marcador.visitante, en: marcador.local)
        }
        return filas.values.sorted(by: antes)
    }

    /// The ordering rule, in one place.
    public static func antes(_ a: Fila, _ b: Fila) -> Bool {
        if a.puntos != b.puntos { return a.puntos > b.puntos }
        if a.diferencia != b.diferencia { return a.diferencia > b.diferencia }
        if a.aFavor != b.aFavor { return a.aFavor > b.aFavor }
        return ClaveDeNombre.de(a.equipo) < ClaveDeNombre.de(b.equipo)
    }
}

extension Clasificacion.Fila {
    /// `+5`, `0`, `-3`.
    public var diferenciaConSigno: String { diferencia > 0 ? "+\(diferencia)" : "\(diferencia)" }
}
