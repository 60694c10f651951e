import Almacen
import Motor
import Persistencia
import Torneo

/// The runs `marcador servir` plays (POST `/api/partidos/{id}/jugar`): each through the
/// run-control service, like `jugar`, so a new one replaces the match's live run in any process
/// and a duration change starts it again from zero. Stopping the server cancels them all, each
/// logging CANCELADO.
@MainActor
final class PartidosDelServidor {
    private let tienda: any Tienda
    private let registro: any Registro
    /// Rings the server's dispatcher when a minute brought goals.
    private let despertarReparto: @Sendable () -> Void
    private var enJuego:
        [ObjectIdentifier: (control: ControlDeEjecuciones, tarea: Task<Void, Never>)] =
            [:]

    init(
        tienda: any Tienda, registro: any Registro,
        despertarReparto: @escaping @Sendable () -> Void
    ) {
        self.tienda = tienda
        self.registro = registro
        self.despertarReparto = despertarReparto
    }

    var cuantos: Int { enJuego.count }

    /// Starts `partido` in this process; it replaces the live run of the match wherever it is.
    func jugar(_ partido: Partido, msPorMinuto: Int) {
        let repositorio = tienda.partidos
        let control = ControlDeEjecuciones(
            ejecuciones: tienda.ejecuciones,
            duracionAjustada: { try repositorio.ajustes().duracion }, propietario: .actual,
            registro: registro, despertar: { $0.propietario.despertar() })
        let despertar = despertarReparto
        control.alCambiar = { _, cambio in
            if case .gol = cambio { despertar() }
        }
        let clave = ObjectIdentifier(control)
        let tarea = Task { @MainActor [weak self] in
            _ = try? await control.jugar(
                ControlDeEjecuciones.Peticion(partido: partido, msPorMinuto: msPorMinuto))
            self?.enJuego[clave] = nil
        }
        enJuego[clave] = (control, tarea)
    }

    /// A wake-up (SIGUSR1): the store may hold a stop request for one of these runs.
    func revisarParadas() {
        for (control, _) in enJuego.values { control.revisarParada() }
    }

    /// Cancels every run and waits until each has written its end.
    func detener() async {
        let tareas = enJuego.values.map(\.tarea)
        for tarea in tareas { tarea.cancel() }
        for tarea in tareas { await tarea.value }
    }
}
