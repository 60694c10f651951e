import Foundation
import Testing

/// The screen in real headless Chromium, driven by Selenium (`Tests/Navegador/pantalla.py`):
/// the permission granted through DevTools, Jugar, a reload mid-match, the notifications the
/// Service Worker showed read back, quiet mode's banner, a 360-pixel screen.
@Suite("La pantalla en Chromium (binario)", .serialized)
struct NavegadorE2ETests {
    static let python = "/usr/bin/python3"
    static let chromium = "/usr/bin/chromium"
    static let chromedriver = "/usr/bin/chromedriver"
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Navegador/pantalla.py").path
    static let scriptDeEntrada = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Navegador/entrar.py").path

    /// Why the browser tests cannot run here, or `nil` when they can.
    static let falta: String? = {
        let ficheros = FileManager.default
        for ruta in [chromium, chromedriver, python] where !ficheros.isExecutableFile(atPath: ruta)
        {
            return "falta \(ruta) (Debian: chromium, chromium-driver, python3)"
        }
        let proceso = Process()
        proceso.executableURL = URL(fileURLWithPath: python)
        proceso.arguments = ["-c", "import selenium"]
        proceso.standardError = FileHandle.nullDevice
        guard (try? proceso.run()) != nil else { return "no se puede ejecutar \(python)" }
        proceso.waitUntilExit()
        return proceso.terminationStatus == 0 ? nil : "falta selenium (Debian: python3-selenium)"
    }()

    @Test(
        .enabled(if: falta == nil, Comment(rawValue: falta ?? "")),
        .timeLimit(.minutes(2)))
    func laPantallaJuegaAvisaYSeRecargaSinPerderNada() async throws {
        let escenario = Escenario()
        #expect(try await escenario.marcador("ajustes", "ms-por-minuto", "40").codigo == 0)
        let servidor = try await ServidorDePrueba(escenario: escenario)
        let capturas =
            ProcessInfo.processInfo.environment["MARCADOR_CAPTURAS"] ?? escenario.carpeta
        let resultado = escenario.carpeta + "/navegador.json"
        let proceso = try Proceso(
            [
                Self.script, "http://127.0.0.1:\(servidor.puerto)", capturas, resultado,
            ], carpeta: escenario.carpeta, ejecutable: Self.python)
        let fin = await proceso.esperar(limite: 100)
        await servidor.parar()
        #expect(fin.codigo == 0, "\(fin.error)")
        let datos = try Data(contentsOf: URL(fileURLWithPath: resultado))
        let visto = try #require(try JSONSerialization.jsonObject(with: datos) as? [String: Any])

        #expect((visto["filas"] as? [String])?.first?.hasPrefix("Rayo FC – Toros") == true)
        #expect(visto["permisoDelNavegador"] as? String == "granted")
        #expect(visto["permiso"] as? String == "Notificaciones activadas.")
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
            visto["notificaciones"] as? [[String: String]],
            "vistas: \(String(describing: visto["notificacionesVistas"]))")
        let porTag = Dictionary(
            notificaciones.map { ($0["tag"] ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        #expect(porTag.count == notificaciones.count)
        for (tag, cuerpo) in [
            ("gol-10-Ana", "Ana (Rayo FC), minuto 10"), ("gol-10-Iván", "Iván (Toros), minuto 10"),
            ("gol-35-Luis", "Luis (Rayo FC), minuto 35"),
            ("gol-35-Sofía", "Sofía (Toros), minuto 35"),
        ] {
            #expect(porTag[tag]?["cuerpo"] == cuerpo, "\(tag)")
            #expect(porTag[tag]?["titulo"] == "¡Gol!", "\(tag)")
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
        .timeLimit(.minutes(2)))
    func unNavegadorEntraConLaClaveDelServidor() async throws {
        let escenario = Escenario()
        let clave = "clave-del-navegador-0123456789"
        let servidor = try await ServidorDePrueba(
            escenario: escenario, argumentos: ["--token", clave])
        let resultado = escenario.carpeta + "/entrada.json"
        let proceso = try Proceso(
            [Self.scriptDeEntrada, "http://127.0.0.1:\(servidor.puerto)", clave, resultado],
            carpeta: escenario.carpeta, ejecutable: Self.python)
        let fin = await proceso.esperar(limite: 100)
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
}
