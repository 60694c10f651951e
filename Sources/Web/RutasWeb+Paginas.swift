import Aplicacion
import Avisos
import FoundationEssentials
import Persistencia
import Servidor
import Sistema
import Torneo

/// The pages, rendered with their current state (screen.md), and what they ask the API.
extension RutasWeb {
    /// Bodies past this are refused (413): no page sends more than a few bytes of JSON.
    static let cuerpoMaximo = 64 * 1024

    /// Whether a failure of `peticion` is answered with a page (a browser's navigation) rather
    /// than JSON (the API, the event stream, images).
    static func esPagina(_ peticion: HTTPRequest) -> Bool {
        let primera = peticion.path.split(separator: "/").first.map(String.init) ?? ""
        return !["api", "eventos", "imagenes"].contains(primera)
    }

    /// A Spanish error page with the security headers (set by `responder`).
    static func paginaDeError(_ estado: Int, _ mensaje: String, cabeceras: [(String, String)] = [])
        -> HTTPResponse
    {
        let titulo: String
        switch estado {
        case 404: titulo = "No existe"
        case 405: titulo = "Así no"
        case 400, 413, 421, 422, 431, 501, 505: titulo = "Petición no válida"
        case 401, 403: titulo = "Sin permiso"
        default: titulo = "Algo falló"
        }
        return HTTPResponse(
            status: estado,
            headers: [("Content-Type", "text/html; charset=utf-8")] + cabeceras,
            body: Paginas.plantilla("error.html", ["TITULO": titulo, "MENSAJE": mensaje]))
    }

    // MARK: - Pages

    /// `/`: every match; `?vista=directo` only those being played; `?fecha=2018-06-14` (or
    /// `hoy`, `mañana`, `ayer`) one day's, with the days either side a link away.
    func paginaDeLista(_ visitante: Acceso.Visitante, consulta: [String: String] = [:])
        throws -> HTTPResponse
    {
        let cursor = try nucleo.tienda.cambios.ultimo()
        let hoy = ZonaHoraria.hoy
        var filtro = FiltroDePartidos()
        var dia: FechaDeCalendario?
        if let texto = consulta["fecha"] {
            let palabra = Rutas.descodificar(texto) ?? texto
            guard
                let leido = FechaDeCalendario(palabra)
                    ?? FechaDeCalendario.relativa(palabra, hoy: hoy)
            else {
                throw FalloWeb(
                    400,
                    "«\(TextoSeguro.limpio(palabra))» no es una fecha: 2018-06-14, hoy, mañana o ayer."
                )
            }
            dia = leido
            filtro.desde = leido
            filtro.hasta = leido
        }
        let enDirecto = consulta["vista"] == "directo"
        var partidos = try nucleo.partidos(filtro)
        if enDirecto { partidos = partidos.filter { $0.estadoMostrado == .enJuego } }
        let vacio =
            enDirecto
            ? "<p class=\"nota\">No hay partidos en directo.</p>"
            : dia.map {
                "<p class=\"nota\">No hay partidos el \(Vistas.e(Vistas.textoDeDia($0)))." + "</p>"
            }
        let lista = partidos.isEmpty && vacio != nil ? vacio! : Vistas.lista(partidos)
        return try pagina(
            "index.html", ["CURSOR": String(cursor)],
            html: [
                "LISTA": lista,
                "FILTROS": Vistas.filtrosDeLista(dia: dia, enDirecto: enDirecto, hoy: hoy),
            ], visitante)
    }

    func paginaDePartido(_ id: Int, _ visitante: Acceso.Visitante) throws -> HTTPResponse {
        let cursor = try nucleo.tienda.cambios.ultimo()
        let ficha = try nucleo.ficha(id)
        let ajustes = try nucleo.ajustes()
        let situacion = Self.situacion(ficha, ajustes: ajustes)
        let partido = ficha.ficha.partido
        let siguiendo = try equiposSeguidos()
        let json = (try? documentoJSON(situacion, legible: false)) ?? "{}"
        return try pagina(
            "partido.html",
            [
                "PARTIDO": String(id), "CURSOR": String(cursor),
                "TITULO": "\(partido.local.nombre) – \(partido.visitante.nombre)",
                "LOCAL": partido.local.nombre, "VISITANTE": partido.visitante.nombre,
                "ULTIMO_AVISO": situacion.ultimoAviso, "SITUACION": json,
                "SIN_GOLES_OCULTO": situacion.goles.isEmpty ? "" : " hidden",
                "ALINEACIONES_OCULTAS": situacion.alineaciones.isEmpty ? " hidden" : "",
                "SIN_GOLES": situacion.sinGoles,
                "SILENCIO": ajustes.sinAvisosEnPrimerPlano ? " checked" : "",
                "SIGUE_LOCAL": siguiendo.contains(partido.local.nombre) ? "true" : "false",
                "SIGUE_VISITANTE": siguiendo.contains(partido.visitante.nombre) ? "true" : "false",
                // Playing and hand-added goals are the lessons' example matches' controls: a
                // match from a competition's file or a live feed is real football, not a
                // script to play (issue 43: «Jugar» under the World Cup final).
                "JUEGO_OCULTO": partido.competicion == nil ? "" : " hidden",
            ],
            html: [
                "CONTEXTO": Vistas.contexto(ficha), "TABLERO": Vistas.tablero(ficha, situacion),
                "CRONOLOGIA": Vistas.cronologia(situacion.cronologia),
                "ALINEACIONES": Vistas.alineaciones(situacion.alineaciones),
                "DURACIONES": Vistas.duraciones(
                    ajustes.duracion, conProrroga: partido.tieneProrroga),
            ], visitante)
    }

    func paginaDeCompeticiones(_ visitante: Acceso.Visitante) throws -> HTTPResponse {
        try pagina(
            "competiciones.html", [:],
            html: ["COMPETICIONES": Vistas.competiciones(try nucleo.competiciones())], visitante)
    }

    func paginaDeCompeticion(_ segmento: String, _ visitante: Acceso.Visitante) throws
        -> HTTPResponse
    {
        guard let texto = Rutas.descodificar(segmento) else {
            throw FalloWeb(404, "No existe la competición «\(TextoSeguro.limpio(segmento))».")
        }
        let (nombre, formato, tablas, regla) = try nucleo.clasificacion(competicion: texto)
        let goleadores = try nucleo.goleadores(competicion: nombre, limite: 10)
        return try pagina(
            "competicion.html", ["NOMBRE": nombre],
            html: [
                "TABLAS": Vistas.tablas(nombre, formato, tablas, regla: regla),
                "GOLEADORES": Vistas.goleadores(
                    goleadores.filas, partidos: goleadores.partidos, sinLista: goleadores.sinLista),
            ], visitante)
    }

    // MARK: - What the match page shows

    /// How a match stands, the same for the page as rendered, the API and the first state
    /// the script reads: a match played for real and never replayed is over with its official
    /// result; one followed live shows its feed's minute; a run shows its own.
    static func situacion(_ completa: FichaCompleta, ajustes: Ajustes) -> PantallaJSON {
        let partido = completa.ficha.partido
        let ultima = completa.ejecuciones.last
        guard let resumen = completa.resumen,
            resumen.conEjecucion || resumen.oficial != nil
                || resumen.directo != nil
        else {
            return PantallaJSON(
                partido: partido, ejecucion: ultima?.id,
                estado: ultima?.estadoDelPartido ?? .sinEmpezar,
                minuto: ultima?.minuto ?? 0,
                duracion: ultima.map(\.duracion)
                    ?? partido.duracionPorDefecto(ajuste: ajustes.duracion),
                goles: ultima?.goles ?? .cero, golesAMano: ultima?.golesAMano ?? .cero,
                ultimoAviso: ultima?.ultimoAviso ?? "ninguno")
        }
        if resumen.conEjecucion {
            var situacion = PantallaJSON(
                partido: partido, ejecucion: ultima?.id, estado: resumen.estado,
                minuto: resumen.minuto, duracion: resumen.duracion, goles: resumen.goles,
                golesAMano: resumen.golesAMano, ultimoAviso: ultima?.ultimoAviso ?? "ninguno")
            situacion.estadoTexto = resumen.textoDeEstado
            return situacion
        }
        // Played for real, or being played: the whole script so far, the official score.
        var situacion = PantallaJSON(
            partido: partido, ejecucion: nil, estado: resumen.estadoMostrado,
            minuto: resumen.minutoMostrado, duracion: resumen.duracionMostrada,
            goles: resumen.marcadorMostrado, golesAMano: .cero, ultimoAviso: "ninguno")
        situacion.anadido = resumen.anadidoMostrado
        // How it was decided, beside «Terminado»: `Terminado (4-2 pen.)`.
        situacion.estadoTexto = ResultadoOficial.conDesenlace(
            resumen.textoDeEstado, resumen.resultadoOficial?.desenlace)
        situacion.goles = GolDeLaLinea.de(partido)
        situacion.cronologia = completa.cronologia
        situacion.alineaciones = completa.alineaciones
        situacion.penaltis = resumen.oficial?.penaltis?.description
        return situacion
    }

    func fichaDePartido(_ id: Int) throws -> HTTPResponse {
        let cursor = try nucleo.tienda.cambios.ultimo()
        let ficha = try nucleo.ficha(id)
        let ajustes = try nucleo.ajustes()
        let partido = ficha.ficha.partido
        let json = FichaDePantallaJSON(
            id: id, local: partido.local.nombre, visitante: partido.visitante.nombre,
            competicion: partido.competicion, duracionesPermitidas: partido.duracionesPermitidas,
            duracionesDelAjuste: Duracion.ajustables,
            situacion: Self.situacion(ficha, ajustes: ajustes),
            ajustes: AjustesDePantallaJSON(ajustes), siguiendo: try equiposSeguidos(),
            instancia: instancia, cursor: cursor)
        return Self.json(200, json, cabeceras: [("X-Ultimo-Evento", String(cursor))])
    }

    // MARK: - Following from the page

    /// The teams the browser's channel follows.
    func equiposSeguidos() throws -> [String] {
        try nucleo.canales().first { $0.tipo == TipoDeCanal.navegador.rawValue }?.sigue.equipos
            ?? []
    }

    private struct CuerpoDeSeguir: Decodable {
        var equipo: String
        var seguir: Bool
    }

    /// `POST /api/seguir {"equipo": "Toros", "seguir": true}`: the browser's notifications
    /// follow a team (its channel is added the first time, as the page's own).
    func seguir(_ peticion: HTTPRequest) throws -> HTTPResponse {
        guard peticion.header("content-type")?.lowercased().hasPrefix("application/json") == true,
            let cuerpo = try? JSONDecoder().decode(CuerpoDeSeguir.self, from: Data(peticion.body))
        else {
            throw FalloWeb(
                400, "El cuerpo debe ser JSON: {\"equipo\": \"Toros\", \"seguir\": true}.")
        }
        let navegador = try nucleo.canales().first { $0.tipo == TipoDeCanal.navegador.rawValue }
        let nombre: String
        if let navegador {
            nombre = navegador.nombre
        } else {
            nombre = try nucleo.anadirCanal(.navegador, nombre: nil, ajustes: AjustesDeCanal())
        }
        let texto = Frases.seguimiento(
            nombre,
            try nucleo.cambiarSeguimiento(
                nombre, Seguimiento(equipos: [cuerpo.equipo]), quitar: !cuerpo.seguir))
        return Self.json(
            200, MensajeSeguimientoJSON(mensaje: texto, siguiendo: try equiposSeguidos()))
    }
}

/// The answer of `POST /api/seguir`.
struct MensajeSeguimientoJSON: Encodable {
    var mensaje: String
    var siguiendo: [String]
}
