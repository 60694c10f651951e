import Empuje
import FoundationEssentials
import Torneo

/// One browser's push subscription (contract.md §19): the notice encrypted for it alone
/// (RFC 8291), signed for its push service (RFC 8292 VAPID), delivered even with the page
/// closed; the page's service worker shows it and a click opens the match.
public struct CanalWebPush: Notificador {
    public let canal: String
    let endpoint: DireccionWeb
    let p256dh: [UInt8]
    let auth: [UInt8]
    let credenciales: CredencialesDeEmpuje.WebPush
    let limite: Double
    let ahora: @Sendable () -> Double
    /// Which of this process's connections to the push service carries it (contract.md §20:
    /// several per provider).
    let conexion: Int

    /// VAPID's `exp`: 12 hours ahead (RFC 8292 allows at most 24).
    public static let vigenciaDeVAPID: Double = 12 * 3600

    public init(
        canal: String, endpoint: DireccionWeb, p256dh: [UInt8], auth: [UInt8],
        credenciales: CredencialesDeEmpuje.WebPush, limite: Double = 10, conexion: Int = 0,
        ahora: @escaping @Sendable () -> Double
    ) {
        self.conexion = conexion
        self.canal = canal
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
        self.credenciales = credenciales
        self.limite = limite
        self.ahora = ahora
    }

    /// What the service worker receives, decrypted: enough to show the notice and open its
    /// match.
    struct Mensaje: Encodable {
        var titulo: String
        var cuerpo: String
        var identificador: String
        var partido: Int?
        var tipo: String
        var url: String
        var tranquilo: Bool?
        var adjunto: String?
    }

    static func mensaje(_ aviso: AvisoDeGol) -> [UInt8] {
        let dePartido = aviso.tipo.esDePartido
        return DocumentoDeEmpuje.json(
            Mensaje(
                titulo: aviso.titulo, cuerpo: aviso.cuerpo, identificador: aviso.identificador,
                partido: dePartido ? aviso.partidoId : nil, tipo: aviso.tipo.rawValue,
                url: dePartido ? "/partidos/\(aviso.partidoId)" : "/",
                tranquilo: aviso.tranquilo ? true : nil,
                adjunto: DocumentoDeEmpuje.adjunto(aviso)))
    }

    /// The push service's origin, VAPID's `aud`.
    var origen: String {
        let puerto = endpoint.puerto.map { ":\($0)" } ?? ""
        return "\(endpoint.esquema)://\(endpoint.anfitrion)\(puerto)"
    }

    func peticion(_ aviso: AvisoDeGol) throws -> PeticionHTTP {
        let cuerpo: [UInt8]
        do {
            cuerpo = try CifradoWebPush.cifrar(Self.mensaje(aviso), p256dh: p256dh, auth: auth)
        } catch {
            throw FalloDeEntrega(
                "no se pudo cifrar el aviso para esta suscripción (\(error))", reintentable: false)
        }
        var peticion = PeticionHTTP(
            url: endpoint.sinCredenciales, metodo: "POST", cabeceras: try cabeceras(aviso),
            cuerpo: cuerpo, limite: limite, maximoDeBytes: 16 * 1024)
        peticion.ca = credenciales.ca
        peticion.http2 = endpoint.esquema == "https"
        return peticion
    }

    /// Every header but the body's: the same for every subscription of one push service.
    func cabeceras(_ aviso: AvisoDeGol) throws(FalloDeEntrega) -> [(String, String)] {
        let jwt: String
        do {
            jwt = try FirmanteVAPID.compartido.token(
                origen: origen, credenciales: credenciales, ahora: ahora())
        } catch {
            throw FalloDeEntrega(
                "no se pudo firmar el token VAPID (\(error))", reintentable: false)
        }
        let urgente = !aviso.tranquilo && [.gol, .anulado, .corregido, .roja].contains(aviso.tipo)
        return [
            (
                "Authorization",
                "vapid t=\(jwt), k=\(Base64URL.codificar(credenciales.clave.publica))"
            ),
            ("Content-Encoding", "aes128gcm"),
            ("Content-Type", "application/octet-stream"),
            ("TTL", String(Int(AvisoDeGol.tiempoDeVida))),
            ("Urgency", aviso.tranquilo ? "low" : urgente ? "high" : "normal"),
            ("Topic", DocumentoDeEmpuje.colapso(aviso, maximo: 32)),
        ]
    }

    public func notificarGol(_ aviso: AvisoDeGol) async throws {
        let respuesta: RespuestaHTTP
        do {
            let pedida = try peticion(aviso)
            if pedida.http2,
                let conexion = ConexionHTTP2.para(
                    origen: origen, ca: credenciales.ca, indice: conexion)
            {
                respuesta = try await conexion.enviar(pedida)
            } else {
                respuesta = try await ClienteHTTP.enviar(pedida)
            }
        } catch let fallo as FalloHTTP {
            throw FalloDeEntrega("Web Push: \(fallo)", reintentable: true)
        }
        if case .fallo(let fallo) = Self.desenlace(
            codigo: respuesta.codigo, descripcion: CanalWebhook.describir(respuesta),
            reintentarTras: respuesta.reintentarTras)
        {
            throw fallo
        }
    }

    /// What the push service's answer means (contract.md §19), whoever sent the request.
    static func desenlace(codigo: Int, descripcion: String, reintentarTras: Double? = nil)
        -> DesenlaceDeLote
    {
        switch codigo {
        case 200..<300:
            return .entregada
        case 404, 410:
            return .fallo(
                FalloDeEntrega(
                    "Web Push \(codigo): suscripción retirada", reintentable: false,
                    destinoRetirado: true))
        case 408, 429, 500..<600, 0:
            return .fallo(
                FalloDeEntrega(
                    "Web Push: " + descripcion, reintentable: true, reintentarTras: reintentarTras))
        default:
            return .fallo(FalloDeEntrega("Web Push: " + descripcion, reintentable: false))
        }
    }
}

extension CanalWebPush: NotificadorEnLote {
    /// Only https endpoints speak HTTP/2 (the batch's transport); others go one by one.
    public var claveDeLote: String? {
        endpoint.esquema == "https" ? "webpush \(origen) \(credenciales.ca ?? "")" : nil
    }

    public func destinoDeLote() throws(FalloDeEntrega) -> DestinoH2 {
        DestinoH2(
            anfitrion: endpoint.anfitrion.trimmingCharacters(in: "[]"),
            puerto: endpoint.puertoEfectivo, ca: credenciales.ca)
    }

    public func peticionDeLote(_ aviso: AvisoDeGol, comun: ComunDeLote, rechazado: String?)
        throws(FalloDeEntrega) -> PeticionH2
    {
        let variante = "\(aviso.claveDeIdempotencia) \(aviso.tipo.rawValue) \(aviso.tranquilo)"
        let (cabeceras, mensaje): ([(String, String)], [UInt8]) = try comun.valor(variante) {
            () throws(FalloDeEntrega) in (try self.cabeceras(aviso), Self.mensaje(aviso))
        }
        // A new key and salt for each subscription: the one part that is never shared.
        let cuerpo: [UInt8]
        do {
            cuerpo = try CifradoWebPush.cifrar(mensaje, p256dh: p256dh, auth: auth)
        } catch {
            throw FalloDeEntrega(
                "no se pudo cifrar el aviso para esta suscripción (\(error))", reintentable: false)
        }
        let resto = endpoint.resto.isEmpty ? "/" : endpoint.resto
        return PeticionH2(
            ruta: resto.split(separator: "#", maxSplits: 1).first.map(String.init) ?? resto,
            variante: variante, cabeceras: cabeceras, cuerpo: cuerpo)
    }

    public func desenlace(_ respuesta: RespuestaH2, de peticion: PeticionH2, renovado: Bool)
        -> DesenlaceDeLote
    {
        let descripcion =
            respuesta.codigo == 0
            ? respuesta.razon
            : respuesta.razon.isEmpty
                ? "HTTP \(respuesta.codigo)"
                : "HTTP \(respuesta.codigo): \(TextoSeguro.limpio(String(respuesta.razon.prefix(80))))"
        return Self.desenlace(
            codigo: respuesta.codigo, descripcion: descripcion,
            reintentarTras: respuesta.reintentarTras)
    }
}
