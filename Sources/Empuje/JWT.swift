/// A JSON Web Token signed with ES256 (RFC 7515/7519), the only kind APNs' token
/// authentication and VAPID (RFC 8292) accept: `base64url(header).base64url(claims).signature`.
public enum JWT {
    /// A claim's value: the tokens here carry only strings and integers.
    public enum Valor: Sendable, Hashable {
        case texto(String)
        case entero(Int)
    }

    /// The token for `cabecera` and `reclamaciones` (written in the order given), signed by
    /// `clave`. `alg` is added to the header first.
    public static func firmar(
        cabecera: [(String, Valor)], reclamaciones: [(String, Valor)], clave: ClaveP256
    ) throws(ClaveP256.Fallo) -> String {
        let entrada =
            Base64URL.codificar(Array(json([("alg", .texto("ES256"))] + cabecera).utf8)) + "."
            + Base64URL.codificar(Array(json(reclamaciones).utf8))
        return entrada + "." + Base64URL.codificar(try clave.firmar(Array(entrada.utf8)))
    }

    /// Whether `token` is signed by the key whose public point is `publica` (a test's and a
    /// stand-in's check; the providers themselves only sign).
    public static func verificar(_ token: String, publica: [UInt8]) -> Bool {
        let partes = token.split(separator: ".", omittingEmptySubsequences: false)
        guard partes.count == 3, let firma = Base64URL.descodificar(String(partes[2])) else {
            return false
        }
        return ClaveP256.verificar(
            publica: publica, datos: Array("\(partes[0]).\(partes[1])".utf8), firma: firma)
    }

    static func json(_ campos: [(String, Valor)]) -> String {
        "{"
            + campos.map { nombre, valor in
                let escrito =
                    switch valor {
                    case .texto(let texto): cadena(texto)
                    case .entero(let numero): String(numero)
                    }
                return cadena(nombre) + ":" + escrito
            }.joined(separator: ",") + "}"
    }

    /// A JSON string: quotes, backslashes and control characters escaped (a contact or key id
    /// comes from the operator).
    static func cadena(_ texto: String) -> String {
        var salida = "\""
        for escalar in texto.unicodeScalars {
            switch escalar {
            case "\"": salida += "\\\""
            case "\\": salida += "\\\\"
            case "\n": salida += "\\n"
            case "\r": salida += "\\r"
            case "\t": salida += "\\t"
            case _ where escalar.value < 0x20:
                let hex = String(escalar.value, radix: 16)
                salida += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: salida.unicodeScalars.append(escalar)
            }
        }
        return salida + "\""
    }
}
