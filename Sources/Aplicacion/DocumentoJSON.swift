import FoundationEssentials

/// Encodes `valor` as the JSON documents marcador writes (`--json`, the web API, the events'
/// `data:`): stable key order; readable by people unless `legible` is off (one line).
///
/// JSON only requires escaping below U+0020; DEL and the C1 controls (U+0080–U+009F, which some
/// terminals obey as escape sequences) are escaped too, so no control character from data
/// reaches a terminal even through `--json`.
public func documentoJSON<T: Encodable>(_ valor: T, legible: Bool = true) throws -> String {
    let codificador = JSONEncoder()
    codificador.outputFormatting =
        legible ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys]
    let texto = String(decoding: try codificador.encode(valor), as: UTF8.self)
    guard texto.unicodeScalars.contains(where: { $0.value >= 0x7F && $0.value <= 0x9F }) else {
        return texto
    }
    var salida = String.UnicodeScalarView()
    for escalar in texto.unicodeScalars {
        if escalar.value >= 0x7F && escalar.value <= 0x9F {
            salida.append(
                contentsOf: "\\u00\(String(escalar.value, radix: 16, uppercase: true))"
                    .unicodeScalars)
        } else {
            salida.append(escalar)
        }
    }
    return String(salida)
}
