import Almacen
import Aplicacion
import ApoyoDePruebas
import Persistencia
import Synchronization
import Testing
import Torneo

/// A core over a fresh in-memory store with the seed, on a clock the test moves.
func nucleoEnMemoria(reloj: RelojManual = RelojManual()) throws -> Nucleo {
    Nucleo(tienda: TiendaSQLite(try Almacen.enMemoria()), entorno: [:], reloj: Reloj(reloj))
}

/// Records every log line in order.
final class RegistroEspia: Registro {
    private let guardadas = Mutex<[String]>([])
    var lineas: [String] { guardadas.withLock { $0 } }
    func anotar(_ linea: String, partido: Int?) { guardadas.withLock { $0.append(linea) } }
}

/// Lets the main actor run until `condicion` holds; if it never does, the test records an
/// issue instead of going on as if it had.
@MainActor
func esperarHasta(
    _ condicion: () throws -> Bool, sourceLocation: SourceLocation = #_sourceLocation
) async rethrows {
    for _ in 0..<100_000 {
        if try condicion() { return }
        await Task.yield()
    }
    Issue.record("la condición no se cumplió tras 100.000 turnos", sourceLocation: sourceLocation)
}
