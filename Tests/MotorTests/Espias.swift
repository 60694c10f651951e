import Persistencia
import Synchronization
import Testing
import Torneo

/// Records every log line in order; only it appends, tests read.
final class RegistroEspia: Registro {
    private let guardadas = Mutex<[String]>([])

    var lineas: [String] { guardadas.withLock { $0 } }

    func anotar(_ linea: String, partido: Int?) {
        guardadas.withLock { $0.append(linea) }
    }
}

/// Lets the main actor run until `condicion` holds; if it never does, the test records an
/// issue instead of going on as if it had.
@MainActor
func esperarHasta(
    _ condicion: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation
) async {
    for _ in 0..<100_000 {
        if condicion() { return }
        await Task.yield()
    }
    Issue.record("la condición no se cumplió tras 100.000 turnos", sourceLocation: sourceLocation)
}
