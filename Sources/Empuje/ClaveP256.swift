import CCifrado

/// A P-256 key pair that signs (ES256): the provider's APNs key (Apple's `.p8`) or the
/// server's VAPID key. The private scalar never leaves this value except to the store.
public struct ClaveP256: Sendable, Hashable {
    /// The private scalar, 32 bytes.
    public let privada: [UInt8]
    /// The uncompressed public point, 65 bytes (0x04 || X || Y): VAPID's `k`.
    public let publica: [UInt8]

    public enum Fallo: Error, Equatable {
        /// Not a PEM PKCS#8 P-256 private key.
        case noEsUnaClaveP256
        case libcrypto
    }

    /// A new key from OpenSSL's CSPRNG.
    public static func nueva() throws(Fallo) -> ClaveP256 {
        var privada = [UInt8](repeating: 0, count: 32)
        var publica = [UInt8](repeating: 0, count: 65)
        guard cifrado_generar_p256(&privada, &publica) == 1 else { throw .libcrypto }
        return ClaveP256(privada: privada, publica: publica)
    }

    /// The key of a stored scalar; refused when it is not one of the curve's.
    public init(privada: [UInt8]) throws(Fallo) {
        var publica = [UInt8](repeating: 0, count: 65)
        guard privada.count == 32, cifrado_publica_p256(privada, &publica) == 1 else {
            throw .noEsUnaClaveP256
        }
        self.init(privada: privada, publica: publica)
    }

    /// The key in an Apple `AuthKey_KID.p8` (PEM, PKCS#8, unencrypted).
    public init(p8 texto: String) throws(Fallo) {
        var privada = [UInt8](repeating: 0, count: 32)
        let bytes = Array(texto.utf8)
        let leida = bytes.withUnsafeBufferPointer { trozo in
            trozo.withMemoryRebound(to: CChar.self) {
                cifrado_leer_p8($0.baseAddress, $0.count, &privada)
            }
        }
        guard leida == 1 else { throw .noEsUnaClaveP256 }
        try self.init(privada: privada)
    }

    private init(privada: [UInt8], publica: [UInt8]) {
        self.privada = privada
        self.publica = publica
    }

    /// The ES256 signature of `datos`, as JOSE writes it (r || s, 64 bytes).
    public func firmar(_ datos: [UInt8]) throws(Fallo) -> [UInt8] {
        var firma = [UInt8](repeating: 0, count: 64)
        guard cifrado_firmar_es256(privada, datos, datos.count, &firma) == 1 else {
            throw .libcrypto
        }
        return firma
    }

    /// Whether `firma` is the signature of `datos` by the key whose public point is `publica`.
    public static func verificar(publica: [UInt8], datos: [UInt8], firma: [UInt8]) -> Bool {
        publica.count == 65 && firma.count == 64
            && cifrado_verificar_es256(publica, datos, datos.count, firma) == 1
    }
}

extension ClaveP256 {
    /// Whether `publica` (65 bytes, uncompressed) is a point of P-256: a subscription's
    /// `p256dh` is checked when it is added, not when a goal is on its way. The check is the
    /// point's equation, a few microseconds: a million subscriptions are imported at once.
    public static func esPunto(_ publica: [UInt8]) -> Bool {
        publica.count == 65 && cifrado_es_punto_p256(publica) == 1
    }
}
