// libFuzzer target for the hand-written argument parser: the input is split at NUL bytes into
// argv words and parsed against marcador's global options and a command with options; any
// outcome but a crash is fine. Built by `make fuzz` together with Sources/marcador/Linea.

let globales: [Opcion] = [
    .conValor("--db", "RUTA", ayuda: "."), .bandera("--reiniciar-datos", ayuda: "."),
    .bandera("-h", "--help", ayuda: "."), .bandera("--version", ayuda: "."),
]
let comandos: [String: [Opcion]] = [
    "partidos": [.conValor("--competicion", "NOMBRE", ayuda: "."), .bandera("--json", ayuda: ".")],
    "jugar": [
        .conValor("--duracion", "MINUTOS", ayuda: "."),
        .conValor("--ms-por-minuto", "MS", ayuda: "."),
        .bandera("--reanudar", ayuda: "."),
    ],
    "avisos": [.conValor("--url", "URL", ayuda: "."), .bandera("--json", ayuda: ".")],
]

@_cdecl("LLVMFuzzerTestOneInput")
public func probar(_ datos: UnsafePointer<UInt8>, _ longitud: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: datos, count: longitud)
    let palabras = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
    }
    if let argumentos = try? Argumentos.analizar(palabras, globales: globales, comandos: comandos) {
        _ = try? argumentos.entero("--duracion")
        _ = try? argumentos.entero("--ms-por-minuto")
        if let comando = argumentos.comando { precondition(comandos[comando] != nil) }
    }
    return 0
}
