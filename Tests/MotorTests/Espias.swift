import Synchronization
import Torneo

/// Records every log line in order; only it appends, tests read.
final class RegistroEspia: Registro {
    private let guardadas = Mutex<[String]>([])

    var lineas: [String] { guardadas.withLock { $0 } }

    func anotar(_ linea: String, partido: Int?) {
        guardadas.withLock { $0.append(linea) }
    }
}

/// Lets the main actor run until `condicion` holds (or gives up after many turns).
@MainActor
func esperarHasta(_ condicion: () -> Bool) async {
    for _ in 0..<10_000 where !condicion() {
        await Task.yield()
    }
}
