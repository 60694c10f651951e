import Empuje

/// The push provider's settings as stored (`credencial`, contract.md §19): APNs' token
/// authentication and the server's VAPID identity. One home for their keys' names.
public struct CredencialesDeEmpuje: Sendable, Hashable {
    public struct APNs: Sendable, Hashable {
        public var clave: ClaveP256
        /// The `.p8`'s key id (`kid`, 10 characters).
        public var idClave: String
        /// The team id (`iss`, 10 characters).
        public var equipo: String
        /// The app's bundle id (`apns-topic`).
        public var tema: String
        /// `https://api.push.apple.com` unless set (`--sandbox`, `--url`).
        public var url: String
        public var ca: String?
    }

    public struct WebPush: Sendable, Hashable {
        public var clave: ClaveP256
        /// VAPID's `sub`: `mailto:…` or `https:…`.
        public var contacto: String
        public var ca: String?
    }

    public var apns: APNs?
    public var webPush: WebPush?

    public static let urlDeAPNs = "https://api.push.apple.com"
    public static let urlDeAPNsDePruebas = "https://api.sandbox.push.apple.com"

    /// The names of the stored keys.
    public enum Clave {
        public static let apnsP8 = "apns.p8"
        public static let apnsIdClave = "apns.id_clave"
        public static let apnsEquipo = "apns.equipo"
        public static let apnsTema = "apns.tema"
        public static let apnsURL = "apns.url"
        public static let apnsCA = "apns.ca"
        public static let vapidPrivada = "vapid.privada"
        public static let vapidContacto = "vapid.contacto"
        public static let webPushCA = "webpush.ca"
    }

    public init(apns: APNs? = nil, webPush: WebPush? = nil) {
        self.apns = apns
        self.webPush = webPush
    }

    /// What the stored keys say; a part whose keys are missing or unreadable is `nil`.
    public init(_ valores: [String: String]) {
        if let p8 = valores[Clave.apnsP8], let clave = try? ClaveP256(p8: p8),
            let idClave = valores[Clave.apnsIdClave], let equipo = valores[Clave.apnsEquipo],
            let tema = valores[Clave.apnsTema]
        {
            apns = APNs(
                clave: clave, idClave: idClave, equipo: equipo, tema: tema,
                url: valores[Clave.apnsURL] ?? Self.urlDeAPNs, ca: valores[Clave.apnsCA])
        }
        if let privada = valores[Clave.vapidPrivada].flatMap(Base64URL.descodificar),
            let clave = try? ClaveP256(privada: privada),
            let contacto = valores[Clave.vapidContacto]
        {
            webPush = WebPush(clave: clave, contacto: contacto, ca: valores[Clave.webPushCA])
        }
    }
}
