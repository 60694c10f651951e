import Aplicacion
import Avisos
import FoundationEssentials
import Persistencia
import Servidor
import Sistema
import Torneo

/// What `marcador servir` answers (screen.md): the pages, the JSON API that mirrors the CLI
/// (same sentences, statuses for its exit codes), the event stream and the fetched images.
///
/// Every request passes the same checks first: its `Host` must name this server (a page on
/// another site that rebinds its DNS name to 127.0.0.1 is refused), and a request that changes
/// something must come from this server's own pages (`Origin`) and carry their key
/// (`X-Marcador-Token`); with `--token`, everything but the login and the static files needs
/// a session or the key (`Acceso`). Runs on the server's loop thread; every route decodes its
/// input, calls one use case of the core and encodes the result.
struct RutasWeb: Sendable {
    let nucleo: Nucleo
    let acceso: Acceso
    /// The address it listens on: with the port, what `Host` must say (and on loopback, its
    /// other names: `localhost:8080`…).
    let direccion: String
    let juegos: Juegos
    /// Tells the streams this server itself committed a change: they get it at once.
    let avisarCambios: @Sendable () -> Void
    /// This server's start, as its pages carry it: a page from before a restart (whose key
    /// is no longer good) learns it must reload.
    let instancia: String
    /// Where the dispatcher keeps fetched attachments: the only folder images come from.
    let carpetaDeAdjuntos: String?

    static let cabecerasComunes: [(String, String)] = [
        (
            "Content-Security-Policy",
            "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "same-origin"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Cache-Control", "no-store"),
    ]

    static let demasiadosIntentos =
        "Demasiados intentos fallidos: prueba otra vez dentro de un minuto."

    func responder(_ peticion: HTTPRequest) -> HTTPResponse {
        var respuesta: HTTPResponse
        // A browser asking for a page gets a page when something is wrong; programs get JSON.
        let deUnaPagina = Self.esPagina(peticion)
        do {
            try comprobarHost(peticion)
            guard peticion.body.count <= Self.cuerpoMaximo else {
                throw FalloWeb(413, "El cuerpo pasa de \(Self.cuerpoMaximo / 1024) KB.")
            }
            respuesta = try encaminar(peticion)
        } catch let fallo as FalloWeb {
            respuesta =
                deUnaPagina
                ? Self.paginaDeError(fallo.estado, fallo.mensaje, cabeceras: fallo.cabeceras)
                : Self.json(
                    fallo.estado, MensajeJSON(error: fallo.mensaje), cabeceras: fallo.cabeceras)
        } catch {
            let fallo = Fallo.de(error, tienda: nucleo.descripcion)
            let estado = Self.estado(de: fallo.clase)
            respuesta =
                deUnaPagina
                ? Self.paginaDeError(estado, fallo.mensaje)
                : Self.json(estado, MensajeJSON(error: fallo.mensaje))
        }
        respuesta.headers = Self.cabecerasComunes + respuesta.headers
        return respuesta
    }

    /// The answer to a request the server refuses before any route sees it (a malformed head,
    /// one too large, a body too large, a transfer coding or a version it does not speak): a
    /// page in Spanish, with the same headers as every other answer.
    static func rechazo(_ estado: Int) -> HTTPResponse {
        let mensaje: String
        switch estado {
        case 413: mensaje = "El cuerpo de la petición es demasiado grande."
        case 431: mensaje = "Las cabeceras de la petición son demasiado grandes."
        case 501: mensaje = "No se admite Transfer-Encoding: envía el cuerpo con Content-Length."
        case 505: mensaje = "Este servidor habla HTTP/1.1 (y 1.0)."
        default: mensaje = "La petición está mal formada."
        }
        var respuesta = paginaDeError(estado, mensaje)
        respuesta.headers = cabecerasComunes + respuesta.headers
        return respuesta
    }

    /// The kinds of failure as HTTP statuses (the CLI's 66 is 404, 64/65 are 422…).
    static func estado(de clase: Fallo.Clase) -> Int {
        switch clase {
        case .noEncontrado: 404
        case .uso, .datos: 422
        case .conflicto: 409
        case .noDisponible, .entradaSalida: 503
        }
    }

    // MARK: - Checks

    private func comprobarHost(_ peticion: HTTPRequest) throws(FalloWeb) {
        // Two Host headers could name two servers: which one the request is for cannot be told.
        guard !peticion.repeatedHeaders.contains("host") else {
            throw FalloWeb(400, "La petición trae más de una cabecera Host.")
        }
        let hosts = ServicioWeb.hosts(direccion: direccion, puerto: peticion.serverPort)
        guard let host = peticion.header("host"), hosts.contains(host.lowercased()) else {
            throw FalloWeb(
                421,
                "Esta petición no es para este servidor (Host «\(TextoSeguro.limpio(peticion.header("host") ?? ""))»)."
            )
        }
    }

    /// A change must come from a page of this server (same origin, and its page key) or from
    /// a program holding the server's key (which no other site's page can send).
    private func comprobarOrigen(_ peticion: HTTPRequest, _ visitante: Acceso.Visitante)
        throws(FalloWeb)
    {
        guard case .pagina(let deLaPagina, _) = visitante else { return }
        try comprobarMismoOrigen(peticion)
        guard let clave = peticion.header("x-marcador-token"), Acceso.iguales(clave, deLaPagina)
        else {
            throw FalloWeb(403, "Petición rechazada: falta la clave de la página o no es la suya.")
        }
    }

    private func comprobarMismoOrigen(_ peticion: HTTPRequest) throws(FalloWeb) {
        let origen = peticion.header("origin") ?? ""
        guard let host = peticion.header("host"), origen == "http://" + host else {
            throw FalloWeb(
                403,
                "Petición rechazada: no viene de una página de este servidor (Origin «\(TextoSeguro.limpio(origen))»)."
            )
        }
    }

    // MARK: - Routes

    private func encaminar(_ peticion: HTTPRequest) throws -> HTTPResponse {
        let partes = peticion.path.split(separator: "/", omittingEmptySubsequences: false)
            .dropFirst().map(String.init)
        let lectura = peticion.method == .get || peticion.method == .head
        let primera = partes.first ?? ""
        // What anyone may have: the login, and the static files (nothing secret in them).
        switch (primera, partes.count) {
        case ("entrar", 1):
            return try entrar(peticion)
        case (let nombre, 1) where Paginas.estatico(nombre) != nil:
            try metodo(peticion, lectura)
            let fichero = Paginas.estatico(nombre)!
            return HTTPResponse(
                status: 200, headers: [("Content-Type", Paginas.tipo(nombre))],
                body: fichero.bytes)
        default:
            break
        }
        let visitante: Acceso.Visitante
        switch acceso.entrada(peticion) {
        case .admitido(let quien):
            visitante = quien
        case .sinEntrar:
            return sinEntrar(
                peticion, esPagina: lectura && (primera == "" || primera == "partidos"))
        case .demasiadosIntentos:
            throw FalloWeb(
                429, Self.demasiadosIntentos, cabeceras: [("Retry-After", "60")])
        }
        switch (primera, partes.count) {
        case ("", 1):
            try metodo(peticion, lectura)
            return try paginaDeLista(visitante, consulta: peticion.query)
        case ("partidos", 2):
            try metodo(peticion, lectura)
            return try paginaDePartido(try numeroDePartido(partes[1]), visitante)
        case ("competiciones", 1):
            try metodo(peticion, lectura)
            return try paginaDeCompeticiones(visitante)
        case ("competiciones", 2):
            try metodo(peticion, lectura)
            return try paginaDeCompeticion(partes[1], visitante)
        case ("eventos", 1):
            try metodo(peticion, lectura)
            return .eventStream(lastEventID: try ultimoEventoVisto(peticion))
        case ("imagenes", 2):
            try metodo(peticion, lectura)
            return try imagen(partes[1])
        case ("salir", 1):
            return try salir(peticion, visitante)
        case ("api", _):
            return try api(peticion, Array(partes.dropFirst()), visitante)
        case ("empuje", 2) where partes[1] == "clave":
            try metodo(peticion, lectura)
            return try claveDeEmpuje()
        case ("dispositivos", 1):
            try metodo(peticion, peticion.method == .post, permitido: "POST")
            try comprobarOrigen(peticion, visitante)
            return try suscribir(peticion)
        case ("dispositivos", 2):
            try metodo(peticion, peticion.method == .delete, permitido: "DELETE")
            try comprobarOrigen(peticion, visitante)
            return try desuscribir(partes[1])
        default:
            throw FalloWeb(404, "No existe «\(TextoSeguro.limpio(peticion.path))».")
        }
    }

    // MARK: - Entering and leaving (with --token)

    /// A page for someone who has not entered goes to the login; anything else is refused.
    private func sinEntrar(_ peticion: HTTPRequest, esPagina: Bool) -> HTTPResponse {
        if esPagina {
            return HTTPResponse(status: 303, headers: [("Location", "/entrar")])
        }
        return Self.json(
            401,
            MensajeJSON(
                error:
                    "Hace falta entrar: abre /entrar en el navegador, o envía la clave del servidor en X-Marcador-Token."
            ), cabeceras: [("WWW-Authenticate", "Bearer realm=\"marcador\"")])
    }

    private func entrar(_ peticion: HTTPRequest) throws -> HTTPResponse {
        guard acceso.conEntrada else {
            return HTTPResponse(status: 303, headers: [("Location", "/")])
        }
        switch peticion.method {
        case .get, .head:
            return paginaDeEntrada(200, "")
        case .post:
            try comprobarMismoOrigen(peticion)
            guard acceso.sesiones.sePuedeIntentar else {
                var respuesta = paginaDeEntrada(429, Self.demasiadosIntentos)
                respuesta.headers.append(("Retry-After", "60"))
                return respuesta
            }
            guard let dada = Acceso.campo("clave", deFormulario: peticion.body),
                acceso.esLaClave(dada)
            else {
                acceso.sesiones.anotarFallo()
                return paginaDeEntrada(401, "Esa no es la clave de este servidor.")
            }
            let sesion = acceso.sesiones.abrir()
            return HTTPResponse(
                status: 303,
                headers: [("Location", "/"), ("Set-Cookie", Acceso.cookieDeSesion(sesion.id))])
        default:
            throw FalloWeb(
                405, "«\(peticion.method.rawValue)» no vale aquí: usa GET o POST.",
                cabeceras: [("Allow", "GET, HEAD, POST")])
        }
    }

    private func paginaDeEntrada(_ estado: Int, _ mensaje: String) -> HTTPResponse {
        HTTPResponse(
            status: estado, headers: [("Content-Type", "text/html; charset=utf-8")],
            body: Paginas.plantilla("entrar.html", ["MENSAJE": mensaje]))
    }

    /// Ends this browser's session (a program with the key has none to end).
    private func salir(_ peticion: HTTPRequest, _ visitante: Acceso.Visitante) throws
        -> HTTPResponse
    {
        try metodo(peticion, peticion.method == .post, permitido: "POST")
        try comprobarOrigen(peticion, visitante)
        if case .pagina(_, let sesion?) = visitante { acceso.sesiones.cerrar(sesion) }
        return HTTPResponse(
            status: 303,
            headers: [
                ("Location", acceso.conEntrada ? "/entrar" : "/"),
                ("Set-Cookie", Acceso.cookieBorrada),
            ])
    }

    private func api(_ peticion: HTTPRequest, _ partes: [String], _ visitante: Acceso.Visitante)
        throws -> HTTPResponse
    {
        let lectura = peticion.method == .get || peticion.method == .head
        switch (partes.first ?? "", partes.count) {
        case ("partidos", 1):
            try metodo(peticion, lectura)
            return try listaDePartidos()
        case ("ajustes", 1):
            try metodo(peticion, lectura)
            return Self.json(200, AjustesDePantallaJSON(try nucleo.ajustes()))
        case ("partidos", 2):
            try metodo(peticion, lectura)
            return try fichaDePartido(try numeroDePartido(partes[1]))
        case ("partidos", 3):
            try metodo(peticion, peticion.method == .post, permitido: "POST")
            try comprobarOrigen(peticion, visitante)
            let id = try numeroDePartido(partes[1])
            defer { avisarCambios() }
            switch partes[2] {
            case "jugar": return try jugar(id, peticion)
            case "gol-a-mano": return try golAMano(id, peticion)
            case "ajustes": return try cambiarAjustes(id, peticion)
            default: break
            }
        case ("seguir", 1):
            try metodo(peticion, peticion.method == .post, permitido: "POST")
            try comprobarOrigen(peticion, visitante)
            return try seguir(peticion)
        default: break
        }
        throw FalloWeb(404, "No existe «\(TextoSeguro.limpio(peticion.path))».")
    }

    private func metodo(_ peticion: HTTPRequest, _ vale: Bool, permitido: String = "GET")
        throws(FalloWeb)
    {
        guard vale else {
            throw FalloWeb(
                405, "«\(peticion.method.rawValue)» no vale aquí: usa \(permitido).",
                cabeceras: [("Allow", permitido == "GET" ? "GET, HEAD" : permitido)])
        }
    }

    private func numeroDePartido(_ texto: String) throws(FalloWeb) -> Int {
        guard let id = Int(texto), id > 0, String(id) == texto else {
            throw FalloWeb(
                404, "«\(TextoSeguro.limpio(texto))» no es un número de partido (1, 2, 3…).")
        }
        return id
    }

    /// `Last-Event-ID` (the browser reconnecting) or `?desde=` (a page that just loaded its
    /// state, or reloaded): the last event it has.
    private func ultimoEventoVisto(_ peticion: HTTPRequest) throws(FalloWeb) -> Int? {
        guard let texto = peticion.header("last-event-id") ?? peticion.query["desde"] else {
            return nil
        }
        guard let id = Int(texto), id >= 0 else {
            throw FalloWeb(400, "«\(TextoSeguro.limpio(texto))» no es un número de evento.")
        }
        return id
    }

    // MARK: - Pages and files

    /// A page with the visitor's own page key in it (never the server's key).
    func pagina(
        _ nombre: String, _ valores: [String: String], html: [String: String] = [:],
        _ visitante: Acceso.Visitante
    ) throws -> HTTPResponse {
        guard case .pagina(let deLaPagina, _) = visitante else {
            // A program with the key asked for a page: it gets one with a key of its own,
            // good for nothing (programs use the server's key).
            return try pagina(
                nombre, valores, html: html,
                .pagina(clave: ServicioWeb.claveAlAzar(), sesion: nil))
        }
        let bytes = Paginas.plantilla(
            nombre,
            valores.merging(["TOKEN": deLaPagina, "INSTANCIA": instancia]) { a, _ in a },
            html: html)
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: bytes)
    }

    /// A notice's fetched attachment, only from the dispatcher's own folder.
    private func imagen(_ texto: String) throws -> HTTPResponse {
        guard let id = Int(texto), let carpeta = carpetaDeAdjuntos,
            let ruta = try nucleo.tienda.cambios.imagen(de: id), ruta.hasPrefix(carpeta + "/"),
            !ruta.contains("/../"),
            let bytes = leerFichero(ruta, maximo: TipoDeAdjunto.limiteMaximo),
            let tipo = TipoDeAdjunto.detectar(bytes)
        else { throw FalloWeb(404, "No existe la imagen «\(TextoSeguro.limpio(texto))».") }
        return HTTPResponse(status: 200, headers: [("Content-Type", tipo.mime)], body: bytes)
    }

    // MARK: - API

    private func listaDePartidos() throws -> HTTPResponse {
        // The cursor first: a change committed after it is replayed to the page, so it can
        // arrive twice (harmless: events carry whole states), never go missing.
        let cursor = try nucleo.tienda.cambios.ultimo()
        let lista = try nucleo.partidos().map(PartidoJSON.init)
        return Self.json(200, lista, cabeceras: [("X-Ultimo-Evento", String(cursor))])
    }

    private struct CuerpoDeJugar: Decodable {
        var msPorMinuto: Int?
    }

    private func jugar(_ id: Int, _ peticion: HTTPRequest) throws -> HTTPResponse {
        let cuerpo = try leer(CuerpoDeJugar.self, peticion, vacioVale: true)
        let partido = try nucleo.partidoExistente(id)
        if let ms = cuerpo?.msPorMinuto { try Nucleo.comprobarMsPorMinuto(ms) }
        // The run starts on the main actor, where this process's runs live: two presses of
        // «Jugar» are two starts in order, and the second replaces the first (architecture.md).
        let (juegos, ms) = (self.juegos, cuerpo?.msPorMinuto)
        let avisar = avisarCambios
        let (registro, tienda) = (nucleo.registro(), nucleo.descripcion)
        Task { @MainActor in
            // Each minute this server writes reaches its own streams at once; its goals reach
            // the dispatcher through the store's commit signal.
            do {
                try juegos.lanzar(partido: id, msPorMinuto: ms) { _, _ in avisar() }
            } catch {
                // The page has its 202 already (checked above): if the start still failed
                // (the match removed meanwhile, the store gone), the log says why.
                registro.anotar(
                    "servir: el partido \(id) no pudo empezar: "
                        + Fallo.de(error, tienda: tienda).mensaje, partido: id)
            }
        }
        return Self.json(202, MensajeJSON(mensaje: Frases.empieza(partido)))
    }

    private struct CuerpoDeGolAMano: Decodable {
        var lado: String
        var quitar: Bool?
    }

    private func golAMano(_ id: Int, _ peticion: HTTPRequest) throws -> HTTPResponse {
        guard let cuerpo = try leer(CuerpoDeGolAMano.self, peticion, vacioVale: false) else {
            throw FalloWeb(
                400, "Falta el cuerpo: {\"lado\": \"local\"} o {\"lado\": \"visitante\"}.")
        }
        guard let lado = Lado(rawValue: cuerpo.lado) else {
            throw FalloWeb(
                422, "«\(TextoSeguro.limpio(cuerpo.lado))» no es un lado: «local» o «visitante».")
        }
        let gol = try nucleo.golAMano(partido: id, lado: lado, quitar: cuerpo.quitar ?? false)
        return Self.json(200, MensajeJSON(mensaje: Frases.golAMano(gol)))
    }

    private struct CuerpoDeAjustes: Decodable {
        var duracion: Int?
        var silencio: Bool?
        var avisos: Bool?
    }

    private func cambiarAjustes(_ id: Int, _ peticion: HTTPRequest) throws -> HTTPResponse {
        guard let cuerpo = try leer(CuerpoDeAjustes.self, peticion, vacioVale: false) else {
            throw FalloWeb(400, "Falta el cuerpo: {\"duracion\": 60}, {\"silencio\": true}…")
        }
        _ = try nucleo.partidoExistente(id)
        if let duracion = cuerpo.duracion { try Nucleo.comprobarDuracion(duracion) }
        var lineas: [String] = []
        if let silencio = cuerpo.silencio {
            try nucleo.cambiarSilencio(silencio)
            lineas.append(Frases.silencio(silencio))
        }
        if let avisos = cuerpo.avisos {
            // The channel first: a page that sees notices turned on (the `ajustes` event) may
            // start a match at once, and its goals must already have the browser to go to
            // (a loaded run saw Jugar pressed between the two writes, and no notification).
            let canal = avisos ? try asegurarCanalDelNavegador() : nil
            try nucleo.permitirAvisos(avisos)
            lineas.append(Frases.permiso(avisos))
            if let canal { lineas.append(canal) }
        }
        // Like `ajustes duracion`: the runs following the setting (this server's too, stopped
        // in place) start again from zero.
        if let duracion = cuerpo.duracion {
            lineas += Frases.duracion(duracion, relanzados: try nucleo.cambiarDuracion(duracion))
        }
        return Self.json(200, MensajeJSON(mensaje: lineas.joined(separator: " ")))
    }

    /// A page that turns notifications on wants them in the browser: the `navegador` channel
    /// is added when there is none, as the user's own gesture (the permission button).
    private func asegurarCanalDelNavegador() throws -> String? {
        guard try !nucleo.canales().contains(where: { $0.tipo == TipoDeCanal.navegador.rawValue })
        else { return nil }
        do {
            let nombre = try nucleo.anadirCanal(
                .navegador, nombre: nil, ajustes: AjustesDeCanal())
            return Frases.canalGuardado(nombre, .navegador, reemplazado: false)
        } catch let fallo as Fallo where fallo.clase == .uso {
            return nil  // another page added it meanwhile
        }
    }

    /// The JSON body as `T`; `nil` when it is empty and that is allowed.
    private func leer<T: Decodable>(_ tipo: T.Type, _ peticion: HTTPRequest, vacioVale: Bool)
        throws -> T?
    {
        if peticion.body.isEmpty {
            guard vacioVale else { return nil }
            return nil
        }
        let tipoDeContenido = peticion.header("content-type") ?? ""
        guard tipoDeContenido.lowercased().hasPrefix("application/json") else {
            throw FalloWeb(400, "El cuerpo debe ser JSON (Content-Type: application/json).")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(peticion.body))
        } catch {
            throw FalloWeb(400, "El cuerpo no es el JSON que se esperaba.")
        }
    }

    static func json<T: Encodable>(_ estado: Int, _ valor: T, cabeceras: [(String, String)] = [])
        -> HTTPResponse
    {
        let texto = (try? documentoJSON(valor, legible: false)) ?? "{}"
        return HTTPResponse(
            status: estado,
            headers: [("Content-Type", "application/json; charset=utf-8")] + cabeceras,
            body: Array(texto.utf8))
    }
}

/// An answer other than 200, with its Spanish sentence.
struct FalloWeb: Error {
    var estado: Int
    var mensaje: String
    var cabeceras: [(String, String)] = []

    init(_ estado: Int, _ mensaje: String, cabeceras: [(String, String)] = []) {
        self.estado = estado
        self.mensaje = mensaje
        self.cabeceras = cabeceras
    }
}
