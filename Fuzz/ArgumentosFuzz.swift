// libFuzzer target for the command layer (Sources/marcador/Linea): the input is split at NUL
// bytes into argv words and parsed against a small tree built with the same declarations the
// real commands use; help and completion are written for whatever path was reached. Any
// outcome but a crash is fine. Built by `make fuzz`.

import Torneo

struct Raiz: ComandoDeclarado {
    static let configuracion = ConfiguracionDeComando(
        nombre: "marcador", resumen: "raíz.", subcomandos: [Jugar.self, Avisos.self])
}

struct Jugar: ComandoDeclarado {
    static let configuracion = ConfiguracionDeComando(nombre: "jugar", resumen: "juega.")
    @Argumento("ID", ayuda: "id.") var id: Int
    @Opcion("--duracion", marcador: "MINUTOS", ayuda: "d.") var duracion: Int?
    @Opcion("--ms-por-minuto", marcador: "MS", rango: 0...600_000, ayuda: "ms.") var ms: Int?
    @Bandera("--reanudar", ayuda: "r.") var reanudar: Bool
}

struct Avisos: ComandoDeclarado {
    static let configuracion = ConfiguracionDeComando(
        nombre: "avisos", resumen: "avisos.", subcomandos: [Canal.self])
    @Bandera("--json", ayuda: "j.") var json: Bool
}

struct Canal: ComandoDeclarado {
    static let configuracion = ConfiguracionDeComando(
        nombre: "añadir", alias: ["anadir"], resumen: "añade.")
    @Argumento("LADO", ayuda: "l.") var lado: Lado
    @Opciones("--equipo", marcador: "NOMBRE", ayuda: "e.") var equipos: [String]
    @Opcion("--silencio", ayuda: "s.") var silencio: SiNo?
}

@MainActor
func probar(_ palabras: [String]) {
    if let leida = try? Analizador.analizar(palabras, raiz: Raiz.self) {
        let ruta = leida.ruta.map { type(of: $0) }
        precondition(ruta.first == Raiz.self)
        _ = Ayuda.de(ruta)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func entrada(_ datos: UnsafePointer<UInt8>, _ longitud: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: datos, count: longitud)
    let palabras = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
    }
    MainActor.assumeIsolated { probar(palabras) }
    return 0
}
