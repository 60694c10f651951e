import ApoyoDePruebas
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `marcador servir --token` (issue 26): a client that has not entered gets the login page or
/// a 401, never a page, a key or a match; a browser enters once and gets a session cookie
/// (`HttpOnly; SameSite=Strict`) with a page key of its own; a program sends the key itself.
@Suite("marcador servir --token (binario)")
struct EntradaE2ETests {
    static let clave = "clave-de-prueba-0123456789"

    func entrar(_ servidor: ServidorDePrueba, con clave: String = Self.clave) throws
        -> ClienteDePrueba.Respuesta
    {
        try ClienteDePrueba.pedir(
            puerto: servidor.puerto, "POST", "/entrar",
            cabeceras: [
                "Origin": "http://127.0.0.1:\(servidor.puerto)",
                "Content-Type": "application/x-www-form-urlencoded",
            ], cuerpo: Data("clave=\(clave)".utf8))
    }

    /// The `name=value` of a `Set-Cookie`.
    func cookie(_ respuesta: ClienteDePrueba.Respuesta) -> String? {
        respuesta.cabeceras["set-cookie"]?.split(separator: ";").first.map(String.init)
    }

    @Test func quienNoEntraNoVeNadaNiLaClave() async throws {
        let servidor = try await ServidorDePrueba(argumentos: ["--token", Self.clave])
        // Pages go to the login; everything else is refused; nothing carries a key.
        let portada = try servidor.get("/")
        #expect(portada.estado == 303)
        #expect(portada.cabeceras["location"] == "/entrar")
        #expect(try servidor.get("/partidos/1").estado == 303)
        for ruta in ["/api/partidos", "/api/partidos/1", "/api/ajustes", "/eventos", "/imagenes/1"]
        {
            let respuesta = try servidor.get(ruta)
            #expect(respuesta.estado == 401, "\(ruta)")
            #expect(respuesta.cabeceras["www-authenticate"] == "Bearer realm=\"marcador\"")
            #expect(
                respuesta.json()?["error"] as? String
                    == "Hace falta entrar: abre /entrar en el navegador, o envía la clave del servidor en X-Marcador-Token.",
                "\(ruta)")
        }
        let login = try servidor.get("/entrar")
        #expect(login.estado == 200)
        #expect(login.texto.contains("<form class=\"entrada\" method=\"post\" action=\"/entrar\">"))
        #expect(ServidorDePrueba.claveDePagina(login.texto) == nil)
        // The static files are public, and hold no key.
        for ruta in ["/app.js", "/app.css", "/sw.js", "/icono.svg"] {
            let respuesta = try servidor.get(ruta)
            #expect(respuesta.estado == 200, "\(ruta)")
            #expect(!respuesta.texto.contains(Self.clave))
        }
        // A change without entering changes nothing.
        let gol = try ClienteDePrueba.enviar(
            puerto: servidor.puerto, "/api/partidos/1/gol-a-mano", json: ["lado": "local"],
            clave: nil)
        #expect(gol.estado == 401)
        let falsa = try ClienteDePrueba.enviar(
            puerto: servidor.puerto, "/api/partidos/1/gol-a-mano", json: ["lado": "local"],
            clave: "clave-que-no-es-0123456789")
        #expect(falsa.estado == 401)
        let ficha = try servidor.get(
            "/api/partidos/1", cabeceras: ["X-Marcador-Token": Self.clave])
        #expect(ficha.estado == 200)
        #expect((ficha.json()?["situacion"] as? [String: Any])?["golesAMano"] as? String == "0-0")
        await servidor.parar()
    }

    @Test func unNavegadorEntraYSuClaveDePaginaEsSoloSuya() async throws {
        let servidor = try await ServidorDePrueba(argumentos: ["--token", Self.clave])
        let mal = try entrar(servidor, con: "no-es-la-clave-0123456789")
        #expect(mal.estado == 401)
        #expect(mal.texto.contains("Esa no es la clave de este servidor."))
        #expect(mal.cabeceras["set-cookie"] == nil)
        let dentro = try entrar(servidor)
        #expect(dentro.estado == 303)
        #expect(dentro.cabeceras["location"] == "/")
        let galleta = try #require(dentro.cabeceras["set-cookie"])
        #expect(galleta.hasPrefix("marcador_sesion="))
        #expect(galleta.contains("; HttpOnly"))
        #expect(galleta.contains("; SameSite=Strict"))
        #expect(galleta.contains("; Path=/"))
        let sesion = try #require(cookie(dentro))
        // The page now: its key is this session's, never the server's.
        let portada = try servidor.get("/", cabeceras: ["Cookie": sesion])
        #expect(portada.estado == 200)
        #expect(!portada.texto.contains(Self.clave))
        let deLaPagina = try #require(ServidorDePrueba.claveDePagina(portada.texto))
        #expect(deLaPagina.count == 32)
        // Reading with the cookie; changing with the cookie, the page key and the origin.
        #expect(try servidor.get("/api/partidos", cabeceras: ["Cookie": sesion]).estado == 200)
        let flujo = try FlujoDePrueba(puerto: servidor.puerto, cookie: sesion)
        #expect(await flujo.esperarAbierto())
        #expect(flujo.cabecera?.contains("text/event-stream") == true)
        await flujo.cerrar()
        func gol(cookie: String?, clave: String?, origen: String? = nil) throws -> Int {
            var cabeceras = [
                "Origin": origen ?? "http://127.0.0.1:\(servidor.puerto)",
                "Content-Type": "application/json",
            ]
            if let cookie { cabeceras["Cookie"] = cookie }
            if let clave { cabeceras["X-Marcador-Token"] = clave }
            return try ClienteDePrueba.pedir(
                puerto: servidor.puerto, "POST", "/api/partidos/1/gol-a-mano",
                cabeceras: cabeceras, cuerpo: Data(#"{"lado":"local"}"#.utf8)
            ).estado
        }
        #expect(try gol(cookie: sesion, clave: deLaPagina) == 200)
        #expect(try gol(cookie: sesion, clave: nil) == 403)
        #expect(try gol(cookie: sesion, clave: deLaPagina, origen: "http://otro.example") == 403)
        #expect(try gol(cookie: nil, clave: deLaPagina) == 401)
        // Another browser's page key is worth nothing with this cookie.
        let otra = try #require(cookie(try entrar(servidor)))
        let suya = try #require(
            ServidorDePrueba.claveDePagina(
                try servidor.get("/", cabeceras: ["Cookie": otra]).texto))
        #expect(suya != deLaPagina)
        #expect(try gol(cookie: sesion, clave: suya) == 403)
        // A program with the server's key needs no cookie and no Origin.
        let programa = try ClienteDePrueba.pedir(
            puerto: servidor.puerto, "POST", "/api/partidos/1/gol-a-mano",
            cabeceras: [
                "Authorization": "Bearer \(Self.clave)", "Content-Type": "application/json",
            ],
            cuerpo: Data(#"{"lado":"local"}"#.utf8))
        #expect(programa.estado == 200)
        let ficha = try servidor.get("/api/partidos/1", cabeceras: ["Cookie": sesion])
        #expect((ficha.json()?["situacion"] as? [String: Any])?["golesAMano"] as? String == "2-0")
        // Leaving ends the session: the cookie opens nothing more.
        let salida = try ClienteDePrueba.pedir(
            puerto: servidor.puerto, "POST", "/salir",
            cabeceras: [
                "Cookie": sesion, "X-Marcador-Token": deLaPagina,
                "Origin": "http://127.0.0.1:\(servidor.puerto)",
            ])
        #expect(salida.estado == 303)
        #expect(salida.cabeceras["set-cookie"]?.contains("Max-Age=0") == true)
        #expect(try servidor.get("/", cabeceras: ["Cookie": sesion]).estado == 303)
        #expect(try servidor.get("/", cabeceras: ["Cookie": otra]).estado == 200)
        await servidor.parar()
    }

    /// Guessing is slow: after five wrong keys in a minute the login answers 429 for a while,
    /// the right key included.
    @Test func cincoClavesMalasSeguidasCierranLaEntradaUnMinuto() async throws {
        let servidor = try await ServidorDePrueba(argumentos: ["--token", Self.clave])
        for intento in 1...5 {
            #expect(try entrar(servidor, con: "mala-\(intento)-0123456789abcdef").estado == 401)
        }
        let sexto = try entrar(servidor)
        #expect(sexto.estado == 429)
        #expect(sexto.cabeceras["retry-after"] == "60")
        #expect(sexto.texto.contains("Demasiados intentos fallidos"))
        #expect(sexto.cabeceras["set-cookie"] == nil)
        // A login from another site is refused before the key is even looked at.
        let ajena = try ClienteDePrueba.pedir(
            puerto: servidor.puerto, "POST", "/entrar",
            cabeceras: ["Origin": "http://otro.example"], cuerpo: Data("clave=x".utf8))
        #expect(ajena.estado == 403)
        await servidor.parar()
    }

    /// A key in a header is a login too (issue 41: 200 wrong guesses in `X-Marcador-Token` and
    /// `Authorization: Bearer` were all 401 and the right key still worked): the same limiter
    /// as the form, which then closes the form as well.
    @Test func lasClavesEnCabecerasCuentanComoLasDelFormulario() async throws {
        let servidor = try await ServidorDePrueba(argumentos: ["--token", Self.clave])
        for intento in 1...3 {
            let mala = try servidor.get(
                "/api/partidos", cabeceras: ["X-Marcador-Token": "mala-\(intento)-0123456789"])
            #expect(mala.estado == 401)
        }
        for intento in 4...5 {
            let mala = try servidor.get(
                "/api/partidos", cabeceras: ["Authorization": "Bearer mala-\(intento)-0123456789"])
            #expect(mala.estado == 401)
        }
        for cabeceras in [
            ["X-Marcador-Token": Self.clave], ["Authorization": "Bearer \(Self.clave)"],
        ] {
            let buena = try servidor.get("/api/partidos", cabeceras: cabeceras)
            #expect(buena.estado == 429)
            #expect(buena.cabeceras["retry-after"] == "60")
            #expect(
                buena.json()?["error"] as? String
                    == "Demasiados intentos fallidos: prueba otra vez dentro de un minuto.")
            #expect(buena.cabeceras["content-security-policy"] != nil)
        }
        #expect(try entrar(servidor).estado == 429)
        await servidor.parar()
    }

    /// Without `--token` (loopback) there is nothing to enter: `/entrar` goes home.
    @Test func sinTokenNoHayEntrada() async throws {
        let servidor = try await ServidorDePrueba()
        let entrada = try servidor.get("/entrar")
        #expect(entrada.estado == 303)
        #expect(entrada.cabeceras["location"] == "/")
        #expect(try servidor.get("/api/partidos").estado == 200)
        await servidor.parar()
    }
}
