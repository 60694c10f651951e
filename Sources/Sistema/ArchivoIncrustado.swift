/// A file compiled into the binary by the Incrustar plugin (`migrations/`, `seeds/`, `web/`).
public struct ArchivoIncrustado: Sendable {
    public let nombre: String
    public let bytes: [UInt8]

    public init(nombre: String, bytes: [UInt8]) {
        self.nombre = nombre
        self.bytes = bytes
    }

    public var texto: String { String(decoding: bytes, as: UTF8.self) }
}
