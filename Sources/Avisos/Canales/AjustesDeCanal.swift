import FoundationEssentials
import Sistema

/// Settings a stored channel may carry (the JSON object in `canal.ajustes`).
///
/// Read and written by hand, not by `JSONDecoder`/`JSONEncoder`: a fan-out reads one per
/// device and an import writes one per line, a million each, and the coders cost several
/// microseconds apiece. The text is the encoder's own (sorted keys, slashes unescaped), so a
/// row written either way compares equal.
public struct AjustesDeCanal: Codable, Sendable, Hashable {
    public var url: String?
    public var directorio: String?
    public var bundle: String?
    /// Seconds a delivery may take.
    public var limite: Double?
    /// A webhook that speaks ntfy's headers.
    public var ntfy: Bool?
    /// An APNs device's token, in hex.
    public var token: String?
    /// A Web Push subscription's keys, base64url (its endpoint is `url`).
    public var p256dh: String?
    public var auth: String?

    public init(
        url: String? = nil, directorio: String? = nil, bundle: String? = nil, limite: Double? = nil,
        ntfy: Bool? = nil
    ) {
        self.ntfy = ntfy
        self.url = url
        self.directorio = directorio
        self.bundle = bundle
        self.limite = limite
    }

    /// The settings in `json`; none when it is not an object of them (as a decoder that
    /// failed: one field of the wrong type voids the whole object).
    public static func leer(_ json: String) -> AjustesDeCanal {
        var bytes = json
        let valor = bytes.withUTF8 { try? ValorJSON.leer($0) }
        guard case .objeto(let campos)? = valor else { return AjustesDeCanal() }
        var ajustes = AjustesDeCanal()
        func texto(_ clave: String) -> String?? {
            switch campos[clave] {
            case nil, .nulo?: return .some(nil)
            case .texto(let valor)?: return .some(valor)
            default: return nil
            }
        }
        guard let url = texto("url"), let directorio = texto("directorio"),
            let bundle = texto("bundle"), let token = texto("token"),
            let p256dh = texto("p256dh"), let auth = texto("auth")
        else { return AjustesDeCanal() }
        ajustes.url = url
        ajustes.directorio = directorio
        ajustes.bundle = bundle
        ajustes.token = token
        ajustes.p256dh = p256dh
        ajustes.auth = auth
        switch campos["limite"] {
        case nil, .nulo?: break
        case .numero(let segundos)?: ajustes.limite = segundos
        default: return AjustesDeCanal()
        }
        switch campos["ntfy"] {
        case nil, .nulo?: break
        case .booleano(let ntfy)?: ajustes.ntfy = ntfy
        default: return AjustesDeCanal()
        }
        return ajustes
    }

    public var json: String {
        // A number is the one thing written differently by hand and by the encoder (5 or 5.0):
        // the rare channel with a `limite` is left to it.
        guard limite == nil else {
            let codificador = JSONEncoder()
            codificador.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try? codificador.encode(self)).map { String(decoding: $0, as: UTF8.self) }
                ?? "{}"
        }
        var salida: [UInt8] = [UInt8(ascii: "{")]
        salida.reserveCapacity(160)
        func campo(_ clave: StaticString, _ valor: String?) {
            guard let valor else { return }
            if salida.count > 1 { salida.append(UInt8(ascii: ",")) }
            Self.escribir(clave.description, en: &salida)
            salida.append(UInt8(ascii: ":"))
            Self.escribir(valor, en: &salida)
        }
        // Sorted, as the encoder's `.sortedKeys`.
        campo("auth", auth)
        campo("bundle", bundle)
        campo("directorio", directorio)
        if let ntfy {
            if salida.count > 1 { salida.append(UInt8(ascii: ",")) }
            salida.append(contentsOf: (ntfy ? #""ntfy":true"# : #""ntfy":false"#).utf8)
        }
        campo("p256dh", p256dh)
        campo("token", token)
        campo("url", url)
        salida.append(UInt8(ascii: "}"))
        return String(decoding: salida, as: UTF8.self)
    }

    /// A JSON string as the encoder escapes it: quotes, backslashes and control characters;
    /// slashes and everything else as they are.
    private static func escribir(_ texto: String, en salida: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        salida.append(UInt8(ascii: "\""))
        for byte in texto.utf8 {
            switch byte {
            case UInt8(ascii: "\""): salida.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): salida.append(contentsOf: #"\\"#.utf8)
            case 0x08: salida.append(contentsOf: #"\b"#.utf8)
            case 0x0C: salida.append(contentsOf: #"\f"#.utf8)
            case 0x0A: salida.append(contentsOf: #"\n"#.utf8)
            case 0x0D: salida.append(contentsOf: #"\r"#.utf8)
            case 0x09: salida.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                salida.append(contentsOf: #"\u00"#.utf8)
                salida.append(hex[Int(byte >> 4)])
                salida.append(hex[Int(byte & 0x0F)])
            default: salida.append(byte)
            }
        }
        salida.append(UInt8(ascii: "\""))
    }
}
