import Empuje
import FoundationEssentials
import Torneo

/// One iPhone, through APNs' provider API over HTTP/2 (contract.md §19): the alert with
/// `mutable-content` and the attachment's URL for the app's Notification Service Extension
/// (lesson 002), replaced in place by a correction (`apns-collapse-id`).
public struct CanalDispositivoAPNs: Notificador {
    public let canal: String
    let token: String
    let credenciales: CredencialesDeEmpuje.APNs
    let firmante: FirmanteAPNs
    let limite: Double
    let ahora: @Sendable () -> Double
    /// Which of this process's connections to APNs carries it (contract.md §20: several per
    /// provider, each up to the server's stream limit).
    let conexion: Int

    /// APNs' limit for an alert's payload.
    public static let maximoDeCarga = 4096

    public init(
        canal: String, token: String, credenciales: CredencialesDeEmpuje.APNs,
        limite: Double = 10, conexion: Int = 0, ahora: @escaping @Sendable () -> Double
    ) {
        self.conexion = conexion
        self.canal = canal
        self.token = token
        self.credenciales = credenciales
        self.firmante = FirmanteAPNs.compartido(credenciales, ahora: ahora)
        self.limite = limite
        self.ahora = ahora
    }

    /// The JSON payload: `aps` as iOS reads it, and the notice's own fields beside it for the
    /// app (identifier, match, kind, attachment).
    struct Carga: Encodable {
        struct Alerta: Encodable {
            var title: String
            var body: String
        }
        struct APS: Encodable {
            var alert: Alerta
            var mutableContent = 1
            var threadId: String
            var sound: String?
            var interruptionLevel: String?

            enum CodingKeys: String, CodingKey {
                case alert, sound
                case mutableContent = "mutable-content"
                case threadId = "thread-id"
                case interruptionLevel = "interruption-level"
            }
        }
        var aps: APS
        var identificador: String
        var partido: Int
        var tipo: String
        var adjunto: String?
    }

    static func carga(_ aviso: AvisoDeGol) -> [UInt8] {
        DocumentoDeEmpuje.json(
            Carga(
                aps: Carga.APS(
                    alert: Carga.Alerta(title: aviso.titulo, body: aviso.cuerpo),
                    threadId: "partido-\(aviso.partidoId)",
                    sound: aviso.tranquilo ? nil : "default",
                    interruptionLevel: aviso.tranquilo ? "passive" : nil),
                identificador: aviso.identificador, partido: aviso.partidoId,
                tipo: aviso.tipo.rawValue,
                adjunto: DocumentoDeEmpuje.adjunto(aviso)))
    }

    /// `apns-id`: the same for the same notice on the same device, whoever sends it, so a
    /// repeat after a crash is the same notification to APNs and in its logs.
    func apnsID(_ aviso: AvisoDeGol) -> String {
        Self.apnsID(prefijo: Self.prefijoDeApnsID(aviso), canal: canal)
    }

    /// What the `apns-id` of `aviso` hashes before the device's id: the same for a whole batch.
    static func prefijoDeApnsID(_ aviso: AvisoDeGol) -> [UInt8] {
        Array("\(aviso.claveDeIdempotencia) \(aviso.tipo.rawValue) ".utf8)
    }

    /// The first 16 bytes of the SHA-256 of `prefijo` and `canal`, as an upper-case UUID.
    static func apnsID(prefijo: [UInt8], canal: String) -> String {
        let resumen = Resumen.sha256(prefijo + Array(canal.utf8))
        var texto: [UInt8] = []
        texto.reserveCapacity(36)
        for (i, byte) in resumen.prefix(16).enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { texto.append(UInt8(ascii: "-")) }
            texto.append(cifras[Int(byte >> 4)])
            texto.append(cifras[Int(byte & 0xF)])
        }
        return String(decoding: texto, as: UTF8.self)
    }

    private static let cifras = Array("0123456789ABCDEF".utf8)

    /// APNs' scheme, host and port: every device of this process shares one connection there.
    var origen: String {
        guard let direccion = try? DireccionWeb(credenciales.url) else { return credenciales.url }
        return "\(direccion.esquema)://\(direccion.anfitrion):\(direccion.puertoEfectivo)"
    }

    func peticion(_ aviso: AvisoDeGol, token jwt: String) throws -> PeticionHTTP {
        let carga = Self.carga(aviso)
        guard carga.count <= Self.maximoDeCarga else {
            throw FalloDeEntrega(
                "el aviso ocupa \(carga.count) bytes, más de los \(Self.maximoDeCarga) de APNs",
                reintentable: false)
        }
        let base =
            credenciales.url.hasSuffix("/") ? String(credenciales.url.dropLast()) : credenciales.url
        var peticion = PeticionHTTP(
            url: "\(base)/3/device/\(token)", metodo: "POST",
            cabeceras: [
                ("authorization", "bearer \(jwt)"),
                ("apns-topic", credenciales.tema),
                ("apns-push-type", "alert"),
                ("apns-priority", aviso.tranquilo ? "5" : "10"),
                ("apns-expiration", String(Int(ahora() + AvisoDeGol.tiempoDeVida))),
                ("apns-collapse-id", DocumentoDeEmpuje.colapso(aviso, maximo: 64)),
                ("apns-id", apnsID(aviso)),
                ("content-type", "application/json"),
            ], cuerpo: carga, limite: limite, maximoDeBytes: 16 * 1024)
        peticion.http2 = true
        peticion.ca = credenciales.ca
        return peticion
    }

    public func notificarGol(_ aviso: AvisoDeGol) async throws {
        var rechazado: String?
        // At most two tries: a second only after 403 ExpiredProviderToken, with a new token.
        for _ in 0..<2 {
            let jwt: String
            do {
                jwt = try firmante.token(rechazado: rechazado)
            } catch {
                throw FalloDeEntrega("no se pudo firmar el token de APNs", reintentable: false)
            }
            let respuesta: RespuestaHTTP
            do {
                let pedida = try peticion(aviso, token: jwt)
                if let conexion = ConexionHTTP2.para(
                    origen: origen, ca: credenciales.ca, indice: conexion)
                {
                    respuesta = try await conexion.enviar(pedida)
                } else {
                    respuesta = try await ClienteHTTP.enviar(pedida)
                }
            } catch let fallo as FalloHTTP {
                // No answer: the same apns-id makes a repeat the same notification.
                throw FalloDeEntrega("APNs: \(fallo)", reintentable: true)
            }
            switch Self.desenlace(
                codigo: respuesta.codigo, razon: Self.razon(respuesta),
                reintentarTras: respuesta.reintentarTras, token: jwt, renovado: rechazado != nil)
            {
            case .entregada: return
            case .fallo(let fallo): throw fallo
            case .renovar(let refused): rechazado = refused
            }
        }
        throw FalloDeEntrega(
            "APNs 403 ExpiredProviderToken con un token nuevo", reintentable: false)
    }

    /// What APNs' answer means (contract.md §19), whoever sent the request.
    static func desenlace(
        codigo: Int, razon: String?, reintentarTras: Double?, token: String, renovado: Bool
    ) -> DesenlaceDeLote {
        switch (codigo, razon) {
        case (200, _):
            return .entregada
        case (403, "ExpiredProviderToken") where !renovado:
            return .renovar(rechazado: token)
        case (403, "ExpiredProviderToken"):
            return .fallo(
                FalloDeEntrega(
                    "APNs 403 ExpiredProviderToken con un token nuevo", reintentable: false))
        case (410, _), (400, "BadDeviceToken"):
            return .fallo(
                FalloDeEntrega(
                    "APNs \(codigo) \(razon ?? ""): dispositivo retirado", reintentable: false,
                    destinoRetirado: true))
        case (429, _), (500, _), (503, _):
            return .fallo(
                FalloDeEntrega(
                    "APNs \(codigo)\(razon.map { " \($0)" } ?? "")", reintentable: true,
                    reintentarTras: reintentarTras))
        default:
            return .fallo(
                FalloDeEntrega(
                    "APNs \(codigo)\(razon.map { " \($0)" } ?? "")", reintentable: false))
        }
    }

    /// APNs' `reason`, from its JSON error body; only letters (it is shown and logged).
    static func razon(_ respuesta: RespuestaHTTP) -> String? {
        guard respuesta.codigo != 200 else { return nil }
        struct Error: Decodable { var reason: String? }
        guard let razon = try? JSONDecoder().decode(Error.self, from: Data(respuesta.cuerpo)).reason
        else { return nil }
        return limpia(razon)
    }

    static func limpia(_ razon: String) -> String? {
        let limpia = String(razon.unicodeScalars.filter { $0.properties.isAlphabetic }.prefix(64))
        return limpia.isEmpty ? nil : limpia
    }
}

extension CanalDispositivoAPNs: NotificadorEnLote {
    public var claveDeLote: String? { "apns \(credenciales.url) \(credenciales.ca ?? "")" }

    public func destinoDeLote() throws(FalloDeEntrega) -> DestinoH2 {
        guard let direccion = try? DireccionWeb(credenciales.url), direccion.esquema == "https"
        else {
            throw FalloDeEntrega("APNs: la dirección no es https://", reintentable: false)
        }
        return DestinoH2(
            anfitrion: direccion.anfitrion.trimmingCharacters(in: "[]"),
            puerto: direccion.puertoEfectivo, ca: credenciales.ca)
    }

    public func peticionDeLote(_ aviso: AvisoDeGol, comun: ComunDeLote, rechazado: String?)
        throws(FalloDeEntrega) -> PeticionH2
    {
        let firmante = self.firmante
        let jwt: String = try comun.valor("jwt \(rechazado ?? "")") { () throws(FalloDeEntrega) in
            do {
                return try firmante.token(rechazado: rechazado)
            } catch {
                throw FalloDeEntrega("no se pudo firmar el token de APNs", reintentable: false)
            }
        }
        // What the shared part depends on. The token is the one `rechazado` gives in this
        // batch, so naming that names it: a 200-byte JWT hashed twice per device was a tenth
        // of a million-device fan-out.
        let variante =
            "\(aviso.claveDeIdempotencia) \(aviso.tipo.rawValue) \(aviso.tranquilo) \(rechazado ?? "")"
        // The shared part is what `peticion` would build for any device, its path and
        // apns-id aside.
        let (cabeceras, carga, prefijo, id): ([(String, String)], [UInt8], String, [UInt8]) =
            try comun.valor(variante) {
                () throws(FalloDeEntrega) in
                let peticion: PeticionHTTP
                do {
                    peticion = try self.peticion(aviso, token: jwt)
                } catch let fallo as FalloDeEntrega {
                    throw fallo
                } catch {
                    throw FalloDeEntrega("\(error)", reintentable: false)
                }
                let prefijo =
                    (try? DireccionWeb(credenciales.url)).map { direccion in
                        let ruta =
                            direccion.resto.hasSuffix("/")
                            ? String(direccion.resto.dropLast()) : direccion.resto
                        return ruta
                    } ?? ""
                return (
                    peticion.cabeceras.filter { $0.0 != "apns-id" }, peticion.cuerpo ?? [], prefijo,
                    Self.prefijoDeApnsID(aviso)
                )
            }
        return PeticionH2(
            ruta: "\(prefijo)/3/device/\(token)", variante: variante, cabeceras: cabeceras,
            propia: ("apns-id", Self.apnsID(prefijo: id, canal: canal)), cuerpo: carga,
            credencial: jwt)
    }

    public func desenlace(_ respuesta: RespuestaH2, de peticion: PeticionH2, renovado: Bool)
        -> DesenlaceDeLote
    {
        guard respuesta.codigo != 0 else {
            // No answer: the same apns-id makes a repeat the same notification.
            return .fallo(FalloDeEntrega("APNs: \(respuesta.razon)", reintentable: true))
        }
        return Self.desenlace(
            codigo: respuesta.codigo,
            razon: respuesta.codigo == 200 ? nil : Self.limpia(respuesta.razon),
            reintentarTras: respuesta.reintentarTras, token: peticion.credencial ?? "",
            renovado: renovado)
    }
}
