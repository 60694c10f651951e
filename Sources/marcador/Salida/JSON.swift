import FoundationEssentials

/// Encodes `valor` as the JSON document `--json` prints: stable key order, readable by people.
func documentoJSON<T: Encodable>(_ valor: T) throws -> String {
    let codificador = JSONEncoder()
    codificador.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try codificador.encode(valor), as: UTF8.self)
}
