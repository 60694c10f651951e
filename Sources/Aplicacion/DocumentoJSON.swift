import FoundationEssentials
import Torneo

/// Encodes `valor` as the JSON documents marcador writes (`--json`, the web API, the events'
/// `data:`): stable key order; readable by people unless `legible` is off (one line).
///
/// JSON only requires escaping below U+0020; DEL, the C1 controls (U+0080–U+009F, which some
/// terminals obey as escape sequences) and the format characters that reorder or hide text
/// (bidi marks and overrides, zero-width ones: `TextoSeguro.esControl`) are escaped too, as
/// `\uXXXX`, so no control character from data reaches a terminal even through `--json`,
/// whatever wrote the database (issue 41), and a JSON reader still gets the exact text.
public func documentoJSON<T: Encodable>(_ valor: T, legible: Bool = true) throws -> String {
    let codificador = JSONEncoder()
    codificador.outputFormatting =
        legible ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys]
    let texto = String(decoding: try codificador.encode(valor), as: UTF8.self)
    func escapar(_ escalar: Unicode.Scalar) -> Bool {
        escalar.value >= 0x7F && TextoSeguro.esControl(escalar)
    }
    guard texto.unicodeScalars.contains(where: escapar) else { return texto }
    var salida = String.UnicodeScalarView()
    for escalar in texto.unicodeScalars {
        if escapar(escalar) {
            let hex = String(escalar.value, radix: 16, uppercase: true)
            salida.append(
                contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                    .unicodeScalars)
        } else {
            salida.append(escalar)
        }
    }
    return String(salida)
}
