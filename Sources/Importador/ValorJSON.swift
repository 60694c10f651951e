import FoundationEssentials
import Torneo

/// Any JSON value. The importer reads the file into this first and walks it by hand, so a
/// wrong field is reported with its match and path, and extra fields are simply ignored.
public indirect enum ValorJSON: Decodable, Sendable, Hashable {
    case nulo
    case booleano(Bool)
    case numero(Double)
    case texto(String)
    case lista([ValorJSON])
    case objeto([String: ValorJSON])

    public init(from decoder: any Decoder) throws {
        let contenedor = try decoder.singleValueContainer()
        if contenedor.decodeNil() {
            self = .nulo
        } else if let valor = try? contenedor.decode(Bool.self) {
            self = .booleano(valor)
        } else if let valor = try? contenedor.decode(Double.self) {
            self = .numero(valor)
        } else if let valor = try? contenedor.decode(String.self) {
            self = .texto(valor)
        } else if let valor = try? contenedor.decode([ValorJSON].self) {
            self = .lista(valor)
        } else {
            self = .objeto(try contenedor.decode([String: ValorJSON].self))
        }
    }

    /// Parses `bytes` as one JSON document.
    public static func leer(_ bytes: [UInt8]) throws -> ValorJSON {
        try JSONDecoder().decode(ValorJSON.self, from: Data(bytes))
    }

    subscript(clave: String) -> ValorJSON? {
        if case .objeto(let campos) = self { return campos[clave] }
        return nil
    }

    /// How the value looks, for error messages.
    var descripcion: String {
        switch self {
        case .nulo: "null"
        case .booleano(let b): b ? "true" : "false"
        case .numero(let n): n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case .texto(let t): "«\(TextoSeguro.limpio(t.count > 40 ? String(t.prefix(40)) + "…" : t))»"
        case .lista: "una lista"
        case .objeto: "un objeto"
        }
    }
}
