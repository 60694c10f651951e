import Almacen
import Motor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `jugar` knows about the signals it received and the run it is playing: the bridge
/// between signals and Swift task cancellation.
@MainActor
final class ControlDeJugar {
    private let ejecuciones: EjecucionesSQLite
    /// The task playing the current run; cancelling it is how a match stops.
    var tarea: Task<FinDelPartidoJugado, any Error>?
    var cronica: CronicaSQLite?
    /// SIGINT or SIGTERM, once received: the process ends after the run logs CANCELADO.
    private(set) var senal: Int32?

    typealias FinDelPartidoJugado = Motor.FinDelPartido

    init(ejecuciones: EjecucionesSQLite) { self.ejecuciones = ejecuciones }

    func recibir(_ numero: Int32) {
        switch numero {
        case SIGINT, SIGTERM:
            if senal == nil { senal = numero }
            tarea?.cancel()
        case SIGUSR1:
            // Another process wrote why in the database before waking us; a stray SIGUSR1
            // without a request changes nothing.
            guard let id = cronica?.ejecucion,
                (try? ejecuciones.cancelacionPedida(ejecucion: id)) ?? nil != nil
            else { return }
            tarea?.cancel()
        default:
            break
        }
    }

    /// The exit status for the signal received: 128 + its number, as shells report it.
    var codigoDeSalida: CodigoDeSalida {
        senal == SIGTERM ? .terminado : .interrumpido
    }
}
