import Aplicacion
import Persistencia
import Servidor
import Sistema
import Synchronization
import Torneo

/// The store's changes as the events of `GET /eventos` (screen.md): `partido` (a run's
/// standing), `notificacion` (the `navegador` channel delivered a notice), `ajustes`,
/// `partidos` (the list changed) and `reinicio` (what a page missed is no longer kept: reload).
///
/// Each event's id is its change's id, so a page that reconnects with `Last-Event-ID` gets
/// exactly what it missed. Called on the server's loop thread only.
final class FuenteDeCambios: EventFeed {
    let cambios: any Cambios
    let repositorio: any PartidosRepositorio
    /// Matches by id, for names and scripts; emptied when the list changes.
    private let partidos = Mutex<[Int: Partido]>([:])
    /// Set where the store announces its changes (PostgreSQL's NOTIFY): the log is then read
    /// when told, and once a second in case a notification was lost, instead of every tick.
    private let avisado = Mutex<(solo: Bool, pendiente: Bool, ultimo: ContinuousClock.Instant)>(
        (false, true, .now))

    var soloAlAvisar: Bool {
        get { avisado.withLock { $0.solo } }
        set { avisado.withLock { $0.solo = newValue } }
    }

    /// The store committed changes.
    func avisar() { avisado.withLock { $0.pendiente = true } }

    func hayNovedades() -> Bool {
        avisado.withLock { estado in
            let ahora = ContinuousClock.now
            guard !estado.solo || estado.pendiente || ahora - estado.ultimo > .seconds(1) else {
                return false
            }
            estado.pendiente = false
            estado.ultimo = ahora
            return true
        }
    }

    /// This server's start (`RutasWeb.instancia`): the first thing every stream says, so a
    /// page from before a restart learns it must reload.
    let instancia: String
    /// A notification older than this (a notice's time-to-live) is never replayed: a tab
    /// coming back after a while does not show stale goals.
    let caducidad: Double
    let ahora: @Sendable () -> Double

    init(
        cambios: any Cambios, repositorio: any PartidosRepositorio, instancia: String = "",
        caducidad: Double = 600, ahora: @escaping @Sendable () -> Double = segundosUnix
    ) {
        self.cambios = cambios
        self.repositorio = repositorio
        self.instancia = instancia
        self.caducidad = caducidad
        self.ahora = ahora
    }

    func saludo() -> [UInt8]? {
        Array("event: hola\ndata: {\"instancia\":\"\(instancia)\"}\n\n".utf8)
    }

    /// A page that saw an id this store has not reached (another store's, after a restart on
    /// another database): reload.
    func ahead(of current: Int) -> ServerSentEvent? {
        ServerSentEvent(id: current, name: "reinicio", data: "{}")
    }

    func latest() throws -> Int { try cambios.ultimo() }

    func events(after id: Int, limit: Int) throws -> [ServerSentEvent] {
        try cambios.desde(id, limite: limit).compactMap { try evento($0) }
    }

    func replay(after lastEventID: Int, upTo current: Int) throws -> [ServerSentEvent] {
        guard lastEventID < current else { return [] }
        if let primero = try cambios.primero(), lastEventID + 1 < primero {
            return [ServerSentEvent(id: current, name: "reinicio", data: "{}")]
        }
        var eventos: [ServerSentEvent] = []
        var desde = lastEventID
        while desde < current {
            let lote = try cambios.desde(desde, limite: 1_000).filter { $0.id <= current }
            guard let ultimo = lote.last else { break }
            let limite = ahora() - caducidad
            eventos += try lote.filter { cambio in
                cambio.clase != .notificacion || (cambio.avisoCreado ?? .infinity) >= limite
            }.compactMap { try evento($0) }
            desde = ultimo.id
        }
        return eventos
    }

    /// The event of `cambio`; `nil` when what it refers to is gone (a pruned notice, a match
    /// removed by a reset). A failing store throws: the stream then waits, it never skips.
    private func evento(_ cambio: Cambio) throws -> ServerSentEvent? {
        switch cambio.clase {
        case .partido:
            guard let instantanea = cambio.instantanea, let id = cambio.partidoId,
                let partido = try partido(id)
            else { return nil }
            // The event is written as the run commits: its owner is alive then.
            let estado = EjecucionGuardada.estadoDelPartido(
                instantanea.estado, minuto: instantanea.minuto, propietarioVivo: true)
            let pantalla = PantallaJSON(
                partido: partido, ejecucion: instantanea.ejecucion, estado: estado,
                minuto: instantanea.minuto, duracion: instantanea.duracion,
                goles: instantanea.goles, golesAMano: instantanea.golesAMano,
                ultimoAviso: instantanea.ultimoAviso)
            return try ServerSentEvent(
                id: cambio.id, name: "partido", data: documentoJSON(pantalla, legible: false))
        case .notificacion:
            guard let aviso = cambio.aviso else { return nil }
            let notificacion = NotificacionJSON(
                partido: cambio.partidoId, identificador: aviso.identificador,
                titulo: aviso.titulo, cuerpo: aviso.cuerpo,
                imagen: cambio.imagen == nil ? nil : "/imagenes/\(cambio.id)",
                tipo: aviso.tipo.rawValue, silencioso: aviso.tranquilo)
            return try ServerSentEvent(
                id: cambio.id, name: "notificacion",
                data: documentoJSON(notificacion, legible: false))
        case .ajustes:
            let ajustes = AjustesDePantallaJSON(try repositorio.ajustes())
            return try ServerSentEvent(
                id: cambio.id, name: "ajustes", data: documentoJSON(ajustes, legible: false))
        case .partidos:
            partidos.withLock { $0.removeAll() }
            return ServerSentEvent(id: cambio.id, name: "partidos", data: "{}")
        }
    }

    private func partido(_ id: Int) throws -> Partido? {
        if let guardado = partidos.withLock({ $0[id] }) { return guardado }
        guard let leido = try repositorio.partido(id: id) else { return nil }
        partidos.withLock { $0[id] = leido }
        return leido
    }
}
