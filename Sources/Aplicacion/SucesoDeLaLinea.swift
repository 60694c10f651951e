import Torneo

/// One moment of a match's timeline (contract.md, «The page»): a goal with the score it left,
/// a player sent off, or what its live feed later said of a goal (annulled, corrected), in
/// playing order.
public struct SucesoDeLaLinea: Sendable, Hashable, Encodable {
    public enum Clase: String, Sendable, Encodable {
        case gol, roja, cambio, anulado, corregido
    }

    /// `45+1`.
    public var minuto: String
    public var clase: Clase
    /// What the line says after its minute: `Ana (Rayo FC) 1-0`, `Tarjeta roja: Björn
    /// (Cigüeñas FC, doble amarilla)`, `Gol anulado: Lionel Messi (Argentina)`.
    public var texto: String
    /// The side it concerns (`local`, `visitante`), when known.
    public var lado: String?
    /// Where it sorts: the minute, then its added time.
    var orden: MinutoDeJuego

    private enum CodingKeys: String, CodingKey {
        case minuto, clase, texto, lado
    }

    /// The timeline of `partido`'s script (up to `hastaElMinuto` for a run being played), and
    /// the feed's later word on its goals (`revisiones`: «Gol anulado», «Gol corregido»), by
    /// minute; at one minute, the script first.
    public static func de(
        _ partido: Partido, duracion: Int = Duracion.conProrroga, hastaElMinuto: Int = .max,
        revisiones: [AvisoDeGol] = []
    ) -> [SucesoDeLaLinea] {
        var marcador = Marcador.cero
        var sucesos: [SucesoDeLaLinea] = []
        for evento in partido.eventos(hasta: duracion) where evento.minuto.minuto <= hastaElMinuto {
            switch evento {
            case .gol(let gol):
                marcador = marcador.sumando(gol.lado)
                let marcas = (gol.penalti ? " (p)" : "") + (gol.enPropiaPuerta ? " (pp)" : "")
                let pase = gol.asistencia.map { ", asistencia de \($0)" } ?? ""
                sucesos.append(
                    SucesoDeLaLinea(
                        minuto: gol.minuto.description, clase: .gol,
                        texto:
                            "\(gol.jugador.nombre)\(marcas) (\(gol.jugador.equipo.nombre)) \(marcador)\(pase)",
                        lado: gol.lado.rawValue, orden: gol.minuto))
            case .roja(let tarjeta):
                sucesos.append(
                    SucesoDeLaLinea(
                        minuto: tarjeta.minuto.description, clase: .roja,
                        texto:
                            "\(AvisoDeGol.tituloDeRoja): \(tarjeta.jugador) (\(tarjeta.marcas))",
                        lado: tarjeta.lado.rawValue, orden: tarjeta.minuto))
            case .cambio(let cambio):
                sucesos.append(
                    SucesoDeLaLinea(
                        minuto: cambio.minuto.description, clase: .cambio,
                        texto:
                            "Cambio (\(cambio.equipo)): entra \(cambio.entra), sale \(cambio.sale)",
                        lado: cambio.lado.rawValue, orden: cambio.minuto))
            }
        }
        for aviso in revisiones {
            let clase: Clase
            switch aviso.tipo {
            case .anulado: clase = .anulado
            case .corregido: clase = .corregido
            default: continue
            }
            sucesos.append(
                SucesoDeLaLinea(
                    minuto: aviso.minuto.description, clase: clase,
                    texto: "\(aviso.titulo): \(aviso.jugador) (\(aviso.equipo))",
                    lado: aviso.lado?.rawValue, orden: aviso.minuto))
        }
        // Stable: the script's own order within a minute, then the feed's word.
        return sucesos.enumerated().sorted { a, b in
            a.element.orden != b.element.orden
                ? a.element.orden < b.element.orden : a.offset < b.offset
        }.map(\.element)
    }
}
