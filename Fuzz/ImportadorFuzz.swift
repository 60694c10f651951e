// libFuzzer target for the importer's JSON reading: any bytes must give matches or a
// FalloDeImportacion, never a crash. Built by `make fuzz` with `swiftc -sanitize=fuzzer`.
import Importador

@_cdecl("LLVMFuzzerTestOneInput")
public func probar(_ datos: UnsafePointer<UInt8>, _ longitud: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: datos, count: longitud))
    if let competicion = try? LectorOpenFootball.leer(bytes, nombrePorDefecto: "fuzz") {
        // What was accepted must be playable: every goal within a match's duration.
        for partido in competicion.partidos {
            for gol in partido.goles ?? [] {
                precondition(gol.minuto.minuto >= 1 && gol.minuto.minuto <= 120)
                precondition(!gol.jugador.nombre.isEmpty)
            }
            precondition(partido.local != partido.visitante)
        }
    }
    return 0
}
