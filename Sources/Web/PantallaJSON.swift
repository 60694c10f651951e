import Aplicacion
import Torneo

/// How a match stands on the screen: the body of `GET /api/partidos/{id}` and the data of
/// each `partido` event, so the page draws both the same way.
struct PantallaJSON: Encodable {
    var partido: Int
    var ejecucion: Int?
    var estado: String
    var estadoTexto: String
    var minuto: Int
    /// The added time of a live match's minute (`45+2`), when there is some.
    var anadido: Int?
    var duracion: Int
    var marcador: String
    var golesDelGuion: String
    var golesAMano: String
    var ultimoAviso: String
    /// The script's goals scored so far, in playing order.
    var goles: [GolDeLaLinea] {
        didSet { sinGoles = Self.textoSinGoles(goles, marcador: marcador) }
    }
    /// What the page says where the list of goals is empty.
    var sinGoles: String
    /// The timeline so far: goals, red cards, and the feed's later word on goals.
    var cronologia: [SucesoDeLaLinea]
    /// Each side's published lineup (`Argentina (4-3-3): …`), from a live feed.
    var alineaciones: [String] = []
    /// The shoot-out's tally (`4-2`), once there is one.
    var penaltis: String?

    init(
        partido: Partido, ejecucion: Int?, estado: EstadoDelPartido, minuto: Int, duracion: Int,
        goles: Marcador, golesAMano: Marcador, ultimoAviso: String
    ) {
        self.partido = partido.id
        self.ejecucion = ejecucion
        self.estado = estado.clave
        self.estadoTexto = estado.texto
        self.minuto = minuto
        self.anadido = nil
        self.duracion = duracion
        self.marcador = (goles + golesAMano).description
        self.golesDelGuion = goles.description
        self.golesAMano = golesAMano.description
        self.ultimoAviso = ultimoAviso
        let lista =
            estado == .sinEmpezar
            ? [] : GolDeLaLinea.de(partido, duracion: duracion, hastaElMinuto: minuto)
        self.goles = lista
        self.sinGoles = Self.textoSinGoles(lista, marcador: marcador)
        self.cronologia =
            estado == .sinEmpezar
            ? [] : SucesoDeLaLinea.de(partido, duracion: duracion, hastaElMinuto: minuto)
    }

    /// A score without a list of its goals is not «no goals» (issue 42: a 2-2 of a file with
    /// results only read «Todavía no hay goles.» under the score).
    static func textoSinGoles(_ goles: [GolDeLaLinea], marcador: String) -> String {
        goles.isEmpty && marcador != Marcador.cero.description
            ? "Sin detalle de goles." : "Todavía no hay goles."
    }
}

/// The body of `GET /api/partidos/{id}`: the match, how it stands, the settings the screen
/// changes, and the id of the newest event (where the page starts listening).
struct FichaDePantallaJSON: Encodable {
    var id: Int
    var local: String
    var visitante: String
    var competicion: String?
    /// What `jugar --duracion` accepts for this match (120 with extra time).
    var duracionesPermitidas: [Int]
    /// What the duration setting (the page's choice) accepts: 60 or 90.
    var duracionesDelAjuste: [Int]
    var situacion: PantallaJSON
    var ajustes: AjustesDePantallaJSON
    /// The teams the browser's notifications follow.
    var siguiendo: [String]
    var instancia: String
    var cursor: Int
}

/// The settings the screen shows and changes (data of the `ajustes` event too).
struct AjustesDePantallaJSON: Encodable {
    var duracion: Int
    var msPorMinuto: Int
    var silencio: Bool
    var avisos: Bool

    init(_ ajustes: Ajustes) {
        duracion = ajustes.duracion
        msPorMinuto = ajustes.msPorMinuto
        silencio = ajustes.sinAvisosEnPrimerPlano
        avisos = ajustes.avisosPermitidos ?? false
    }
}

/// The data of a `notificacion` event: what the Service Worker shows.
struct NotificacionJSON: Encodable {
    var partido: Int?
    var identificador: String
    var titulo: String
    var cuerpo: String
    /// Where the server serves the fetched attachment, when there is one.
    var imagen: String?
    /// `gol`, `anulado` (same identifier: it replaces the goal's notification)…
    var tipo: String
    /// Delivered in the channel's quiet hours: shown without sound or vibration.
    var silencioso: Bool
}

/// `{"error": "…"}`, `{"mensaje": "…"}`: the CLI's sentences as API bodies.
struct MensajeJSON: Encodable {
    var mensaje: String?
    var error: String?
}
