/// A stretch of a table with a fate of its own (contract.md, «The page»): who goes through,
/// who may, who goes down. Files say nothing of it, so each format's usual rule is used — a
/// World Cup or Euro group's first two and its best thirds by the size of the knockout round,
/// a league of 18 or 20 its top four and its last places, a league phase of 36 the top eight
/// and the play-off places — and the legend names it; a league of another size gets none
/// rather than a guess.
public struct ZonaDeTabla: Sendable, Hashable {
    public enum Clase: String, Sendable {
        /// Goes through (or into the Champions League).
        case pasa
        /// May go through: best thirds, a play-off.
        case quizas
        /// Goes down.
        case baja
    }

    /// Positions, from 1.
    public var puestos: ClosedRange<Int>
    public var clase: Clase
    public var texto: String

    /// The zones of a table of `equipos` teams, among `grupos` tables of the competition.
    public static func de(formato: FormatoDeCompeticion, equipos: Int, grupos: Int) -> [ZonaDeTabla]
    {
        switch formato {
        case .grupos:
            guard equipos >= 3, grupos >= 1 else { return [] }
            var zonas = [
                ZonaDeTabla(puestos: 1...2, clase: .pasa, texto: "Pasan a la siguiente ronda")
            ]
            // The knockout round is a power of two: what the group winners and runners-up
            // leave of it goes to the best thirds (Euro 2020: 4 of 6; World Cup 2026: 8 of 12).
            var ronda = 1
            while ronda < 2 * grupos { ronda *= 2 }
            let terceros = ronda - 2 * grupos
            if terceros > 0 && terceros < grupos {
                zonas.append(
                    ZonaDeTabla(
                        puestos: 3...3, clase: .quizas,
                        texto: "Pasan los \(terceros) mejores terceros de \(grupos) grupos"))
            }
            return zonas
        case .liga:
            switch equipos {
            case 20:
                return [
                    ZonaDeTabla(puestos: 1...4, clase: .pasa, texto: "Liga de Campeones"),
                    ZonaDeTabla(puestos: 18...20, clase: .baja, texto: "Descenso"),
                ]
            case 18:
                return [
                    ZonaDeTabla(puestos: 1...4, clase: .pasa, texto: "Liga de Campeones"),
                    ZonaDeTabla(puestos: 16...16, clase: .quizas, texto: "Promoción"),
                    ZonaDeTabla(puestos: 17...18, clase: .baja, texto: "Descenso"),
                ]
            default:
                return []
            }
        case .faseDeLiga:
            guard equipos == 36 else { return [] }
            return [
                ZonaDeTabla(puestos: 1...8, clase: .pasa, texto: "Octavos de final"),
                ZonaDeTabla(puestos: 9...24, clase: .quizas, texto: "Eliminatoria de play-off"),
                ZonaDeTabla(puestos: 25...36, clase: .baja, texto: "Eliminados"),
            ]
        }
    }
}
