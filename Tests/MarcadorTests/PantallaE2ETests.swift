import Almacen
import ApoyoDePruebas
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The screen as a live-score page, over raw HTTP (screen.md): rendered with its state,
/// every error a Spanish page with the security headers, HEAD without a body, 405 with
/// `Allow`, one `Host`, stale notices never replayed, a cursor from another store reloads.
@Suite("La pantalla: HTTP y estado servido (binario)")
struct PantallaE2ETests {
    @Test func lasPaginasLleganConSuEstadoAntesDeCualquierScript() async throws {
        let escenario = Escenario()
        _ = try await escenario.marcador("importar", ImportarE2ETests.datos + "/worldcup-2018.json")
        _ = try await escenario.marcador("jugar", "2", "--ms-por-minuto", "0")
        _ = try await escenario.marcador("gol-a-mano", "2", "visitante")
        let servidor = try await ServidorDePrueba(escenario: escenario, entorno: ["TZ": "UTC"])
        // The list: grouped by competition and day, results and «Final» instead of minutes.
        let lista = try servidor.get("/").texto
        #expect(lista.contains("<h2>Partidos de la app</h2>"))
        #expect(lista.contains("<a href=\"/competiciones/World%20Cup%202018\">World Cup 2018</a>"))
        #expect(lista.contains("<h3>jueves, 14 de junio de 2018</h3>"))
        #expect(
            lista.contains(
                "<span class=\"hora final\">Final</span><span class=\"local\">Russia</span><span class=\"resultado\">5-0</span>"
            ))
        #expect(
            lista.contains("<span class=\"hora \">–</span><span class=\"local\">Rayo FC</span>"))
        #expect(!lista.contains("0'"))
        // The match: the teams either side, scorers with marks, the manual goal marked.
        let partido = try servidor.get("/partidos/2").texto
        #expect(partido.contains("<p id=\"marcador\" class=\"marcador\">"))
        #expect(partido.contains("<p id=\"estado\" class=\"estado\">Partido terminado</p>"))
        #expect(partido.contains("(p) <span class=\"nota\">"))
        #expect(partido.contains("(pp) <span class=\"nota\">"))
        #expect(partido.contains("<li class=\"a-mano\">Gol a mano</li>"))
        #expect(partido.contains("Activar avisos de gol"))
        #expect(!partido.contains("Activar notificaciones"))
        // Extra time: the setting's two choices, the match's own length said beside.
        let prorroga = try servidor.get("/partidos/3").texto
        #expect(
            prorroga.contains(
                "Minuto <span id=\"minuto\">0</span> de <span id=\"duracion\">120</span>"))
        #expect(
            prorroga.contains(
                "value=\"90\" checked> 90 minutos (120 en este partido, con prórroga)"))
        #expect(!prorroga.contains("value=\"120\""))
        #expect(try servidor.post("/api/partidos/3/ajustes", ["duracion": 60]).estado == 200)
        #expect(try servidor.post("/api/partidos/3/ajustes", ["duracion": 90]).estado == 200)
        // A shoot-out's tally under the score (Spain–Russia, 2018: 1-1, 3-4 on penalties);
        // none where there was no shoot-out.
        let tanda = try servidor.get("/partidos/54").texto
        #expect(tanda.contains("<h1 class=\"titulo\">Spain – Russia</h1>"))
        #expect(
            tanda.contains(
                "<p class=\"penaltis\" id=\"penaltis\">Penaltis: <span id=\"tanda\">3-4</span></p>")
        )
        #expect(
            try servidor.get("/partidos/4").texto.contains(
                "<p class=\"penaltis\" id=\"penaltis\" hidden>"))
        // A competition: its tables and its scorers.
        let competicion = try servidor.get("/competiciones/World%20Cup%202018").texto
        #expect(competicion.contains("<h2>Group A</h2>"))
        // Group A's winner in its zone, said in words beside the colour; the legend below.
        #expect(
            competicion.contains(
                "<tr class=\"zona-pasa\"><td>1</td><th scope=\"row\">Uruguay<span class=\"solo-lectores\"> (Pasan a la siguiente ronda)</span></th>"
            ))
        #expect(competicion.contains("</span>Pasan a la siguiente ronda</li></ul>"))
        #expect(competicion.contains("<h2>Goleadores</h2>"))
        #expect(competicion.contains("<th scope=\"row\">Harry Kane</th>"))
        #expect(competicion.contains("(reglamento: FIFA, Copa Mundial).</p>"))
        #expect(try servidor.get("/competiciones").texto.contains("World Cup 2018"))
        // Every page has its h1.
        for ruta in [
            "/", "/partidos/1", "/competiciones", "/competiciones/World%20Cup%202018", "/no-hay",
        ] {
            #expect(try servidor.get(ruta).texto.contains("<h1"), "\(ruta)")
        }
        await servidor.parar()
    }

    /// A fixture list as a fan reads it (issue 43): today's and tomorrow's matches under «hoy»
    /// and «mañana», and the card's kick-off `hoy, 23:59`.
    @Test func hoyYMananaPorSuNombre() async throws {
        let escenario = Escenario()
        let hoy = Escenario.enUTC(Date()).dia
        let manana = Escenario.enUTC(Date().addingTimeInterval(86_400)).dia
        try await escenario.importarAmistosos([
            (hoy, "23:59", "Argentina", "France"), (manana, "16:00", "Spain", "Russia"),
        ])
        let servidor = try await ServidorDePrueba(escenario: escenario, entorno: ["TZ": "UTC"])
        let lista = try servidor.get("/").texto
        #expect(lista.contains("<h3>hoy, "), "\(lista)")
        #expect(lista.contains("<h3>mañana, "))
        let ficha = try servidor.get("/partidos/4").texto
        // The server's zone first; the instant beside it for the page to say in the viewer's.
        #expect(
            ficha.contains(
                #/Amistosos · <time data-saque="[0-9]+" data-forma="dia">hoy, 23:59</time>/#),
            "\(ficha)")
        let otra = try servidor.get("/partidos/5").texto
        #expect(
            otra.contains(
                #/Amistosos · <time data-saque="[0-9]+" data-forma="dia">mañana, 16:00</time>/#))
        // One day at a time, the days either side a link away; «En directo»; a bad date.
        let soloHoy = try servidor.get("/?fecha=hoy").texto
        #expect(soloHoy.contains("Argentina") && !soloHoy.contains("Spain"))
        #expect(soloHoy.contains("<a href=\"/?fecha=\(hoy)\" aria-current=\"page\">Hoy</a>"))
        #expect(soloHoy.contains("<a href=\"/?fecha=\(manana)\">\(manana) ›</a>"))
        let soloManana = try servidor.get("/?fecha=ma%C3%B1ana").texto
        #expect(soloManana.contains("Spain") && !soloManana.contains("Argentina"))
        let vacio = try servidor.get("/?fecha=2030-01-01").texto
        #expect(vacio.contains("No hay partidos el martes, 1 de enero de 2030."))
        let directo = try servidor.get("/?vista=directo").texto
        #expect(directo.contains("No hay partidos en directo."))
        #expect(
            directo.contains("<a href=\"/?vista=directo\" aria-current=\"page\">En directo</a>"))
        #expect(try servidor.get("/?fecha=pronto").estado == 400)
        _ = await servidor.parar()
    }

    /// A result without its list of goals says so; a match without goals says there are none
    /// yet (issue 42: a 2-2 of the Serie A file read «Todavía no hay goles.»).
    @Test func unResultadoSinListaDeGolesNoDiceQueNoLosHubo() async throws {
        let escenario = Escenario()
        _ = try await escenario.marcador(
            "importar", ImportarE2ETests.datos + "/serie-a-2024-25.json")
        let salida = try await escenario.marcador(
            "partidos", "--competicion", "serie a", "--json"
        ).salida
        let lista = try #require(
            try JSONSerialization.jsonObject(with: Data(salida.utf8)) as? [[String: Any]])
        let conGoles = try #require(
            lista.first {
                ($0["marcador"] as? String).map { $0 != "0-0" } == true
                    && ($0["estado"] as? String) == "terminado"
            })
        let id = try #require(conGoles["id"] as? Int)
        let servidor = try await ServidorDePrueba(escenario: escenario)
        let pagina = try servidor.get("/partidos/\(id)").texto
        #expect(pagina.contains("<p id=\"sin-goles\" class=\"nota\">Sin detalle de goles.</p>"))
        let semilla = try servidor.get("/partidos/1").texto
        #expect(semilla.contains(">Todavía no hay goles.</p>"))
        // The controls to play a match are only the example matches': not under a real one.
        #expect(pagina.contains("<div class=\"botones\" id=\"botones-de-juego\" hidden>"))
        #expect(semilla.contains("<div class=\"botones\" id=\"botones-de-juego\">"))
        _ = await servidor.parar()
    }

    @Test func losErroresSonPaginasEnEspanolConLasCabeceras() async throws {
        let servidor = try await ServidorDePrueba()
        for (ruta, estado, texto) in [
            ("/partidos/99", 404, "No existe el partido 99."),
            ("/no-hay", 404, "No existe «/no-hay»."),
            ("/competiciones/Nada", 404, "No hay ninguna competición llamada «Nada»"),
            ("/competiciones/%ZZ", 404, "No existe la competición"),
        ] {
            let respuesta = try servidor.get(ruta)
            #expect(respuesta.estado == estado, "\(ruta)")
            #expect(respuesta.cabeceras["content-type"] == "text/html; charset=utf-8", "\(ruta)")
            #expect(respuesta.texto.contains("<html lang=\"es\">"), "\(ruta)")
            #expect(respuesta.texto.contains(texto), "\(ruta): \(respuesta.texto)")
            #expect(
                respuesta.cabeceras["content-security-policy"]?.hasPrefix("default-src 'self'")
                    == true)
            #expect(respuesta.cabeceras["x-content-type-options"] == "nosniff")
        }
        // The API stays JSON.
        let api = try servidor.get("/api/partidos/99")
        #expect(api.estado == 404)
        #expect((api.json()?["error"] as? String)?.hasPrefix("No existe el partido 99.") == true)
        // Any method reaches marcador's own answer: 405 with Allow, never the library's 501.
        for metodo in ["PUT", "DELETE", "PATCH", "OPTIONS"] {
            let respuesta = try ClienteDePrueba.pedir(
                puerto: servidor.puerto, metodo, "/partidos/1")
            #expect(respuesta.estado == 405, "\(metodo)")
            #expect(respuesta.cabeceras["allow"] == "GET, HEAD", "\(metodo)")
            #expect(respuesta.texto.contains("no vale aquí"), "\(metodo)")
        }
        // A body past 64 KB: 413, in Spanish, with the headers.
        let grande = try ClienteDePrueba.pedir(
            puerto: servidor.puerto, "POST", "/api/partidos/1/gol-a-mano",
            cabeceras: [
                "Origin": "http://127.0.0.1:\(servidor.puerto)", "X-Marcador-Token": servidor.clave,
            ],
            cuerpo: Data(repeating: 0x20, count: 200_000))
        #expect(grande.estado == 413)
        #expect(grande.json()?["error"] as? String == "El cuerpo pasa de 64 KB.")
        #expect(grande.cabeceras["x-content-type-options"] == "nosniff")
        await servidor.parar()
    }

    @Test func headNoLlevaCuerpoYDosHostNoValen() async throws {
        let servidor = try await ServidorDePrueba()
        let get = try servidor.get("/")
        let head = try ClienteDePrueba.pedir(puerto: servidor.puerto, "HEAD", "/")
        #expect(head.estado == 200)
        #expect(head.cuerpo.isEmpty)
        #expect(head.cabeceras["content-length"] == String(get.cuerpo.count))
        // Two Host headers: which server it is for cannot be told.
        let peticion =
            "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(servidor.puerto)\r\nHost: otro.example\r\n"
            + "Connection: close\r\n\r\n"
        let respuesta = try ClienteDePrueba.pedirEnBruto(
            puerto: servidor.puerto, Data(peticion.utf8))
        #expect(respuesta.estado == 400)
        #expect(respuesta.texto.contains("más de una cabecera Host"))
        await servidor.parar()
    }

    /// A page that comes back after a while does not replay goals older than their
    /// time-to-live; one whose cursor this store never reached (another database) reloads.
    @Test func nadaViejoSeRepiteYUnCursorAjenoRecarga() async throws {
        let escenario = Escenario()
        let activar = try await escenario.marcador("avisos", "activar")
        #expect(activar.codigo == 0)
        _ = try await escenario.marcador("avisos", "canales", "añadir", "navegador")
        _ = try await escenario.marcador("jugar", "1", "--ms-por-minuto", "0")
        _ = try await escenario.marcador("avisos", "enviar")
        // Two of the five notices are made 11 minutes old.
        do {
            let db = try Database(path: escenario.db)
            try db.execute(
                "UPDATE aviso SET creado = creado - 660 WHERE identificador IN ('gol-10-Ana', 'gol-10-Iván')"
            )
        }
        let servidor = try await ServidorDePrueba(escenario: escenario)
        let flujo = try FlujoDePrueba(puerto: servidor.puerto, ultimo: 0)
        #expect(await flujo.esperar { $0.contains { $0.nombre == "notificacion" } })
        _ = await flujo.esperar(limite: 1) { _ in false }
        let replayed = flujo.eventos.filter { $0.nombre == "notificacion" }.compactMap {
            $0.json()?["identificador"] as? String
        }
        #expect(replayed == ["gol-35-Luis", "gol-35-Sofía", "gol-60-Marta"])
        await flujo.cerrar()
        let ajeno = try FlujoDePrueba(puerto: servidor.puerto, ultimo: 1_000_000)
        #expect(await ajeno.esperar { $0.contains { $0.nombre == "reinicio" } })
        await ajeno.cerrar()
        // Every stream says which server it is first (a page from before a restart reloads).
        let saludo = try FlujoDePrueba(puerto: servidor.puerto)
        #expect(await saludo.esperar { _ in saludo.sinPosicion.contains { $0.nombre == "hola" } })
        #expect(
            saludo.sinPosicion.first { $0.nombre == "hola" }?.json()?["instancia"] as? String != nil
        )
        await saludo.cerrar()
        await servidor.parar()
    }

    @Test func laAppSeInstala() async throws {
        let servidor = try await ServidorDePrueba()
        let manifiesto = try servidor.get("/manifest.webmanifest")
        #expect(manifiesto.estado == 200)
        #expect(manifiesto.cabeceras["content-type"] == "application/manifest+json")
        let json = try #require(manifiesto.json())
        #expect(json["start_url"] as? String == "/")
        #expect(json["display"] as? String == "standalone")
        let iconos = try #require(json["icons"] as? [[String: Any]])
        for tamano in ["192x192", "512x512"] {
            let icono = try #require(iconos.first { $0["sizes"] as? String == tamano })
            let png = try servidor.get(icono["src"] as? String ?? "")
            #expect(png.estado == 200)
            #expect(png.cabeceras["content-type"] == "image/png")
            #expect(png.cuerpo.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        }
        #expect(
            try servidor.get("/").texto.contains(
                "<link rel=\"manifest\" href=\"/manifest.webmanifest\">"))
        await servidor.parar()
    }
}
