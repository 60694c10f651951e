import Aplicacion
import Avisos
import Empuje
import Persistencia
import Testing
import Torneo

/// `dispositivos importar` (contract.md §19, §20): one device per line, every line checked
/// before any is stored, the first bad line named; big files are read on every core, and the
/// line numbers still count from the file's first line.
@Suite("Importar dispositivos")
struct ImportarDispositivosTests {
    static func token(_ n: Int) -> String {
        let cifras = String(n, radix: 16)
        return String(repeating: "0", count: 64 - cifras.count) + cifras
    }

    static func linea(_ n: Int, _ extra: String = "") -> String {
        "{\"apns\":\"\(token(n))\",\"equipos\":[\"Toros\"]\(extra)}"
    }

    static func bytes(_ lineas: [String]) -> [UInt8] { Array(lineas.joined(separator: "\n").utf8) }

    func error(_ lineas: [String]) throws -> String? {
        let nucleo = try nucleoEnMemoria()
        do {
            _ = try nucleo.importarDispositivos(Self.bytes(lineas))
        } catch let fallo as Fallo {
            #expect(try nucleo.dispositivos().isEmpty, "una línea mala no guarda ninguna")
            return fallo.mensaje
        }
        return nil
    }

    @Test func cadaLineaEsUnDispositivoConSusFiltros() throws {
        let nucleo = try nucleoEnMemoria()
        let suscriptor = try ClaveP256.nueva()
        let web = """
            {"webpush": {"endpoint": "https://push.example/a/1", "expirationTime": null, \
            "keys": {"p256dh": "\(Base64URL.codificar(suscriptor.publica))", \
            "auth": "\(Base64URL.codificar(Array(repeating: 7, count: 16)))"}}, \
            "competiciones": [], "avisar": "goles, rojas", "horasTranquilas": "23:00-08:00", "retraso": 30}
            """
        let texto = [
            Self.linea(1), "", "   \r",
            Self.linea(2, ",\"partidos\":[1],\"desconocido\":{}") + "\r", web,
            "{\"apns\":\"\(Self.token(3).uppercased())\",\"equipos\":null}",
        ]
        let hecho = try nucleo.importarDispositivos(Self.bytes(texto))
        #expect(hecho.nuevos == 4 && hecho.cambiados == 0)
        let dispositivos = try nucleo.dispositivos()
        #expect(dispositivos.count == 4)
        let webpush = try #require(dispositivos.first { $0.tipo == "webpush" })
        #expect(webpush.id == Dispositivo.nombre(webPush: "https://push.example/a/1"))
        #expect(webpush.avisar == "goles,rojas" && webpush.retraso == 30)
        #expect(webpush.horasTranquilas == "23:00-08:00")
        let segundo = try #require(
            dispositivos.first { $0.id == Dispositivo.nombre(apns: Self.token(2)) })
        #expect(segundo.sigue.equipos == ["Toros"] && segundo.sigue.partidos == [1])
        // A token is stored in lower case: the same phone in capitals is the same device.
        #expect(dispositivos.contains { $0.id == Dispositivo.nombre(apns: Self.token(3)) })
    }

    @Test func unDispositivoRepetidoSeQuedaConSuUltimaLinea() throws {
        let nucleo = try nucleoEnMemoria()
        let hecho = try nucleo.importarDispositivos(
            Self.bytes([Self.linea(1), Self.linea(1, ",\"retraso\":5"), Self.linea(2)]))
        #expect(hecho.nuevos == 2 && hecho.cambiados == 0)
        #expect(
            try nucleo.dispositivos().first { $0.id == Dispositivo.nombre(apns: Self.token(1)) }?
                .retraso == 5)
        let otra = try nucleo.importarDispositivos(
            Self.bytes([Self.linea(2, ",\"retraso\":9"), Self.linea(3)]))
        #expect(otra.nuevos == 1 && otra.cambiados == 1)
        #expect(
            try nucleo.dispositivos().first { $0.id == Dispositivo.nombre(apns: Self.token(2)) }?
                .retraso == 9)
    }

    /// Ids repeated in any order, many times: each device is stored once, with its last line
    /// (the channels are put in id order by swaps, and the repeated lines dropped after).
    @Test func dispositivosRepetidosEnDesordenSeQuedanConSuUltimaLinea() throws {
        let nucleo = try nucleoEnMemoria()
        // 3,000 lines over 700 tokens, scattered (a multiplier prime to 700).
        let tokens = (0..<3_000).map { ($0 * 263) % 700 }
        let lineas = tokens.enumerated().map { Self.linea($1, ",\"retraso\":\($0)") }
        let hecho = try nucleo.importarDispositivos(Self.bytes(lineas))
        #expect(hecho.nuevos == 700 && hecho.cambiados == 0)
        var ultima: [String: Double] = [:]
        for (i, token) in tokens.enumerated() {
            ultima[Dispositivo.nombre(apns: Self.token(token))] = Double(i)
        }
        let guardados = try nucleo.dispositivos()
        #expect(guardados.count == 700)
        #expect(Set(guardados.map(\.id)) == Set(ultima.keys))
        #expect(guardados.filter { ultima[$0.id] != $0.retraso }.map(\.id) == [])
    }

    @Test(arguments: [
        (
            "{\"apns\": ",
            "no es un dispositivo en JSON ({\"apns\": \"TOKEN\"} o {\"webpush\": {…}})."
        ),
        ("[1, 2]", "no es un dispositivo en JSON ({\"apns\": \"TOKEN\"} o {\"webpush\": {…}})."),
        ("{\"equipos\": [\"Toros\"]}", "lleva «apns» o «webpush», uno de los dos."),
        (
            "{\"apns\": \"\(token(1))\", \"webpush\": {}}",
            "lleva «apns» o «webpush», uno de los dos."
        ),
        ("{\"apns\": 7}", "«apns» es el token, un texto de cifras hexadecimales."),
        (
            "{\"apns\": \"xyz\"}",
            "No se añade el dispositivo: el token de APNs son cifras hexadecimales (de 16 a 200 bytes: 64 cifras en un iPhone)."
        ),
        (
            "{\"webpush\": {\"endpoint\": \"https://a.example\"}}",
            "«webpush» es la suscripción: {\"endpoint\": …, \"keys\": {\"p256dh\": …, \"auth\": …}}."
        ),
        (
            "{\"webpush\": {\"endpoint\": \"http://a.example\", \"keys\": {\"p256dh\": \"AA\", \"auth\": \"AA\"}}}",
            "No se añade el dispositivo: el endpoint de la suscripción tiene que ser una URL https://."
        ),
        (linea(1, ",\"equipos\":\"Toros\""), "«equipos» es una lista de nombres."),
        (linea(1, ",\"partidos\":[1.5]"), "«partidos» es una lista de números de partido."),
        (linea(1, ",\"retraso\":\"5\""), "«retraso» son segundos, un número."),
        (
            linea(1, ",\"retraso\":-1"),
            "El retraso de un dispositivo va de 0 a 3600 segundos, no -1."
        ),
        (linea(1, ",\"avisar\":\"goles\\u001b[2J\""), "ESCAPE"),
        (
            linea(1, ",\"avisar\":\"goles\u{1B}[2J\""),
            "no es un dispositivo en JSON ({\"apns\": \"TOKEN\"} o {\"webpush\": {…}})."
        ),
        (linea(1, ",\"horasTranquilas\":\"tarde\""), "«horasTranquilas» va como 23:00-08:00."),
        ("{\"apns\": \"\(token(1))\", \"equipos\": [\"Nadie FC\"]}", "NO-ENCONTRADO"),
    ])
    func unaLineaMalaNoGuardaNingunaYDiceCual(linea: String, motivo: String) throws {
        let mensaje = try #require(try error([Self.linea(1), "", linea, Self.linea(2)]))
        if motivo == "ESCAPE" {
            // What the line carried is quoted with its control characters made harmless.
            #expect(mensaje.hasPrefix("Línea 3: «avisar» no son clases de aviso: goles"))
            #expect(!mensaje.unicodeScalars.contains { $0.value < 0x20 })
        } else if motivo == "NO-ENCONTRADO" {
            #expect(mensaje.hasPrefix("Línea 3: ") && mensaje.contains("Nadie FC"))
        } else {
            #expect(mensaje == "Línea 3: " + motivo)
        }
    }

    /// A file of several MB is read in parts at once: the first bad line is still the one
    /// named, with its number in the whole file, whatever part it fell in.
    @Test func enUnFicheroGrandeLaPrimeraLineaMalaEsLaQueSeNombra() throws {
        var lineas = (0..<25_000).map { Self.linea($0) }
        #expect(Self.bytes(lineas).count > 2 << 20, "lo bastante para leerse en partes")
        lineas[20_000] = "{\"apns\": 1}"
        lineas[22_000] = "no"
        #expect(
            try error(lineas)
                == "Línea 20001: «apns» es el token, un texto de cifras hexadecimales.")
        lineas[9_999] = "{\"apns\": \"\(Self.token(1))\", \"equipos\": [\"Nadie FC\"]}"
        #expect(try error(lineas)?.hasPrefix("Línea 10000: ") == true)
        lineas[5] = "{}"
        #expect(try error(lineas) == "Línea 6: lleva «apns» o «webpush», uno de los dos.")
    }

    @Test func unFicheroGrandeSinFallosGuardaCadaLineaUnaVez() throws {
        let nucleo = try nucleoEnMemoria()
        let lineas = (0..<25_000).map { Self.linea($0) } + [Self.linea(7)]
        let hecho = try nucleo.importarDispositivos(Self.bytes(lineas))
        #expect(hecho.nuevos == 25_000 && hecho.cambiados == 0)
        let ids = try nucleo.dispositivos().map(\.id)
        #expect(Set(ids) == Set((0..<25_000).map { Dispositivo.nombre(apns: Self.token($0)) }))
    }
    /// Devices stored under the first, 40-bit ids keep them: the same token again updates
    /// them; another token whose 40 bits are the same (the collision) gets an id of its own.
    @Test func unDispositivoConIdAntiguoLoConserva() throws {
        let nucleo = try nucleoEnMemoria()
        let antiguo = Dispositivo.nombreAntiguo(Dispositivo.nombre(apns: Self.token(1)))
        #expect(antiguo.utf8.count == 15 && Dispositivo.esNombreAntiguo(antiguo))
        #expect(!Dispositivo.esNombreAntiguo(Dispositivo.nombre(apns: Self.token(1))))
        var viejo = AjustesDeCanal()
        viejo.token = Self.token(1)
        var ajeno = AjustesDeCanal()
        ajeno.token = Self.token(99)
        let otroAntiguo = Dispositivo.nombreAntiguo(Dispositivo.nombre(apns: Self.token(2)))
        _ = try nucleo.tienda.buzon.guardar(
            [
                CanalConfigurado(nombre: antiguo, tipo: .dispositivoAPNs, ajustes: viejo.json),
                CanalConfigurado(nombre: otroAntiguo, tipo: .dispositivoAPNs, ajustes: ajeno.json),
            ])
        let hecho = try nucleo.importarDispositivos(
            Self.bytes([Self.linea(1, ",\"retraso\":4"), Self.linea(2)]))
        #expect(hecho.nuevos == 1 && hecho.cambiados == 1)
        let ids = Set(try nucleo.dispositivos().map(\.id))
        #expect(ids == [antiguo, otroAntiguo, Dispositivo.nombre(apns: Self.token(2))])
        #expect(try nucleo.dispositivos().first { $0.id == antiguo }?.retraso == 4)
        let otraVez = try nucleo.anadirDispositivo(.apns(token: Self.token(1).uppercased()))
        #expect(otraVez.id == antiguo && !otraVez.nuevo)
    }
}
