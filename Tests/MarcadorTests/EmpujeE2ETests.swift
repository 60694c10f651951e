import ApoyoDePruebas
import Foundation
import Testing

/// Real push, end to end (contract.md §19): the built binary against loopback stand-ins that
/// speak the real protocols — APNs' provider API over HTTP/2 + TLS (Python `h2`), checking each
/// ES256 provider token with the `.p8`'s public key; a Web Push service that verifies VAPID
/// and decrypts every message with PyPI's `http_ece` — each with a CA of its own that marcador
/// is given with `--ca` (TLS is never switched off).
@Suite("Empuje real: APNs y Web Push (binario)", .serialized)
struct EmpujeE2ETests {
    static let python = "/usr/bin/python3"
    static let carpetaDeSustitutos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Empuje").path

    /// Why the stand-ins cannot run here, or `nil`.
    static let falta: String? = {
        guard FileManager.default.isExecutableFile(atPath: python) else { return "falta \(python)" }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else {
            return "falta openssl (Debian: openssl)"
        }
        let proceso = Process()
        proceso.executableURL = URL(fileURLWithPath: python)
        proceso.arguments = ["-c", "import h2, http_ece, cryptography"]
        proceso.standardError = FileHandle.nullDevice
        guard (try? proceso.run()) != nil else { return "no se puede ejecutar \(python)" }
        proceso.waitUntilExit()
        return proceso.terminationStatus == 0
            ? nil
            : "faltan h2 (Debian: python3-h2) o http_ece (pip install --break-system-packages http-ece)"
    }()

    /// A stand-in server started for one test, stopped with it.
    final class Sustituto {
        let proceso: Proceso
        let carpeta: String
        let puerto: Int

        init(_ guion: String, _ argumentos: [String], carpeta: String) async throws {
            self.carpeta = carpeta
            try FileManager.default.createDirectory(
                atPath: carpeta, withIntermediateDirectories: true)
            proceso = try Proceso(
                [EmpujeE2ETests.carpetaDeSustitutos + "/" + guion] + argumentos,
                entorno: ["PYTHONPATH": EmpujeE2ETests.carpetaDeSustitutos], carpeta: carpeta,
                ejecutable: EmpujeE2ETests.python)
            let ruta = carpeta + "/puerto"
            let listo = await esperarQue { FileManager.default.fileExists(atPath: ruta) }
            guard listo, let texto = try? String(contentsOfFile: ruta, encoding: .utf8),
                let puerto = Int(texto)
            else {
                proceso.senal(SIGKILL)
                throw Fallo(mensaje: "\(guion) no arrancó: \(proceso.errorHastaAhora)")
            }
            self.puerto = puerto
        }

        deinit { proceso.senal(SIGKILL) }

        struct Fallo: Error { let mensaje: String }

        /// The answers it gives from now on (respuestas.json).
        func responder(_ json: String) throws {
            try json.write(
                toFile: carpeta + "/respuestas.json.tmp", atomically: false, encoding: .utf8)
            _ = rename(carpeta + "/respuestas.json.tmp", carpeta + "/respuestas.json")
        }

        /// Every request it logged, each a JSON object.
        func peticiones(_ fichero: String = "peticiones.jsonl") -> [[String: Any]] {
            let texto =
                (try? String(contentsOfFile: carpeta + "/" + fichero, encoding: .utf8)) ?? ""
            return texto.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        var registro: String {
            (try? String(contentsOfFile: carpeta + "/peticiones.jsonl", encoding: .utf8)) ?? ""
        }
    }

    static let tokenA = String(repeating: "a1", count: 32)
    static let tokenToros = String(repeating: "b2", count: 32)
    static let tokenMuerto = String(repeating: "c3", count: 32)
    static let golesDelPartido1 = [
        "Ana (Rayo FC), minuto 10", "Iván (Toros), minuto 10", "Luis (Rayo FC), minuto 35",
        "Sofía (Toros), minuto 35", "Marta (Rayo FC), minuto 60",
    ]

    /// A scenario with APNs and Web Push configured against fresh stand-ins, notices on.
    static func preparar(_ almacen: String = "SQLite") async throws -> (
        Escenario, Sustituto, Sustituto
    ) {
        if almacen == "PostgreSQL" {
            try #require(
                ServidorPostgres.falta == nil, "PostgreSQL: \(ServidorPostgres.falta ?? "")")
        }
        let escenario =
            almacen == "SQLite"
            ? Escenario() : Escenario(db: try await ServidorPostgres.compartido().baseNueva())
        let p8 = escenario.carpeta + "/AuthKey_ABC123DEFG.p8"
        let openssl = try Proceso(
            ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", p8],
            carpeta: escenario.carpeta, ejecutable: "/usr/bin/openssl")
        #expect(await openssl.esperar().codigo == 0)
        let apns = try await Sustituto(
            "apns.py",
            [
                escenario.carpeta + "/apns", p8, "ABC123DEFG", "DEF123GHIJ",
                "es.ejemplo.marcador",
            ], carpeta: escenario.carpeta + "/apns")
        let push = try await Sustituto(
            "servicio_push.py", [escenario.carpeta + "/push", "2"],
            carpeta: escenario.carpeta + "/push")
        let configurado = try await escenario.marcador(
            "empuje", "apns", "--clave", p8, "--id-clave", "ABC123DEFG", "--equipo",
            "DEF123GHIJ", "--tema", "es.ejemplo.marcador", "--url",
            "https://127.0.0.1:\(apns.puerto)", "--ca", apns.carpeta + "/ca.pem")
        #expect(configurado.codigo == 0, "\(configurado.error)")
        let webpush = try await escenario.marcador(
            "empuje", "webpush", "--contacto", "mailto:operaciones@ejemplo.es", "--ca",
            push.carpeta + "/ca.pem")
        #expect(webpush.codigo == 0, "\(webpush.error)")
        #expect(try await escenario.marcador("avisos", "activar").codigo == 0)
        return (escenario, apns, push)
    }

    @Test(
        .enabled(if: falta == nil, Comment(rawValue: falta ?? "")), .timeLimit(.minutes(3)),
        arguments: ["SQLite", "PostgreSQL"])
    func cadaSeguidorRecibeSusGolesUnaVezYElMuertoSeVa(almacen: String) async throws {
        let (escenario, apns, push) = try await Self.preparar(almacen)
        for argumentos in [
            ["dispositivos", "añadir", "apns", Self.tokenA],
            ["dispositivos", "añadir", "apns", Self.tokenToros, "--equipo", "Toros"],
            ["dispositivos", "añadir", "apns", Self.tokenMuerto],
            [
                "dispositivos", "añadir", "webpush", "--suscripcion",
                push.carpeta + "/suscripcion-1.json",
            ],
        ] {
            let r = try await escenario.marcadorSinDB(["--db", escenario.db] + argumentos)
            #expect(r.codigo == 0 && r.salida.contains("añadido"), "\(r.error)")
        }
        // The dead token says so; the first request to A finds the provider token expired
        // (it is renewed once, and the same notice goes again with the new one).
        try apns.responder(
            #"{"\#(Self.tokenMuerto)": [410, "Unregistered"], "#
                + #""\#(Self.tokenA)": [[403, "ExpiredProviderToken"], [200]]}"#)
        // The push service is busy at first: 429 with Retry-After 1, then it takes them.
        try push.responder(#"{"1": [429, 201]}"#)
        let jugado = try await escenario.marcador("jugar", "1", "--ms-por-minuto", "0")
        #expect(jugado.codigo == 0, "\(jugado.error)")
        // `jugar` leaves retries to other dispatchers: the browser's first goal waits its
        // Retry-After, the later ones behind it; `avisos enviar` delivers them once due.
        var envios: [Int32] = []
        let llegaron = await esperarQue {
            let enviado = try? await escenario.marcador("avisos", "enviar")
            envios.append(enviado?.codigo ?? -1)
            return push.peticiones().filter { $0["respuesta"] as? Int == 201 }.count == 5
        }
        #expect(llegaron, "\(push.registro)")
        #expect(envios.allSatisfy { $0 == 0 }, "\(envios)")

        let peticiones = apns.peticiones()
        // Streams of a few HTTP/2 connections kept open, not a handshake each: at most the
        // four per provider and process of contract.md §20 (9 requests to three devices, one
        // notice sent twice), though `jugar` and `avisos enviar` are two processes.
        let conexiones = Set(peticiones.compactMap { $0["conexion"] as? Int })
        #expect(peticiones.count == 9 && conexiones.count <= 8, "\(apns.registro)")
        for peticion in peticiones {
            #expect(peticion["jwt"] as? String == "verificado", "\(peticion)")
            #expect((peticion["problemas"] as? [String])?.isEmpty == true, "\(peticion)")
        }
        func cuerpos(_ token: String) -> [String] {
            peticiones.filter { $0["token"] as? String == token && $0["respuesta"] as? Int != 403 }
                .compactMap {
                    (($0["carga"] as? [String: Any])?["aps"] as? [String: Any])
                        .flatMap { $0["alert"] as? [String: Any] }?["body"] as? String
                }
        }
        #expect(cuerpos(Self.tokenA) == Self.golesDelPartido1, "\(apns.registro)")
        let primerasDeA = peticiones.filter { $0["token"] as? String == Self.tokenA }.prefix(2)
        #expect(primerasDeA.first?["respuesta"] as? Int == 403)
        #expect(
            primerasDeA.first?["huella_jwt"] as? String != primerasDeA.last?["huella_jwt"]
                as? String)
        #expect(
            (primerasDeA.first?["cabeceras"] as? [String: String])?["apns-id"]
                == (primerasDeA.last?["cabeceras"] as? [String: String])?["apns-id"])
        #expect(
            cuerpos(Self.tokenToros) == ["Iván (Toros), minuto 10", "Sofía (Toros), minuto 35"])
        // The dead token: one request, answered 410, and the device is gone.
        #expect(cuerpos(Self.tokenMuerto).count == 1)
        let lista = try await escenario.marcador("dispositivos", "--json")
        #expect(
            !lista.salida.contains("apns-") || !lista.salida.contains(Self.tokenMuerto.prefix(6)))
        #expect(lista.salida.components(separatedBy: "\"tipo\" : \"apns\"").count - 1 == 2)
        // Headers as §19 asks: one apns-id per notice and device, the collapse id of the goal.
        let deA = peticiones.filter {
            $0["token"] as? String == Self.tokenA && $0["respuesta"] as? Int == 200
        }
        let ids = Set(deA.compactMap { ($0["cabeceras"] as? [String: String])?["apns-id"] })
        #expect(ids.count == 5)
        for peticion in deA {
            let cabeceras = peticion["cabeceras"] as? [String: String] ?? [:]
            #expect(cabeceras["apns-priority"] == "10")
            #expect(cabeceras["apns-push-type"] == "alert")
            #expect(cabeceras["apns-topic"] == "es.ejemplo.marcador")
            #expect((cabeceras["apns-collapse-id"]?.utf8.count ?? 99) <= 64)
            let aps = (peticion["carga"] as? [String: Any])?["aps"] as? [String: Any]
            #expect(aps?["mutable-content"] as? Int == 1)
        }
        // The seeds' attachment is this machine's own file (`semilla:gol.gif`): no phone could
        // fetch it, so no payload names it (an https one does: PeticionesDeEmpujeTests).
        #expect(deA.allSatisfy { ($0["carga"] as? [String: Any])?["adjunto"] == nil })

        // Web Push: decrypted by http_ece, VAPID verified, each goal once.
        let mensajes = push.peticiones()
        for mensaje in mensajes {
            #expect(mensaje["vapid"] as? String == "verificado", "\(mensaje)")
            #expect(mensaje["problema"] is NSNull, "\(mensaje)")
            let cabeceras = mensaje["cabeceras"] as? [String: String] ?? [:]
            #expect(cabeceras["TTL"] == "600" && cabeceras["Urgency"] == "high")
            #expect((cabeceras["Topic"]?.count ?? 99) <= 32)
        }
        #expect(mensajes.first?["respuesta"] as? Int == 429)
        let descifrados = mensajes.filter { $0["respuesta"] as? Int == 201 }.compactMap {
            $0["mensaje"] as? [String: Any]
        }
        #expect(
            descifrados.compactMap { $0["cuerpo"] as? String } == Self.golesDelPartido1,
            "\(push.registro)")
        #expect(
            descifrados.allSatisfy {
                $0["titulo"] as? String == "¡Gol!" && $0["url"] as? String == "/partidos/1"
                    && $0["partido"] as? Int == 1
            })
        #expect(Set(descifrados.compactMap { $0["identificador"] as? String }).count == 5)
    }

    /// A dispatcher killed with SIGKILL while APNs holds a request: nothing is lost, and at most that
    /// request is repeated, under the same `apns-id`.
    @Test(
        .enabled(if: falta == nil, Comment(rawValue: falta ?? "")), .timeLimit(.minutes(3)),
        arguments: ["SQLite", "PostgreSQL"])
    func unKillDuranteLaEntregaNoPierdeNadaYRepiteComoMuchoLaEnVuelo(almacen: String) async throws {
        let (escenario, apns, _) = try await Self.preparar(almacen)
        let r = try await escenario.marcador("dispositivos", "añadir", "apns", Self.tokenA)
        #expect(r.codigo == 0)
        // The first request is answered only after 60 s: the kill lands while it is in flight.
        try apns.responder(#"{"\#(Self.tokenA)": [[200, null, 60], [200]]}"#)
        // `jugar` leaves devices to the serving dispatchers (§20): the one killed is theirs.
        #expect(try await escenario.marcador("jugar", "1", "--ms-por-minuto", "0").codigo == 0)
        let vigilar = try escenario.lanzar("avisos", "vigilar")
        #expect(await esperarQue { !apns.peticiones("recibidas.jsonl").isEmpty })
        #expect(apns.peticiones().isEmpty)
        vigilar.senal(SIGKILL)
        _ = await vigilar.esperar()
        // Other dispatchers take over what the dead one held (a loaded CI run needed more than
        // one drain: the first delivered only the interrupted notice), until every goal is in.
        var envios: [Int32] = []
        let entregados = await esperarQue(limite: .seconds(90)) {
            let enviado = try? await escenario.marcador("avisos", "enviar")
            envios.append(enviado?.codigo ?? -1)
            return apns.peticiones().filter { $0["respuesta"] as? Int == 200 }.count >= 5
        }
        #expect(entregados, "\(apns.registro)")
        #expect(envios.allSatisfy { $0 == 0 }, "\(envios)")
        let respondidas = apns.peticiones()
        let recibidas = apns.peticiones("recibidas.jsonl")
        let cuerpos = respondidas.filter { $0["respuesta"] as? Int == 200 }.compactMap {
            (($0["carga"] as? [String: Any])?["aps"] as? [String: Any])
                .flatMap { $0["alert"] as? [String: Any] }?["body"] as? String
        }
        // Every goal arrived; the in-flight one may have arrived twice, nothing else.
        #expect(Set(cuerpos) == Set(Self.golesDelPartido1), "\(apns.registro)")
        #expect(recibidas.count <= Self.golesDelPartido1.count + 1, "\(recibidas)")
        let ids = recibidas.compactMap { $0["apns-id"] as? String }
        let repetidos = Dictionary(grouping: ids, by: { $0 }).filter { $0.value.count > 1 }
        // marcador never heard the answer to the request in flight, so it sends it again —
        // the same notification to APNs (same apns-id) — and nothing else twice.
        #expect(repetidos.keys.sorted() == [ids.first].compactMap { $0 }, "\(recibidas)")
        #expect(repetidos.values.allSatisfy { $0.count == 2 })
    }

    /// TLS is verified, never switched off: without the stand-in's CA nothing reaches it, and
    /// the log says why.
    @Test(.enabled(if: falta == nil, Comment(rawValue: falta ?? "")), .timeLimit(.minutes(3)))
    func sinLaCAQueLoFirmaNoSeHablaConElServidor() async throws {
        let (escenario, apns, _) = try await Self.preparar()
        let p8 = escenario.carpeta + "/AuthKey_ABC123DEFG.p8"
        let sinCA = try await escenario.marcador(
            "empuje", "apns", "--clave", p8, "--id-clave", "ABC123DEFG", "--equipo",
            "DEF123GHIJ", "--tema", "es.ejemplo.marcador", "--url",
            "https://127.0.0.1:\(apns.puerto)")
        #expect(sinCA.codigo == 0)
        #expect(
            try await escenario.marcador("dispositivos", "añadir", "apns", Self.tokenA).codigo == 0)
        #expect(try await escenario.marcador("jugar", "1", "--ms-por-minuto", "0").codigo == 0)
        // `jugar` may end before its lane tried (a loaded CI run left all 5 pending): a drain
        // tries them for sure (its exit status is not the point here).
        _ = try await escenario.marcador("avisos", "enviar")
        #expect(apns.peticiones().isEmpty)
        let registro = try await escenario.marcador("registro").salida
        #expect(registro.contains("falló la conexión segura (TLS)"), "\(registro)")
    }

    /// Bad input: tokens, subscriptions and keys that are not what they say are refused with
    /// the documented status, and the store is left as it was.
    @Test(.enabled(if: falta == nil, Comment(rawValue: falta ?? "")))
    func entradasMalasSeRechazan() async throws {
        let escenario = Escenario()
        let malo = try await escenario.marcador("dispositivos", "añadir", "apns", "zz\u{7}zz")
        #expect(malo.codigo == 65 && malo.error.contains("token de APNs"), "\(malo.error)")
        let ruta = escenario.carpeta + "/sub.json"
        for contenido in [
            "no es json", #"{"endpoint":"http://x.es/w","keys":{"p256dh":"AA","auth":"AA"}}"#,
            #"{"endpoint":"https://x.es/w","keys":{"p256dh":"BAAA","auth":"BTBZMqHH6r4Tts7J_aSIgg"}}"#,
            String(repeating: "x", count: 20000),
        ] {
            try contenido.write(toFile: ruta, atomically: true, encoding: .utf8)
            let r = try await escenario.marcador(
                "dispositivos", "añadir", "webpush", "--suscripcion", ruta)
            #expect(r.codigo == 65, "\(r.error)")
        }
        let sinFichero = try await escenario.marcador(
            "dispositivos", "añadir", "webpush", "--suscripcion", ruta + ".no")
        #expect(sinFichero.codigo == 66)
        let p8 = escenario.carpeta + "/falsa.p8"
        try "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".write(
            toFile: p8, atomically: true, encoding: .utf8)
        let clave = try await escenario.marcador(
            "empuje", "apns", "--clave", p8, "--id-clave", "ABC123DEFG", "--equipo",
            "DEF123GHIJ", "--tema", "es.ejemplo.marcador")
        #expect(clave.codigo == 65 && clave.error.contains(".p8"), "\(clave.error)")
        let contacto = try await escenario.marcador("empuje", "webpush", "--contacto", "yo")
        #expect(contacto.codigo == 64)
        let quitar = try await escenario.marcador("dispositivos", "quitar", "apns-0000000000")
        #expect(quitar.codigo == 66)
        let lista = try await escenario.marcador("dispositivos", "--json")
        #expect(
            lista.salida.trimmingCharacters(in: .whitespacesAndNewlines) == "[\n\n]"
                || lista.salida.contains("[]"), "\(lista.salida)")
        // Secrets never shown.
        let empuje = try await escenario.marcador("empuje", "--json")
        #expect(!empuje.salida.contains("PRIVATE"))
    }
}

extension EmpujeE2ETests {
    /// The page's own subscription (`servir`): the VAPID key it subscribes with, the
    /// subscription handed over behind the page's Origin and key, goals then pushed to it, and
    /// taken back; never a phone, never from another site.
    @Test(.enabled(if: falta == nil, Comment(rawValue: falta ?? "")), .timeLimit(.minutes(3)))
    func laPaginaSeSuscribeRecibeLosGolesYSeDesuscribe() async throws {
        let (escenario, apns, push) = try await Self.preparar()
        _ = apns
        let servidor = try await ServidorDePrueba(escenario: escenario)
        let configurado = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try await escenario.marcador("empuje", "--json").salida.utf8))
                as? [String: Any])
        let publica = (configurado["webpush"] as? [String: Any])?["clavePublica"] as? String
        #expect(publica?.count == 87)
        #expect(try servidor.get("/empuje/clave").json()?["clave"] as? String == publica)
        let suscripcion = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: push.carpeta + "/suscripcion-2.json")))
                as? [String: Any])
        // Another site's page, or a page without its key, changes nothing.
        let ajeno = try ClienteDePrueba.enviar(
            puerto: servidor.puerto, "/dispositivos", json: suscripcion, clave: servidor.clave,
            origen: "http://malo.example")
        #expect(ajeno.estado == 403)
        let sinClave = try ClienteDePrueba.enviar(
            puerto: servidor.puerto, "/dispositivos", json: suscripcion, clave: nil)
        #expect(sinClave.estado == 403)
        let malo = try servidor.post("/dispositivos", ["endpoint": "http://x.es/w", "keys": [:]])
        #expect(malo.estado == 422)
        let alta = try servidor.post("/dispositivos", suscripcion)
        #expect(alta.estado == 201, "\(alta.texto)")
        let id = try #require(alta.json()?["id"] as? String)
        #expect(id.hasPrefix("web-"))
        #expect(try servidor.post("/dispositivos", suscripcion).estado == 200)
        let jugado = try await escenario.marcador("jugar", "1", "--ms-por-minuto", "0")
        #expect(jugado.codigo == 0)
        #expect(
            await esperarQue {
                push.peticiones().filter { $0["suscripcion"] as? String == "2" }.count == 5
            }, "\(push.registro)")
        let cuerpos = push.peticiones().compactMap {
            ($0["mensaje"] as? [String: Any])?["cuerpo"] as? String
        }
        #expect(cuerpos.sorted() == Self.golesDelPartido1.sorted(), "\(push.registro)")
        // A page takes back a browser's subscription, never a phone.
        let cabeceras = [
            "Origin": "http://127.0.0.1:\(servidor.puerto)", "X-Marcador-Token": servidor.clave,
        ]
        #expect(
            try ClienteDePrueba.pedir(
                puerto: servidor.puerto, "DELETE", "/dispositivos/apns-0000000000",
                cabeceras: cabeceras
            ).estado == 404)
        let baja = try ClienteDePrueba.pedir(
            puerto: servidor.puerto, "DELETE", "/dispositivos/\(id)", cabeceras: cabeceras)
        #expect(baja.estado == 200, "\(baja.texto)")
        #expect(!(try await escenario.marcador("dispositivos", "--json").salida.contains(id)))
        await servidor.parar()
    }
}
