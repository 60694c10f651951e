import CCifrado

/// A Web Push message encrypted for one subscription (RFC 8291, in RFC 8188's `aes128gcm`
/// coding): one record, the whole body of the POST.
public enum CifradoWebPush {
    public enum Fallo: Error, Equatable {
        /// The subscription's `p256dh` is not a P-256 point, or its `auth` not 16 bytes.
        case claveDeSuscripcionInvalida
        /// The message and its padding do not fit one 4096-byte record.
        case demasiadoLargo
        case libcrypto
    }

    /// The record size written in the header: a notice (title, body, identifier, match) fits
    /// one record, which is what push services accept.
    public static let tamanoDeRegistro: UInt32 = 4096

    /// The body for a subscription whose keys are `p256dh` (65 bytes) and `auth` (16): the
    /// header (salt, record size, the sender's ephemeral public key), then `texto` with its
    /// delimiter, encrypted and tagged.
    /// - Parameters:
    ///   - efimera: the sender's key pair (private 32 bytes, public 65); a new one unless a
    ///     test fixes it (RFC 8291 Appendix A).
    ///   - sal: 16 bytes; random unless a test fixes it.
    public static func cifrar(
        _ texto: [UInt8], p256dh: [UInt8], auth: [UInt8],
        efimera: (privada: [UInt8], publica: [UInt8])? = nil, sal: [UInt8]? = nil
    ) throws(Fallo) -> [UInt8] {
        guard p256dh.count == 65, p256dh[0] == 0x04, auth.count == 16 else {
            throw .claveDeSuscripcionInvalida
        }
        // 16 bytes of tag and 1 of delimiter must fit the record.
        guard texto.count + 17 <= Int(tamanoDeRegistro) else { throw .demasiadoLargo }
        var privada = [UInt8](repeating: 0, count: 32)
        var publica = [UInt8](repeating: 0, count: 65)
        if let efimera {
            guard efimera.privada.count == 32, efimera.publica.count == 65 else { throw .libcrypto }
            (privada, publica) = (efimera.privada, efimera.publica)
        } else {
            guard cifrado_generar_p256(&privada, &publica) == 1 else { throw .libcrypto }
        }
        defer { for i in privada.indices { privada[i] = 0 } }
        var salt = sal ?? [UInt8](repeating: 0, count: 16)
        if sal == nil {
            guard cifrado_aleatorio(&salt, 16) == 1 else { throw .libcrypto }
        }
        guard salt.count == 16 else { throw .libcrypto }

        var secreto = [UInt8](repeating: 0, count: 32)
        guard cifrado_ecdh_p256(privada, p256dh, &secreto) == 1 else {
            throw .claveDeSuscripcionInvalida
        }
        // IKM from the ECDH secret and the subscription's auth secret, bound to both keys.
        let informacion = Array("WebPush: info".utf8) + [0] + p256dh + publica
        let ikm = try hkdf(sal: auth, clave: secreto, info: informacion, largo: 32)
        let cek = try hkdf(
            sal: salt, clave: ikm, info: Array("Content-Encoding: aes128gcm".utf8) + [0], largo: 16)
        let nonce = try hkdf(
            sal: salt, clave: ikm, info: Array("Content-Encoding: nonce".utf8) + [0], largo: 12)

        // The last (and only) record ends with the delimiter 0x02 and no further padding.
        let registro = texto + [0x02]
        var cifrado = [UInt8](repeating: 0, count: registro.count + 16)
        guard cifrado_aes128gcm(cek, nonce, registro, registro.count, &cifrado) == 1 else {
            throw .libcrypto
        }
        let rs = tamanoDeRegistro
        let cabecera =
            salt + [
                UInt8(rs >> 24), UInt8(rs >> 16 & 0xFF), UInt8(rs >> 8 & 0xFF), UInt8(rs & 0xFF),
            ]
            + [UInt8(publica.count)] + publica
        return cabecera + cifrado
    }

    private static func hkdf(sal: [UInt8], clave: [UInt8], info: [UInt8], largo: Int)
        throws(Fallo) -> [UInt8]
    {
        var salida = [UInt8](repeating: 0, count: largo)
        guard
            cifrado_hkdf_sha256(
                sal, sal.count, clave, clave.count, info, info.count, &salida, largo)
                == 1
        else { throw .libcrypto }
        return salida
    }
}
