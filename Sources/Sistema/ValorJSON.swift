import Torneo

/// Any JSON value. The importer reads the file into this first (`AnalizadorJSON`) and walks it by hand, so a
/// wrong field is reported with its match and path, and extra fields are simply ignored.
public indirect enum ValorJSON: Sendable, Hashable {
    case nulo
    case booleano(Bool)
    case numero(Double)
    case texto(String)
    case lista([ValorJSON])
    case objeto([String: ValorJSON])

    /// Parses `bytes` as one JSON document.
    public static func leer(_ bytes: [UInt8]) throws -> ValorJSON {
        try AnalizadorJSON.leer(bytes)
    }

    /// Parses the bytes of `buffer` as one JSON document, without copying them.
    public static func leer(_ buffer: UnsafeBufferPointer<UInt8>) throws -> ValorJSON {
        try AnalizadorJSON.leer(buffer)
    }

    public subscript(clave: String) -> ValorJSON? {
        if case .objeto(let campos) = self { return campos[clave] }
        return nil
    }

    /// How the value looks, for error messages.
    public var descripcion: String {
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
