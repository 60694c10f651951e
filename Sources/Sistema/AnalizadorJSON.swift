/// A strict JSON reader (RFC 8259) straight into `ValorJSON`, in one pass over the bytes.
///
/// It replaces `JSONDecoder` walking `Decodable` attempts, which cost most of an import's time
/// (of matches, and of a million devices' lines).
/// Nesting is capped so a crafted file cannot exhaust the stack, text must be valid UTF-8, and
/// anything after the document is an error.
public struct AnalizadorJSON {
    public struct Fallo: Error, Equatable {
        /// Byte offset where reading stopped.
        public var posicion: Int
    }

    /// Deeper than any real document; a file of 100,000 `[` must fail, not overflow the stack.
    static let profundidadMaxima = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var i = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    public static func leer(_ bytes: [UInt8]) throws(Fallo) -> ValorJSON {
        let resultado: Result<ValorJSON, Fallo> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(Fallo) -> ValorJSON in try leer(buffer) }
        }
        return try resultado.get()
    }

    /// One document in `buffer` (a line of a bigger file, read in place).
    public static func leer(_ buffer: UnsafeBufferPointer<UInt8>) throws(Fallo) -> ValorJSON {
        var analizador = AnalizadorJSON(buffer)
        let valor = try analizador.valor(profundidad: 0)
        analizador.saltarEspacios()
        guard analizador.i == buffer.count else { throw Fallo(posicion: analizador.i) }
        return valor
    }

    private var actual: UInt8? { i < bytes.count ? bytes[i] : nil }

    private func fallo() -> Fallo { Fallo(posicion: i) }

    private mutating func saltarEspacios() {
        while let byte = actual, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            i += 1
        }
    }

    private mutating func valor(profundidad: Int) throws(Fallo) -> ValorJSON {
        guard profundidad < Self.profundidadMaxima else { throw fallo() }
        saltarEspacios()
        guard let byte = actual else { throw fallo() }
        switch byte {
        case UInt8(ascii: "{"): return try objeto(profundidad: profundidad)
        case UInt8(ascii: "["): return try lista(profundidad: profundidad)
        case UInt8(ascii: "\""): return .texto(try texto())
        case UInt8(ascii: "t"): return try palabra("true", .booleano(true))
        case UInt8(ascii: "f"): return try palabra("false", .booleano(false))
        case UInt8(ascii: "n"): return try palabra("null", .nulo)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .numero(try numero())
        default: throw fallo()
        }
    }

    private mutating func palabra(_ esperada: StaticString, _ valor: ValorJSON) throws(Fallo)
        -> ValorJSON
    {
        let longitud = esperada.utf8CodeUnitCount
        guard i + longitud <= bytes.count else { throw fallo() }
        for k in 0..<longitud where bytes[i + k] != esperada.utf8Start[k] { throw fallo() }
        i += longitud
        return valor
    }

    private mutating func objeto(profundidad: Int) throws(Fallo) -> ValorJSON {
        i += 1
        var campos: [String: ValorJSON] = [:]
        saltarEspacios()
        if actual == UInt8(ascii: "}") {
            i += 1
            return .objeto(campos)
        }
        while true {
            saltarEspacios()
            guard actual == UInt8(ascii: "\"") else { throw fallo() }
            let clave = try texto()
            saltarEspacios()
            guard actual == UInt8(ascii: ":") else { throw fallo() }
            i += 1
            // A repeated key keeps its last value, as most readers do.
            campos[clave] = try valor(profundidad: profundidad + 1)
            saltarEspacios()
            switch actual {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "}"):
                i += 1
                return .objeto(campos)
            default: throw fallo()
            }
        }
    }

    private mutating func lista(profundidad: Int) throws(Fallo) -> ValorJSON {
        i += 1
        var elementos: [ValorJSON] = []
        saltarEspacios()
        if actual == UInt8(ascii: "]") {
            i += 1
            return .lista(elementos)
        }
        while true {
            elementos.append(try valor(profundidad: profundidad + 1))
            saltarEspacios()
            switch actual {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "]"):
                i += 1
                return .lista(elementos)
            default: throw fallo()
            }
        }
    }

    /// A string: the common case (no escapes) is one validated copy of the bytes.
    private mutating func texto() throws(Fallo) -> String {
        i += 1
        let inicio = i
        while let byte = actual, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { throw fallo() }
            i += 1
        }
        guard actual != nil else { throw fallo() }
        if actual == UInt8(ascii: "\"") {
            let resultado = try validar(inicio..<i)
            i += 1
            return resultado
        }
        var unidades = Array(bytes[inicio..<i])
        while let byte = actual {
            switch byte {
            case UInt8(ascii: "\""):
                i += 1
                guard let resultado = String(validating: unidades, as: UTF8.self) else {
                    throw fallo()
                }
                return resultado
            case UInt8(ascii: "\\"):
                i += 1
                try escape(en: &unidades)
            case 0..<0x20:
                throw fallo()
            default:
                unidades.append(byte)
                i += 1
            }
        }
        throw fallo()
    }

    private func validar(_ rango: Range<Int>) throws(Fallo) -> String {
        guard
            let texto = String(
                validating: UnsafeBufferPointer(rebasing: bytes[rango]), as: UTF8.self)
        else { throw Fallo(posicion: rango.lowerBound) }
        return texto
    }

    private mutating func escape(en unidades: inout [UInt8]) throws(Fallo) {
        guard let byte = actual else { throw fallo() }
        i += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unidades.append(byte)
        case UInt8(ascii: "b"): unidades.append(0x08)
        case UInt8(ascii: "f"): unidades.append(0x0C)
        case UInt8(ascii: "n"): unidades.append(0x0A)
        case UInt8(ascii: "r"): unidades.append(0x0D)
        case UInt8(ascii: "t"): unidades.append(0x09)
        case UInt8(ascii: "u"):
            var codigo = try cuatroHexadecimales()
            if (0xD800..<0xDC00).contains(codigo) {
                // A high surrogate must be followed by `\u` and its low half.
                guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"),
                    bytes[i + 1] == UInt8(ascii: "u")
                else { throw fallo() }
                i += 2
                let bajo = try cuatroHexadecimales()
                guard (0xDC00..<0xE000).contains(bajo) else { throw fallo() }
                codigo = 0x10000 + ((codigo - 0xD800) << 10) + (bajo - 0xDC00)
            }
            guard let escalar = Unicode.Scalar(codigo) else { throw fallo() }
            unidades.append(contentsOf: UTF8.encode(escalar)!)
        default:
            throw fallo()
        }
    }

    private mutating func cuatroHexadecimales() throws(Fallo) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fallo() }
        var valor: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[i]
            let digito: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digito = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digito = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digito = byte - UInt8(ascii: "A") + 10
            default: throw fallo()
            }
            valor = valor << 4 | UInt32(digito)
            i += 1
        }
        return valor
    }

    /// A number in JSON's grammar (no leading zeros, no `+`, no bare `.`), read as a Double.
    private mutating func numero() throws(Fallo) -> Double {
        let inicio = i
        if actual == UInt8(ascii: "-") { i += 1 }
        if actual == UInt8(ascii: "0") {
            i += 1
        } else {
            guard digitos() > 0 else { throw fallo() }
        }
        if actual == UInt8(ascii: ".") {
            i += 1
            guard digitos() > 0 else { throw fallo() }
        }
        if actual == UInt8(ascii: "e") || actual == UInt8(ascii: "E") {
            i += 1
            if actual == UInt8(ascii: "+") || actual == UInt8(ascii: "-") { i += 1 }
            guard digitos() > 0 else { throw fallo() }
        }
        let texto = String(
            decoding: UnsafeBufferPointer(rebasing: bytes[inicio..<i]), as: UTF8.self)
        guard let valor = Double(texto) else { throw Fallo(posicion: inicio) }
        return valor
    }

    private mutating func digitos() -> Int {
        let inicio = i
        while let byte = actual, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { i += 1 }
        return i - inicio
    }
}
