import Empuje
import Foundation
import Synchronization
import Testing
import Torneo

@testable import Avisos

/// What APNs and a push service are sent (contract.md §19), built without a network: the
/// headers of a goal and of one in quiet hours, a goal and its annulment sharing their collapse
/// key, a stable `apns-id`, the provider token reused and renewed, VAPID signed for the
/// endpoint's origin. The wire itself is proved against the stand-ins (EmpujeE2ETests).
@Suite("Peticiones de APNs y Web Push")
struct PeticionesDeEmpujeTests {
    static let ahora: Double = 1_796_480_000

    static func aviso(
        tipo: TipoDeAviso = .gol, tranquilo: Bool = false,
        cuerpo: String = "Iván (Toros), minuto 10"
    )
        -> AvisoDeGol
    {
        AvisoDeGol(
            identificador: "gol-10-Iván", titulo: tipo == .gol ? "¡Gol!" : "Gol anulado",
            cuerpo: cuerpo, partidoId: 1, minuto: MinutoDeJuego(10), jugador: "Iván",
            equipo: "Toros", marcador: Marcador(local: 1, visitante: 1),
            adjunto: "https://cdn.example/gol.gif", ejecucion: 7, tipo: tipo, tranquilo: tranquilo)
    }

    static func credenciales() throws -> CredencialesDeEmpuje.APNs {
        CredencialesDeEmpuje.APNs(
            clave: try ClaveP256.nueva(), idClave: "ABC123DEFG", equipo: "DEF123GHIJ",
            tema: "es.ejemplo.marcador", url: "https://127.0.0.1:8443/", ca: "/tmp/ca.pem")
    }

    func cabeceras(_ peticion: PeticionHTTP) -> [String: String] {
        Dictionary(peticion.cabeceras, uniquingKeysWith: { _, ultimo in ultimo })
    }

    @Test func apnsLlevaLasCabecerasDelContrato() throws {
        let credenciales = try Self.credenciales()
        let canal = CanalDispositivoAPNs(
            canal: "apns-1", token: "ab12", credenciales: credenciales, ahora: { Self.ahora })
        let peticion = try canal.peticion(Self.aviso(), token: "jwt")
        #expect(peticion.url == "https://127.0.0.1:8443/3/device/ab12")
        #expect(peticion.http2 && peticion.ca == "/tmp/ca.pem")
        let normal = cabeceras(peticion)
        #expect(normal["authorization"] == "bearer jwt")
        #expect(normal["apns-topic"] == "es.ejemplo.marcador")
        #expect(normal["apns-push-type"] == "alert")
        #expect(normal["apns-priority"] == "10")
        #expect(normal["apns-expiration"] == String(Int(Self.ahora) + 600))
        let carga = try #require(
            try JSONSerialization.jsonObject(with: Data(peticion.cuerpo ?? [])) as? [String: Any])
        let aps = try #require(carga["aps"] as? [String: Any])
        #expect(aps["mutable-content"] as? Int == 1)
        #expect(aps["sound"] as? String == "default")
        #expect(aps["interruption-level"] == nil)
        #expect((aps["alert"] as? [String: String])?["body"] == "Iván (Toros), minuto 10")
        #expect(carga["adjunto"] as? String == "https://cdn.example/gol.gif")
        #expect(carga["partido"] as? Int == 1)
        // Quiet hours: priority 5, passive, no sound.
        let tranquila = try canal.peticion(Self.aviso(tranquilo: true), token: "jwt")
        #expect(cabeceras(tranquila)["apns-priority"] == "5")
        let apsTranquila = try #require(
            (try JSONSerialization.jsonObject(with: Data(tranquila.cuerpo ?? [])) as? [String: Any])?[
                "aps"] as? [String: Any])
        #expect(apsTranquila["interruption-level"] as? String == "passive")
        #expect(apsTranquila["sound"] == nil)
        // The annulment replaces its goal's alert (same collapse id), as another notification
        // (another apns-id); the same notice to another device is another apns-id too.
        let anulada = cabeceras(try canal.peticion(Self.aviso(tipo: .anulado), token: "jwt"))
        #expect(anulada["apns-collapse-id"] == normal["apns-collapse-id"])
        #expect((normal["apns-collapse-id"]?.utf8.count ?? 99) <= 64)
        #expect(anulada["apns-id"] != normal["apns-id"])
        #expect(
            cabeceras(try canal.peticion(Self.aviso(), token: "otro"))["apns-id"]
                == normal["apns-id"])
        let otro = CanalDispositivoAPNs(
            canal: "apns-2", token: "cd34", credenciales: credenciales, ahora: { Self.ahora })
        #expect(
            cabeceras(try otro.peticion(Self.aviso(), token: "jwt"))["apns-id"] != normal["apns-id"]
        )
        #expect(normal["apns-id"]?.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
    }

    @Test func soloSeNombraUnAdjuntoQueElTelefonoPuedeDescargar() throws {
        let privado = AvisoDeGol(
            identificador: "gol-35-Luis", titulo: "¡Gol!", cuerpo: "Luis (Rayo FC), minuto 35",
            partidoId: 1, minuto: MinutoDeJuego(35), jugador: "Luis", equipo: "Rayo FC",
            marcador: Marcador(local: 2, visitante: 1), adjunto: "semilla:gol.gif")
        #expect(DocumentoDeEmpuje.adjunto(privado) == nil)
        #expect(DocumentoDeEmpuje.adjunto(Self.aviso()) == "https://cdn.example/gol.gif")
        let conClave = AvisoDeGol(
            identificador: "x", titulo: "¡Gol!", cuerpo: "x", partidoId: 1,
            minuto: MinutoDeJuego(1), jugador: "x", equipo: "x",
            marcador: Marcador(local: 1, visitante: 0),
            adjunto: "https://yo:secreto@cdn.example/a.gif")
        #expect(DocumentoDeEmpuje.adjunto(conClave) == "https://cdn.example/a.gif")
    }

    @Test func unAvisoDeMasDe4096BytesNoSaleNiSeReintenta() throws {
        let canal = CanalDispositivoAPNs(
            canal: "apns-1", token: "ab12", credenciales: try Self.credenciales(),
            ahora: { Self.ahora })
        let enorme = Self.aviso(cuerpo: String(repeating: "g", count: 5000))
        #expect {
            try canal.peticion(enorme, token: "jwt")
        } throws: { error in
            (error as? FalloDeEntrega)?.reintentable == false
        }
    }

    @Test func elTokenDelProveedorSeReutilizaYSeRenueva() throws {
        let reloj = Mutex(Self.ahora)
        let credenciales = try Self.credenciales()
        let firmante = FirmanteAPNs(credenciales, ahora: { reloj.withLock { $0 } })
        let primero = try firmante.token()
        #expect(JWT.verificar(primero, publica: credenciales.clave.publica))
        reloj.withLock { $0 += 49 * 60 }
        #expect(try firmante.token() == primero)
        // APNs called it expired: a new one at once; a stale rejection (another delivery
        // already renewed it) keeps the new one.
        let segundo = try firmante.token(rechazado: primero)
        #expect(segundo != primero)
        #expect(try firmante.token(rechazado: primero) == segundo)
        reloj.withLock { $0 += 50 * 60 }
        #expect(try firmante.token() != segundo)
    }

    @Test func webPushCifraYFirmaParaElOrigenDelServicio() throws {
        let vapid = try ClaveP256.nueva()
        let suscriptor = try ClaveP256.nueva()
        let canal = CanalWebPush(
            canal: "web-1", endpoint: try DireccionWeb("https://push.example:8443/w/abc?x=1"),
            p256dh: suscriptor.publica, auth: Array(repeating: 7, count: 16),
            credenciales: CredencialesDeEmpuje.WebPush(
                clave: vapid, contacto: "mailto:ops@ejemplo.es", ca: nil),
            ahora: { Self.ahora })
        let peticion = try canal.peticion(Self.aviso())
        let normal = cabeceras(peticion)
        #expect(normal["TTL"] == "600")
        #expect(normal["Urgency"] == "high")
        #expect(normal["Content-Encoding"] == "aes128gcm")
        #expect((normal["Topic"]?.count ?? 99) <= 32)
        #expect(
            cabeceras(try canal.peticion(Self.aviso(tipo: .anulado)))["Topic"] == normal["Topic"])
        #expect(cabeceras(try canal.peticion(Self.aviso(tranquilo: true)))["Urgency"] == "low")
        // Authorization: vapid t=<JWT>, k=<the public key>.
        let autorizacion = try #require(normal["Authorization"])
        let partes = autorizacion.dropFirst("vapid ".count).split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let token = try #require(partes.first { $0.hasPrefix("t=") }).dropFirst(2)
        #expect(partes.contains("k=" + Base64URL.codificar(vapid.publica)))
        #expect(JWT.verificar(String(token), publica: vapid.publica))
        let reclamaciones = try #require(
            Base64URL.descodificar(String(token.split(separator: ".")[1])))
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(reclamaciones)) as? [String: Any])
        #expect(json["aud"] as? String == "https://push.example:8443")
        #expect(json["exp"] as? Int == Int(Self.ahora) + 12 * 3600)
        #expect(json["sub"] as? String == "mailto:ops@ejemplo.es")
        // One aes128gcm record: salt, record size 4096, the sender's 65-byte key, ciphertext.
        let cuerpo = try #require(peticion.cuerpo)
        #expect(Array(cuerpo[16..<21]) == [0, 0, 0x10, 0, 65])
        #expect(cuerpo[21] == 0x04)
        #expect(Array(cuerpo[22..<86]) != Array(suscriptor.publica[1...]))
    }
}

extension PeticionesDeEmpujeTests {
    /// A notice's `apns-id` on a device never changes from one version to the next: a repeat
    /// after an upgrade mid-fan-out must still be the same notification to APNs. The values
    /// are the SHA-256 of «clave tipo canal», its first 16 bytes as an upper-case UUID.
    @Test func elApnsIDDeUnAvisoEnUnDispositivoNoCambia() throws {
        let credenciales = try Self.credenciales()
        let canal = CanalDispositivoAPNs(
            canal: "apns-1", token: "ab12", credenciales: credenciales, ahora: { Self.ahora })
        // Python's hashlib of «marcador-1-7-gol-10-Iv%C3%A1n gol apns-1» gives the same.
        #expect(canal.apnsID(Self.aviso()) == "8B1879BD-3A46-229E-82C2-D6C96C71ADB0")
        #expect(
            canal.apnsID(Self.aviso(tipo: .anulado)) == "C2F8EC6D-2D84-2773-B37E-C9BF57EAF59C")
        // The batch's request carries the same one, and its path, whatever the shared part.
        let comun = ComunDeLote()
        for aviso in [Self.aviso(), Self.aviso(tranquilo: true), Self.aviso()] {
            let lote = try canal.peticionDeLote(aviso, comun: comun, rechazado: nil)
            #expect(lote.propia?.1 == "8B1879BD-3A46-229E-82C2-D6C96C71ADB0")
            #expect(lote.ruta == "/3/device/ab12")
            let suelta = cabeceras(try canal.peticion(aviso, token: lote.credencial ?? ""))
            #expect(
                Dictionary(lote.cabeceras, uniquingKeysWith: { _, b in b })
                    == suelta.filter { $0.key != "apns-id" })
        }
    }

    /// Requests that share headers share a variant, and only those: quiet hours and another
    /// notice are others.
    @Test func lasVariantesDeUnLoteSeparanLoQueCambiaLasCabeceras() throws {
        let canal = CanalDispositivoAPNs(
            canal: "apns-1", token: "ab12", credenciales: try Self.credenciales(),
            ahora: { Self.ahora })
        let otro = CanalDispositivoAPNs(
            canal: "apns-2", token: "cd34", credenciales: try Self.credenciales(),
            ahora: { Self.ahora })
        let comun = ComunDeLote()
        let uno = try canal.peticionDeLote(Self.aviso(), comun: comun, rechazado: nil)
        let dos = try otro.peticionDeLote(Self.aviso(), comun: comun, rechazado: nil)
        let tranquila = try canal.peticionDeLote(
            Self.aviso(tranquilo: true), comun: comun, rechazado: nil)
        let anulada = try canal.peticionDeLote(
            Self.aviso(tipo: .anulado), comun: comun, rechazado: nil)
        #expect(uno.variante == dos.variante)
        #expect(Set([uno.variante, tranquila.variante, anulada.variante]).count == 3)
    }
}
