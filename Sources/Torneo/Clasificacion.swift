/// A table computed from results (fans.md, §14): a group's, a league's or a league phase's.
///
/// Three points a win, one a draw. Order, by default: points, goal difference, goals for, then
/// the head-to-head points among the teams still tied, then the name (without case or
/// accents). With `Desempate.enfrentamientos` (LaLiga, Serie A, the Euro's groups) the
/// head-to-head comes first: points, then among the tied teams their points, goal difference
/// and goals for, then the overall goal difference and goals for, then the name. Fair play,
/// drawing of lots and the like are not modelled.
public enum Clasificacion {
    /// How teams level on points are told apart.
    public enum Desempate: String, Sendable, CaseIterable {
        /// Goal difference and goals for first, then the head-to-head.
        case goles
        /// The head-to-head first.
        case enfrentamientos
    }

    /// Which of each team's matches count: all, or only those at home (or away).
    public enum Campo: String, Sendable, CaseIterable {
        case todos, local, visitante
    }

    /// One result, in the order the matches were played.
    public struct Resultado: Sendable, Hashable {
        public var local: String
        public var visitante: String
        public var marcador: Marcador

        public init(local: String, visitante: String, marcador: Marcador) {
            self.local = local
            self.visitante = visitante
            self.marcador = marcador
        }
    }

    /// One match of a team, as its form shows it.
    public enum Forma: Character, Sendable, Hashable, Codable {
        case ganado = "G"
        case empatado = "E"
        case perdido = "P"
    }

    /// One team's line: played, won, drawn, lost, goals for and against, latest form.
    public struct Fila: Sendable, Hashable {
        public var equipo: String
        public var jugados = 0
        public var ganados = 0
        public var empatados = 0
        public var perdidos = 0
        public var aFavor = 0
        public var enContra = 0
        /// Every result in playing order (the table shows the last five).
        public var forma: [Forma] = []

        public init(equipo: String) { self.equipo = equipo }

        public var diferencia: Int { aFavor - enContra }
        public var puntos: Int { ganados * 3 + empatados }

        /// The last five results, oldest first: `GEPGG`.
        public var ultimos: String { String(forma.suffix(5).map(\.rawValue)) }

        mutating func sumar(a favor: Int, en contra: Int) {
            jugados += 1
            aFavor += favor
            enContra += contra
            if favor > contra {
                ganados += 1
                forma.append(.ganado)
            } else if favor == contra {
                empatados += 1
                forma.append(.empatado)
            } else {
                perdidos += 1
                forma.append(.perdido)
            }
        }
    }

    /// The table of `resultados` (in playing order); `equipos` adds teams with no result yet.
    public static func calcular(
        _ resultados: [Resultado], equipos: [String] = [], campo: Campo = .todos,
        desempate: Desempate = .goles
    ) -> [Fila] {
        let filas = sumar(resultados, equipos: equipos, campo: campo)
        return ordenar(Array(filas.values), resultados: resultados, campo: campo, desempate)
    }

    /// The round-2 shape, kept for callers with plain tuples.
    public static func calcular(
        _ resultados: [(local: String, visitante: String, marcador: Marcador)],
        equipos: [String] = []
    ) -> [Fila] {
        calcular(
            resultados.map {
                Resultado(local: $0.local, visitante: $0.visitante, marcador: $0.marcador)
            },
            equipos: equipos)
    }

    private static func sumar(_ resultados: [Resultado], equipos: [String], campo: Campo)
        -> [String: Fila]
    {
        var filas: [String: Fila] = [:]
        for equipo in equipos { filas[equipo] = Fila(equipo: equipo) }
        for resultado in resultados {
            if campo != .visitante {
                filas[resultado.local, default: Fila(equipo: resultado.local)].sumar(
                    a: resultado.marcador.local, en: resultado.marcador.visitante)
            } else if filas[resultado.local] == nil {
                filas[resultado.local] = Fila(equipo: resultado.local)
            }
            if campo != .local {
                filas[resultado.visitante, default: Fila(equipo: resultado.visitante)].sumar(
                    a: resultado.marcador.visitante, en: resultado.marcador.local)
            } else if filas[resultado.visitante] == nil {
                filas[resultado.visitante] = Fila(equipo: resultado.visitante)
            }
        }
        return filas
    }

    /// The ordering rule, in one place: sorted by the first keys, then each block of teams
    /// still level is ordered by the results among themselves.
    static func ordenar(
        _ filas: [Fila], resultados: [Resultado], campo: Campo, _ desempate: Desempate
    ) -> [Fila] {
        func primeras(_ fila: Fila) -> [Int] {
            desempate == .goles ? [fila.puntos, fila.diferencia, fila.aFavor] : [fila.puntos]
        }
        let porClaves = filas.sorted { a, b in
            let (x, y) = (primeras(a), primeras(b))
            return x != y ? x.lexicographicallyPrecedes(y, by: >) : nombre(a) < nombre(b)
        }
        var ordenadas: [Fila] = []
        var indice = 0
        while indice < porClaves.count {
            var fin = indice + 1
            while fin < porClaves.count && primeras(porClaves[fin]) == primeras(porClaves[indice]) {
                fin += 1
            }
            let bloque = Array(porClaves[indice..<fin])
            ordenadas +=
                bloque.count == 1
                ? bloque : desempatar(bloque, resultados: resultados, campo: campo, desempate)
            indice = fin
        }
        return ordenadas
    }

    /// Teams level on the first keys, ordered by the mini-table of their matches among
    /// themselves, then by what is left.
    private static func desempatar(
        _ bloque: [Fila], resultados: [Resultado], campo: Campo, _ desempate: Desempate
    ) -> [Fila] {
        let nombres = Set(bloque.map(\.equipo))
        let entreEllos = resultados.filter {
            nombres.contains($0.local) && nombres.contains($0.visitante)
        }
        let mini = sumar(entreEllos, equipos: Array(nombres), campo: campo)
        func claves(_ fila: Fila) -> [Int] {
            let suya = mini[fila.equipo] ?? Fila(equipo: fila.equipo)
            switch desempate {
            case .goles: return [suya.puntos]
            case .enfrentamientos:
                return [suya.puntos, suya.diferencia, suya.aFavor, fila.diferencia, fila.aFavor]
            }
        }
        return bloque.sorted { a, b in
            let (x, y) = (claves(a), claves(b))
            return x != y ? x.lexicographicallyPrecedes(y, by: >) : nombre(a) < nombre(b)
        }
    }

    private static func nombre(_ fila: Fila) -> String { ClaveDeNombre.de(fila.equipo) }
}

extension Clasificacion.Fila {
    /// `+5`, `0`, `-3`.
    public var diferenciaConSigno: String { diferencia > 0 ? "+\(diferencia)" : "\(diferencia)" }
}
