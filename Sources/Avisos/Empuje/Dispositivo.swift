import Empuje
import FoundationEssentials

/// What makes a device a device (contract.md §19): an APNs token or a browser's
/// `PushSubscription`, checked before it is stored, and the name it is stored under — derived
/// from the token or endpoint, so the same phone or browser added twice is one device.
public enum Dispositivo {
    /// A browser's subscription, as `PushSubscription.toJSON()` writes it.
    public struct Suscripcion: Sendable, Hashable, Codable {
        public struct Claves: Sendable, Hashable, Codable {
            public var p256dh: String
            public var auth: String
        }
        public var endpoint: String
        public var keys: Claves

        public init(endpoint: String, p256dh: String, auth: String) {
            self.endpoint = endpoint
            self.keys = Claves(p256dh: p256dh, auth: auth)
        }
    }

    /// Why a token or subscription is refused, as a user reads it.
    public enum Fallo: Error, Sendable, Hashable {
        case token
        case json
        case endpoint
        case p256dh
        case auth

        public var mensaje: String {
            switch self {
            case .token:
                "el token de APNs son cifras hexadecimales (de 16 a 200 bytes: 64 cifras en un iPhone)"
            case .json:
                "no es una suscripción de Web Push en JSON (endpoint, keys.p256dh, keys.auth)"
            case .endpoint: "el endpoint de la suscripción tiene que ser una URL https://"
            case .p256dh: "keys.p256dh no es una clave pública P-256 en base64url"
            case .auth: "keys.auth no son 16 bytes en base64url"
            }
        }
    }

    public static func tokenValido(_ token: String) -> Bool {
        let bytes = token.utf8.count / 2
        // Bytes, not characters: an import checks a million of them.
        return token.utf8.count % 2 == 0 && (16...200).contains(bytes)
            && token.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte)
                    || (0x61...0x66).contains(byte)
            }
    }

    /// The token in lower case, checked.
    public static func token(_ texto: String) throws(Fallo) -> String {
        guard tokenValido(texto) else { throw .token }
        // Most tokens come in lower case already: no copy for them.
        return texto.utf8.contains(where: { (0x41...0x46).contains($0) })
            ? texto.lowercased() : texto
    }

    /// A subscription read from its JSON and checked: an https endpoint, a point of the curve,
    /// a 16-byte secret.
    public static func suscripcion(json: [UInt8]) throws(Fallo) -> Suscripcion {
        guard let leida = try? JSONDecoder().decode(Suscripcion.self, from: Data(json)) else {
            throw .json
        }
        try comprobar(leida)
        return leida
    }

    public static func comprobar(_ suscripcion: Suscripcion) throws(Fallo) {
        guard let direccion = try? DireccionWeb(suscripcion.endpoint),
            direccion.esquema == "https", direccion.credenciales == nil,
            suscripcion.endpoint.utf8.count <= 2048
        else { throw .endpoint }
        guard let p256dh = Base64URL.descodificar(suscripcion.keys.p256dh), p256dh.count == 65,
            ClaveP256.esPunto(p256dh)
        else { throw .p256dh }
        guard let auth = Base64URL.descodificar(suscripcion.keys.auth), auth.count == 16 else {
            throw .auth
        }
    }

    /// `apns-1a2b3c4d5e6f7a8b` / `web-1a2b3c4d5e6f7a8b`: the first 64 bits of the SHA-256 of
    /// what the device is. Among a million devices two share an id about once in 36 million
    /// imports; at the 40 bits ids first had (`nombreAntiguo`) it was once in three, and one
    /// phone silently took the other's place.
    public static func nombre(apns token: String) -> String {
        "apns-" + huella(token.lowercased())
    }

    public static func nombre(webPush endpoint: String) -> String {
        "web-" + huella(endpoint)
    }

    /// The 40-bit id the device `nombre` (a 64-bit one) had before: devices stored then keep
    /// it, and adding the same token or endpoint again updates them instead of adding a twin.
    public static func nombreAntiguo(_ nombre: String) -> String {
        String(nombre.dropLast(6))
    }

    /// Whether `nombre` is an id of the first, 40-bit form.
    public static func esNombreAntiguo(_ nombre: String) -> Bool {
        let cifras = nombre.hasPrefix("apns-") ? nombre.utf8.count - 5 : nombre.utf8.count - 4
        return cifras == 10
    }

    private static func huella(_ texto: String) -> String {
        let resumen = Resumen.sha256(Array(texto.utf8))
        // By hand, not `String(_:radix:)` per byte: an import names a million devices.
        return String(unsafeUninitializedCapacity: 16) { salida in
            func cifra(_ valor: UInt8) -> UInt8 { valor < 10 ? 0x30 + valor : 0x57 + valor }
            for (i, byte) in resumen.prefix(8).enumerated() {
                salida[2 * i] = cifra(byte >> 4)
                salida[2 * i + 1] = cifra(byte & 0x0F)
            }
            return 16
        }
    }
}
