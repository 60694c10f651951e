import FoundationEssentials
import Torneo

/// The last snapshot of a followed match, kept in the store (`seguimiento.foto`): what the
/// next answer of its feed is compared with. It is written in the transaction that queues the
/// notices for the change, so a process killed before the commit notifies nothing and leaves
/// the change for the next poll, and one killed after it leaves nothing to notify again.
public struct FotoDePartido: Sendable, Hashable, Codable {
    /// A goal standing in the match: the identifier it was first notified with, and its facts
    /// as last notified (a correction updates them, an annulment repeats them).
    public struct GolAvisado: Sendable, Hashable, Codable {
        public var identificador: String
        /// Its body (`Luis (Rayo FC), minuto 35`): player, team, marks and minute, what a
        /// feed's goal is matched by before its team and order are.
        public var cuerpo: String
        public var jugador: String
        public var equipo: String
        public var minuto: MinutoDeJuego
        public var lado: Lado
    }

    public var estado: EstadoEnDirecto
    public var minuto: Int?
    /// The shoot-out's tally, once there is one (a snapshot written before it existed reads
    /// as none).
    public var penaltis: Marcador?
    public var marcador: Marcador
    public var goles: [GolAvisado]
    /// Kick-off, half-time, extra time, the shoot-out and full time already notified (each
    /// once per match).
    public var momentos: [TipoDeAviso]
    /// The sendings-off already notified, by identifier (a snapshot written before cards were
    /// read has none).
    public var rojas: [String]?
    /// The sides whose lineup was notified (`local`, `visitante`).
    public var alineaciones: [String]?
    /// How many substitutions and assists the stored match has: they notify nothing, so
    /// without them here a poll that only brought one would leave the stored timeline behind.
    public var sustituciones: Int?
    public var asistencias: Int?

    public static let vacia = FotoDePartido(
        estado: .programado, minuto: nil, penaltis: nil, marcador: .cero, goles: [], momentos: [])

    public var json: String {
        let codificador = JSONEncoder()
        codificador.outputFormatting = [.sortedKeys]
        return (try? codificador.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// A stored snapshot; one that cannot be read (written by hand, or by a newer marcador) is
    /// `nil`, and the match is then taken as first seen.
    public static func leer(_ json: String) -> FotoDePartido? {
        try? JSONDecoder().decode(FotoDePartido.self, from: Data(json.utf8))
    }
}

extension FotoDePartido.GolAvisado {
    init(_ aviso: AvisoDeGol) {
        self.init(
            identificador: aviso.identificador, cuerpo: aviso.cuerpo, jugador: aviso.jugador,
            equipo: aviso.equipo, minuto: aviso.minuto, lado: aviso.lado ?? .local)
    }

    /// Which of the feed's goals it is, by content: the same side and the same body.
    func esElMismo(que aviso: AvisoDeGol) -> Bool {
        lado == (aviso.lado ?? .local) && cuerpo == aviso.cuerpo
    }

    /// The goal's notice again, to annul it.
    func aviso(partidoId: Int) -> AvisoDeGol {
        AvisoDeGol(
            identificador: identificador, titulo: AvisoDeGol.tituloDeGol, cuerpo: cuerpo,
            partidoId: partidoId, minuto: minuto, jugador: jugador, equipo: equipo,
            marcador: .cero, lado: lado)
    }
}
