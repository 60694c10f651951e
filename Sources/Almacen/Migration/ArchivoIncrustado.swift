/// A file from `migrations/` or `seeds/` compiled into the binary by the Incrustar plugin.
struct ArchivoIncrustado: Sendable {
    let nombre: String
    let bytes: [UInt8]

    var texto: String { String(decoding: bytes, as: UTF8.self) }
}
