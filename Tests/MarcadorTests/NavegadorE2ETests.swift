import Foundation
import Testing

/// The screen in real headless Chromium, driven by Selenium (`Tests/Navegador/pantalla.py`):
/// the permission granted through DevTools, Jugar, a reload mid-match, the notifications the
/// Service Worker raised read back from the desktop's notification server (each script runs on
/// a private desktop, `Escritorio`), quiet mode's banner, a 360-pixel screen.
@Suite("La pantalla en Chromium (binario)", .serialized)
struct NavegadorE2ETests {
    static let python = "/usr/bin/python3"
    static let chromium = "/usr/bin/chromium"
    static let chromedriver = "/usr/bin/chromedriver"
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Navegador/pantalla.py").path
    static let scriptDePagina = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Navegador/pagina.py").path
    static let scriptDeEntrada = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Navegador/entrar.py").path
    static let scriptDeEmpuje = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Navegador/empuje.py").path

    /// What a script that gave up waiting for notifications saw: the ones raised, and what the
    /// page knew of its notices (what its Service Worker answered for each).
    static func faltan(_ visto: [String: Any]) -> String {
        "vistas: \(String(describing: visto["notificacionesVistas"])); "
            + "la página: \(String(describing: visto["diagnostico"]))"
    }

    /// Why the browser tests cannot run here, or `nil` when they can.
    static let falta: String? = {
        let ficheros = FileManager.default
        for ruta in [chromium, chromedriver, python] where !ficheros.isExecutableFile(atPath: ruta)
        {
            return "falta \(ruta) (Debian: chromium, chromium-driver, python3)"
        }
        if let falta = Escritorio.falta { return falta }
        let proceso = Process()
        proceso.executableURL = URL(fileURLWithPath: python)
        proceso.arguments = ["-c", "import selenium"]
        proceso.standardError = FileHandle.nullDevice
        guard (try? proceso.run()) != nil else { return "no se puede ejecutar \(python)" }
        proceso.waitUntilExit()
        return proceso.terminationStatus == 0 ? nil : "falta selenium (Debian: python3-selenium)"
    }()

    /// Why the accessibility check cannot run here (axe-core comes from PyPI), or `nil`.
    static let faltaAxe: String? = {
        if let falta { return falta }
        let proceso = Process()
        proceso.executableURL = URL(fileURLWithPath: python)
        proceso.arguments = ["-c", "import axe_selenium_python"]
        proceso.standardError = FileHandle.nullDevice
        guard (try? proceso.run()) != nil else { return "no se puede ejecutar \(python)" }
        proceso.waitUntilExit()
        return proceso.terminationStatus == 0
            ? nil
            : "falta axe-core (pip install --break-system-packages axe-selenium-python)"
    }()

    @Test(
        .enabled(if: falta == nil, Comment(rawValue: falta ?? "")),
        .timeLimit(.minutes(5)))
    func laPantallaJuegaAvisaYSeRecargaSinPerderNada() async throws {
        let escenario = Escenario()
        #expect(try await escenario.marcador("ajustes", "ms-por-minuto", "40").codigo == 0)
        let servidor = try await ServidorDePrueba(escenario: escenario)
        let resultado = escenario.carpeta + "/navegador.json"
        let proceso = try Escritorio.proceso(
            [Self.python, Self.script, "http://127.0.0.1:\(servidor.puerto)", resultado],
            carpeta: escenario.carpeta)
        // Its own waits have deadlines of their own; this bound only ends a script that
        // hangs (a loaded run of the whole suite once took more than 100 s, still going).
        let fin = await proceso.esperar(limite: 240)
        await servidor.parar()
        #expect(fin.codigo == 0, "\(fin.error)")
        let datos = try Data(contentsOf: URL(fileURLWithPath: resultado))
        let visto = try #require(try JSONSerialization.jsonObject(with: datos) as? [String: Any])

        let primera = (visto["filas"] as? [String])?.first ?? ""
        #expect(primera.contains("Rayo FC") && primera.contains("Toros"), "\(primera)")
        #expect(visto["permisoDelNavegador"] as? String == "granted")
        #expect(visto["permiso"] as? String == "Avisos de gol activados.")
        #expect(visto["marcador"] as? String == "3-2")
        #expect(visto["estado"] as? String == "Partido terminado")
        #expect(visto["ultimoAviso"] as? String == "minuto 90 con 3-2")
        #expect(
            visto["goles"] as? [String] == [
                "10' Ana (Rayo FC) 1-0", "10' Iván (Toros) 1-1", "35' Luis (Rayo FC) 2-1",
                "35' Sofía (Toros) 2-2", "60' Marta (Rayo FC) 3-2",
            ])
        // The page was reloaded between the 10' and the 35' goals: nothing was missed, and
        // nothing shown twice (one notification per identifier).
        let recarga = try #require(visto["minutoDeLaRecarga"] as? Int)
        #expect((15..<35).contains(recarga))
        let notificaciones = try #require(
            visto["notificaciones"] as? [[String: Any]],
            "\(Self.faltan(visto))")
        // Each goal raised once (a notice replayed after the reload would carry its goal's tag
        // and only replace the notification on screen: `reemplaza`).
        let nuevas = notificaciones.filter { $0["reemplaza"] as? Bool != true }
        #expect(nuevas.count == 5, "\(notificaciones)")
        for cuerpo in [
            "Ana (Rayo FC), minuto 10", "Iván (Toros), minuto 10", "Luis (Rayo FC), minuto 35",
            "Sofía (Toros), minuto 35", "Marta (Rayo FC), minuto 60",
        ] {
            let estas = nuevas.filter { $0["cuerpo"] as? String == cuerpo }
            #expect(estas.count == 1, "\(cuerpo): \(notificaciones)")
            #expect(estas.allSatisfy { $0["titulo"] as? String == "¡Gol!" }, "\(cuerpo)")
        }
        // Quiet mode with the page in view: a banner, no system notification.
        #expect((visto["banner"] as? String)?.hasPrefix("¡Gol! ") == true)
        #expect((visto["notificacionesEnSilencio"] as? [Any])?.isEmpty == true)
        // Usable on a phone: nothing wider than 360 pixels.
        #expect((visto["anchoDelDocumento"] as? Int ?? 999) <= 360)
        #expect((visto["erroresDeConsola"] as? [String]) == [])
    }

    /// A real browser enters a server started with `--token`: sent to the login, refused with
    /// a wrong key, let in with the right one, and the page then works on its session cookie,
    /// which its script cannot read (issue 26).
    @Test(
        .enabled(if: falta == nil, Comment(rawValue: falta ?? "")),
        .timeLimit(.minutes(5)))
    func unNavegadorEntraConLaClaveDelServidor() async throws {
        let escenario = Escenario()
        let clave = "clave-del-navegador-0123456789"
        let servidor = try await ServidorDePrueba(
            escenario: escenario, argumentos: ["--token", clave])
        let resultado = escenario.carpeta + "/entrada.json"
        let proceso = try Escritorio.proceso(
            [
                Self.python, Self.scriptDeEntrada, "http://127.0.0.1:\(servidor.puerto)", clave,
                resultado,
            ],
            carpeta: escenario.carpeta)
        // Its own waits have deadlines of their own; this bound only ends a script that
        // hangs (a loaded run of the whole suite once took more than 100 s, still going).
        let fin = await proceso.esperar(limite: 240)
        await servidor.parar()
        #expect(fin.codigo == 0, "\(fin.error)")
        let datos = try Data(contentsOf: URL(fileURLWithPath: resultado))
        let visto = try #require(try JSONSerialization.jsonObject(with: datos) as? [String: Any])
        #expect(visto["primeraRuta"] as? String == "/entrar")
        #expect(visto["claveEnLaEntrada"] as? Bool == false)
        #expect(visto["trasClaveMala"] as? String == "Esa no es la clave de este servidor.")
        #expect(visto["rutaTrasEntrar"] as? String == "/")
        #expect(visto["filas"] as? Int == 3)
        #expect(visto["cookieVisible"] as? String == "")
        #expect(visto["claveEnLaPagina"] as? Bool == false)
        #expect(visto["marcador"] as? String == "1-0")
        // The 401 of the wrong key is the only error the console may show.
        let errores = (visto["erroresDeConsola"] as? [String]) ?? ["?"]
        #expect(errores.allSatisfy { $0.contains("/entrar") && $0.contains("401") }, "\(errores)")
    }

    /// Web Push with every page closed (issue 44): the Service Worker the page registered is
    /// woken by a push (DevTools' `ServiceWorker.deliverPushMessage`), the notification reaches
    /// the desktop's D-Bus, and a click on it opens the match.
    @Test(
        .enabled(if: falta == nil, Comment(rawValue: falta ?? "")),
        .timeLimit(.minutes(5)))
    func unEmpujeConLaPaginaCerradaAvisaYElClicAbreElPartido() async throws {
        let escenario = Escenario()
        let servidor = try await ServidorDePrueba(escenario: escenario)
        let resultado = escenario.carpeta + "/empuje.json"
        let base = "http://127.0.0.1:\(servidor.puerto)"
        let proceso = try Escritorio.proceso(
            [Self.python, Self.scriptDeEmpuje, base, resultado], carpeta: escenario.carpeta)
        let fin = await proceso.esperar(limite: 240)
        await servidor.parar()
        #expect(fin.codigo == 0, "\(fin.error)")
        let datos = try Data(contentsOf: URL(fileURLWithPath: resultado))
        let visto = try #require(try JSONSerialization.jsonObject(with: datos) as? [String: Any])
        #expect(visto["ambito"] as? String == base + "/")
        // No page of the server was open when the push came.
        #expect(visto["paginasAbiertas"] as? [String] == ["about:blank"])
        let notificaciones = visto["notificaciones"] as? [[String: Any]] ?? []
        #expect(notificaciones.count == 1, "\(visto)")
        #expect(notificaciones.first?["titulo"] as? String == "¡Gol!")
        #expect(notificaciones.first?["cuerpo"] as? String == "Marta (Rayo FC), minuto 60")
        #expect(visto["clic"] as? Int == 0)
        #expect(visto["abiertasTrasElClic"] as? [String] == [base + "/partidos/1"], "\(visto)")
    }

    /// The page a fan keeps open (issue 24): the list at phone width, a played match's
    /// scorers with their marks and its manual goal, extra time, a goal going in, quiet mode
    /// with two goals in a minute and a hidden window, the server gone and back, axe-core on
    /// every page in both colour schemes, and Chromium's installability verdict.
    @Test(
        .enabled(if: faltaAxe == nil, Comment(rawValue: faltaAxe ?? "")),
        .timeLimit(.minutes(5)))
    func esUnaPaginaDeResultadosEnDirecto() async throws {
        let escenario = Escenario()
        #expect(
            try await escenario.marcador("importar", ImportarE2ETests.datos + "/worldcup-2018.json")
                .codigo == 0)
        #expect(try await escenario.marcador("ajustes", "ms-por-minuto", "40").codigo == 0)
        #expect(try await escenario.marcador("jugar", "2", "--ms-por-minuto", "0").codigo == 0)
        #expect(try await escenario.marcador("gol-a-mano", "2", "visitante").codigo == 0)
        let capturas =
            ProcessInfo.processInfo.environment["MARCADOR_CAPTURAS"] ?? escenario.carpeta
        let resultado = escenario.carpeta + "/pagina.json"
        let proceso = try Escritorio.proceso(
            [Self.python, Self.scriptDePagina, Binario.ruta, escenario.db, capturas, resultado],
            carpeta: escenario.carpeta)
        // The longest script (axe-core on every page, twice): a loaded full run once needed
        // more than 170 s; its own waits keep their deadlines.
        let fin = await proceso.esperar(limite: 280)
        #expect(fin.codigo == 0, "\(fin.error)")
        let datos = try Data(contentsOf: URL(fileURLWithPath: resultado))
        let visto = try #require(try JSONSerialization.jsonObject(with: datos) as? [String: Any])
        let pasos = "\(visto["pasos"] ?? [])"

        // 3. The list: every match, rows a phone shows many of, no minute before kick-off.
        #expect(visto["filasEnLaLista"] as? Int == 67)
        // One line for most rows, two at most for long names (it was 141 px, 4 to a phone).
        #expect((visto["altoMedianoDeFila"] as? Double ?? 999) <= 44)
        #expect((visto["altoMaximoDeFila"] as? Double ?? 999) <= 64)
        #expect((visto["filasEnPantalla360"] as? Int ?? 0) >= 8)
        let horas = visto["horas"] as? [String] ?? []
        #expect(!horas.contains { $0.hasSuffix("'") }, "\(horas)")
        #expect((visto["filaJugada"] as? String)?.contains("Final") == true)
        #expect((visto["anchoDelDocumento360"] as? Int ?? 999) <= 360)
        // 5. Served with its state, marks and manual goals included, with and without script.
        for clave in ["sinScript", "conScript"] {
            let tablero = visto[clave] as? [String: Any] ?? [:]
            let todos =
                (tablero["local"] as? [String] ?? []) + (tablero["visitante"] as? [String] ?? [])
            #expect(todos.contains { $0.contains("(p)") }, "\(clave): \(todos)")
            #expect(todos.contains { $0.contains("(pp)") }, "\(clave): \(todos)")
            #expect((tablero["visitante"] as? [String])?.last == "Gol a mano", "\(clave)")
        }
        let sinScript = visto["sinScript"] as? [String: Any] ?? [:]
        #expect(sinScript["estado"] as? String == "Partido terminado")
        // The timeline, server-rendered and live alike: goals and the red card, in order.
        let cronologia = [
            "23' Zoë (Águilas CF) 1-0", "45+1' Chloé (Águilas CF) 2-0",
            "45+2' Íñigo (p) (Cigüeñas FC) 2-1", "67' Björn (pp) (Cigüeñas FC) 3-1",
            "78' Tarjeta roja: Björn (Cigüeñas FC, doble amarilla)", "90+4' João (Cigüeñas FC) 3-2",
        ]
        #expect(sinScript["cronologia"] as? [String] == cronologia, "\(sinScript)")
        #expect(
            (visto["conScript"] as? [String: Any])?["cronologia"] as? [String] == cronologia)
        // An imported match: kick-off in the viewer's zone (Tokyo, 9 hours ahead of 15:00
        // UTC), and nothing to play.
        let importado = visto["importado"] as? [String: Any] ?? [:]
        #expect(importado["saque"] as? String == "viernes, 15 de junio de 2018, 00:00")
        #expect(importado["jugarVisible"] as? Bool == false)
        #expect(
            sinScript["marcador"] as? String == (visto["conScript"] as? [String: Any])?["marcador"]
                as? String)
        // 6. Extra time.
        let prorroga = visto["prorroga"] as? [String: Any] ?? [:]
        #expect(prorroga["minuto"] as? String == "Minuto 0 de 120")
        #expect(prorroga["marcada"] as? String == "90 minutos (120 en este partido, con prórroga)")
        #expect(prorroga["trasVolver"] as? String == "Minuto 0 de 120")
        #expect(prorroga["error"] as? String == "")
        let competicion = visto["competicion"] as? [String: Any] ?? [:]
        #expect((competicion["grupos"] as? Int ?? 0) >= 8)
        #expect((visto["anchoDeLaCompeticion360"] as? Int ?? 999) <= 360)
        // Every group's points within a swipe at 360 px; the first two of each group marked,
        // and the legend says what the colour means.
        let puntos = visto["puntos360"] as? [Bool] ?? []
        #expect(puntos.count >= 8 && puntos.allSatisfy { $0 }, "\(puntos)")
        #expect(visto["leyenda"] as? [String] == ["Pasan a la siguiente ronda"])
        #expect(visto["zonas"] as? Int == 16)
        // 7. axe-core: no serious or critical violation on any page, light or dark.
        let axe = visto["axe"] as? [String: Any] ?? [:]
        #expect(axe.count == 11, "\(axe.keys.sorted())")
        for (pagina, violaciones) in axe {
            #expect((violaciones as? [Any])?.isEmpty == true, "\(pagina): \(violaciones)")
        }
        // Installable, by Chromium's own judgement.
        let instalable = visto["instalable"] as? [String: Any] ?? [:]
        #expect((instalable["installabilityErrors"] as? [Any])?.isEmpty == true, "\(instalable)")
        #expect((visto["manifiesto"] as? [Any])?.isEmpty == true, "\(visto["manifiesto"] ?? "")")
        // The goal moment: highlighted, said to screen readers, live in the list, five
        // notifications, «Final» at the end.
        #expect(visto["permiso"] as? String == "Avisos de gol activados.")
        #expect(visto["resaltado"] as? Bool == true)
        let anuncios = visto["anuncios"] as? [String] ?? []
        #expect(anuncios.contains("¡Gol! Ana (Rayo FC), minuto 10"), "\(anuncios)")
        let enVivo = visto["enVivo"] as? String ?? ""
        #expect(enVivo.wholeMatch(of: /[0-9]+'/) != nil, "\(enVivo)")
        let final = visto["trasElFinal"] as? String ?? ""
        #expect(final.contains("Final") && final.contains("3-2"), "\(final)")
        let nuevas = (visto["notificaciones"] as? [[String: Any]])?.filter {
            $0["reemplaza"] as? Bool != true
        }
        #expect(nuevas?.count == 5, "\(pasos); \(Self.faltan(visto))")
        // 2. Quiet mode: five banners in turn, each up for at least 2.5 s; nothing raised by
        // the hidden window while this one is in view.
        #expect(visto["visibilidadDelFondo"] as? String == "hidden")
        #expect(visto["visibilidadPrincipal"] as? String == "visible")
        let banners = visto["banners"] as? [[String: Any]] ?? []
        #expect(banners.count == 5, "\(banners)")
        for banner in banners {
            let (desde, hasta) = (banner["desde"] as? Double ?? 0, banner["hasta"] as? Double ?? 0)
            #expect(hasta - desde >= 2_500, "\(banner)")
        }
        for (antes, despues) in zip(banners, banners.dropFirst()) {
            #expect((despues["desde"] as? Double ?? 0) >= (antes["hasta"] as? Double ?? .infinity))
        }
        #expect((banners.first?["texto"] as? String) == "¡Gol! Ana (Rayo FC), minuto 10")
        #expect((visto["notificacionesEnSilencio"] as? [Any])?.isEmpty == true)
        #expect((visto["bannersDelFondo"] as? [Any])?.isEmpty == true)
        // 4. The server gone: said, and said in Spanish; back: the page asks for a reload.
        #expect(visto["conexionAntes"] as? String == "En directo")
        #expect(
            (visto["conexionSinServidor"] as? String)?.hasPrefix("Sin conexión") == true, "\(pasos)"
        )
        #expect(
            visto["errorSinServidor"] as? String
                == "No se pudo hablar con el servidor: ¿sigue en marcha «marcador servir»?")
        #expect(
            (visto["recargar"] as? String)?.hasPrefix(
                "El servidor se ha reiniciado: recarga la página para seguir.") == true)
        #expect(visto["conexionDeNuevo"] as? String == "En directo")
        #expect(visto["trasRecargar"] as? Bool == true)
        // Only the error page asked for, the stream cut by the stop and the request made
        // while the server was away may fail.
        let errores = visto["erroresDeConsola"] as? [String] ?? ["?"]
        #expect(
            errores.allSatisfy {
                ($0.contains("/partidos/99") && $0.contains("404"))
                    || ($0.contains("/eventos") && $0.contains("ERR_INCOMPLETE_CHUNKED_ENCODING"))
                    || $0.contains("ERR_CONNECTION_REFUSED")
            }, "\(errores)")
    }
}
