/// base64url without padding (RFC 4648 §5), as Web Push writes keys (`p256dh`, `auth`, the
/// VAPID public key) and as JWTs write their parts.
public enum Base64URL {
    private static let alfabeto = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    public static func codificar(_ bytes: [UInt8]) -> String {
        var salida: [UInt8] = []
        salida.reserveCapacity((bytes.count * 4 + 2) / 3)
        var i = 0
        while i < bytes.count {
            let resto = min(3, bytes.count - i)
            var bloque = UInt32(bytes[i]) << 16
            if resto > 1 { bloque |= UInt32(bytes[i + 1]) << 8 }
            if resto > 2 { bloque |= UInt32(bytes[i + 2]) }
            for j in 0..<(resto + 1) {
                salida.append(alfabeto[Int((bloque >> UInt32(18 - 6 * j)) & 0x3F)])
            }
            i += 3
        }
        return String(decoding: salida, as: UTF8.self)
    }

    /// The bytes of `texto`; `nil` for a character outside the alphabet or an impossible
    /// length. Padding (`=`) is accepted at the end, as some browsers' JSON carries it.
    public static func descodificar(_ texto: String) -> [UInt8]? {
        var valores: [UInt8] = []
        for caracter in texto.utf8 {
            switch caracter {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): valores.append(caracter - 65)
            case UInt8(ascii: "a")...UInt8(ascii: "z"): valores.append(caracter - 71)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): valores.append(caracter + 4)
            case UInt8(ascii: "-"), UInt8(ascii: "+"): valores.append(62)
            case UInt8(ascii: "_"), UInt8(ascii: "/"): valores.append(63)
            case UInt8(ascii: "="): continue
            default: return nil
            }
        }
        guard valores.count % 4 != 1 else { return nil }
        var salida: [UInt8] = []
        salida.reserveCapacity(valores.count * 3 / 4)
        var i = 0
        while i < valores.count {
            let resto = min(4, valores.count - i)
            var bloque: UInt32 = 0
            for j in 0..<4 { bloque = bloque << 6 | UInt32(j < resto ? valores[i + j] : 0) }
            for j in 0..<(resto - 1) { salida.append(UInt8((bloque >> UInt32(16 - 8 * j)) & 0xFF)) }
            i += 4
        }
        return salida
    }
}
