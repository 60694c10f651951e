import Avisos
import Empuje
import Persistencia
import Sistema
import Torneo

/// What `marcador empuje` shows: the provider's settings, never a secret.
public struct EstadoDeEmpuje: Sendable, Encodable {
    public struct APNs: Sendable, Encodable {
        public var equipo: String
        public var idClave: String
        public var tema: String
        public var url: String
        public var ca: String?
    }
    public struct WebPush: Sendable, Encodable {
        /// base64url, for `pushManager.subscribe({applicationServerKey})`.
        public var clavePublica: String
        public var contacto: String
        public var ca: String?
    }
    public var apns: APNs?
    public var webpush: WebPush?
}

/// The push provider's credentials (contract.md §19), stored once for every process that
/// delivers.
extension Nucleo {
    public func credencialesDeEmpuje() throws -> CredencialesDeEmpuje {
        CredencialesDeEmpuje(try tienda.buzon.credenciales())
    }

    public func estadoDeEmpuje() throws -> EstadoDeEmpuje {
        let credenciales = try credencialesDeEmpuje()
        return EstadoDeEmpuje(
            apns: credenciales.apns.map {
                EstadoDeEmpuje.APNs(
                    equipo: $0.equipo, idClave: $0.idClave, tema: $0.tema, url: $0.url, ca: $0.ca)
            },
            webpush: credenciales.webPush.map {
                EstadoDeEmpuje.WebPush(
                    clavePublica: Base64URL.codificar($0.clave.publica), contacto: $0.contacto,
                    ca: $0.ca)
            })
    }

    /// Token-based APNs credentials: the `.p8`'s text is checked (a P-256 PKCS#8 key), the ids
    /// are Apple's 10 characters, the topic a bundle id.
    public func configurarAPNs(
        p8: String, idClave: String, equipo: String, tema: String, url: String?, ca: String?
    ) throws {
        guard (try? ClaveP256(p8: p8)) != nil else {
            throw Fallo.datos(
                "La clave no es un fichero .p8 de APNs (una clave P-256 en PEM, PKCS#8, sin cifrar)."
            )
        }
        func identificador(_ texto: String, _ nombre: String) throws {
            guard texto.utf8.count == 10,
                texto.unicodeScalars.allSatisfy({
                    $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0)
                })
            else {
                throw Fallo.uso(
                    "\(nombre) son 10 letras o cifras, como lo da Apple: no \(citado(texto)).")
            }
        }
        try identificador(idClave, "--id-clave")
        try identificador(equipo, "--equipo")
        guard !tema.isEmpty, tema.utf8.count <= 255,
            tema.unicodeScalars.allSatisfy({
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "."
                        || $0 == "-")
            })
        else {
            throw Fallo.uso(
                "--tema es el identificador de la app (com.ejemplo.marcador), no \(citado(tema)).")
        }
        let destino = url ?? CredencialesDeEmpuje.urlDeAPNs
        guard let direccion = try? DireccionWeb(destino), direccion.esquema == "https",
            direccion.credenciales == nil
        else { throw Fallo.uso("La URL de APNs tiene que ser https://, no \(citado(destino)).") }
        if let ca { try comprobarCA(ca) }
        typealias Clave = CredencialesDeEmpuje.Clave
        try tienda.buzon.guardarCredenciales(
            [
                Clave.apnsP8: p8, Clave.apnsIdClave: idClave, Clave.apnsEquipo: equipo,
                Clave.apnsTema: tema, Clave.apnsURL: destino, Clave.apnsCA: ca,
            ], siFalta: false)
    }

    /// The VAPID identity: a key pair made once (or again with `nuevas`: every browser must
    /// then subscribe again) and the operator's contact.
    /// - Returns: the public key, base64url.
    @discardableResult
    public func configurarWebPush(contacto: String, ca: String?, nuevas: Bool) throws -> String {
        guard contacto.hasPrefix("mailto:") || contacto.hasPrefix("https://"),
            contacto.utf8.count > 8, contacto.utf8.count <= 256, !TextoSeguro.tieneControl(contacto)
        else {
            throw Fallo.uso(
                "El contacto de VAPID es mailto:correo o una URL https:// (RFC 8292), no \(citado(contacto))."
            )
        }
        if let ca { try comprobarCA(ca) }
        typealias Clave = CredencialesDeEmpuje.Clave
        let clave = try ClaveP256.nueva()
        let buzon = tienda.buzon
        // The key pair is written only where there is none (two first runs at once keep one)
        // unless a new one is asked for; contact and CA are always the latest.
        try buzon.guardarCredenciales(
            [Clave.vapidPrivada: Base64URL.codificar(clave.privada)], siFalta: !nuevas)
        let guardadas = try buzon.guardarCredenciales(
            [Clave.vapidContacto: contacto, Clave.webPushCA: ca], siFalta: false)
        guard let publica = CredencialesDeEmpuje(guardadas).webPush?.clave.publica else {
            throw Fallo.datos(
                "La clave VAPID guardada no es válida: créala de nuevo con --claves-nuevas.")
        }
        return Base64URL.codificar(publica)
    }

    private func comprobarCA(_ ruta: String) throws {
        guard let contenido = leerFichero(ruta, maximo: 1 << 20),
            String(decoding: contenido, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----")
        else {
            throw Fallo.noEncontrado("No se puede leer un certificado PEM en \(citado(ruta)).")
        }
    }
}
