import Persistencia
import Sistema
import Torneo

/// The run-control service of runs.md.6 and §8: the lessons' `.task(id:)` across processes.
///
/// It starts or resumes a run (the store stops every other live run of the match in the same
/// transaction), wakes the processes it stopped, reacts to stop requests addressed to its own
/// run, and starts again from zero when the duration the run follows changes. The command
/// line and the web server are thin callers: they parse, render, and cancel the task on a
/// signal. Time comes from the injected clock, so tests drive it without sleeping.
@MainActor
public final class ControlDeEjecuciones {
    /// What to play.
    public struct Peticion: Sendable {
        public var partido: Partido
        /// `--duracion`; `nil` follows the `duracion` setting.
        public var duracion: Int?
        public var msPorMinuto: Int
        /// A stored run to go on with instead of starting from zero.
        public var reanudar: EjecucionGuardada?
        /// Process-local channels added to each notice (the terminal banner).
        public var canalesPropios: [String]

        public init(
            partido: Partido, duracion: Int? = nil, msPorMinuto: Int,
            reanudar: EjecucionGuardada? = nil, canalesPropios: [String] = []
        ) {
            self.partido = partido
            self.duracion = duracion
            self.msPorMinuto = msPorMinuto
            self.reanudar = reanudar
            self.canalesPropios = canalesPropios
        }
    }

    /// How a call to `jugar` ended.
    public enum Desenlace: Sendable, Hashable {
        case terminado(enElMinuto: Int)
        /// The caller's task was cancelled (a signal, the server stopping).
        case cancelado(enElMinuto: Int)
        /// Another `jugar` of the same match took over.
        case reemplazado(enElMinuto: Int)
        /// Another process took this run over (its heartbeat looked stale): this one stopped
        /// without writing anything more.
        case perdido(enElMinuto: Int)
    }

    /// Why `--reanudar` cannot go on with a match.
    public enum FalloDeReanudacion: Error, Sendable, Hashable {
        case sinEmpezar
        case enJuego(pid: Int?)
        case terminado
        /// Another process took the run over between reading it and resuming it.
        case tomadaPorOtro
    }

    let ejecuciones: any Ejecuciones
    let duracionAjustada: @Sendable () throws -> Int
    let reloj: Reloj
    let registro: (any Registro)?
    let propietario: Propietario
    let despertar: @Sendable (EjecucionAjena) -> Void
    let nuevoCodigo: @Sendable () -> String

    /// Called when each run starts (or restarts), before its first minute: a dispatcher learns
    /// here which run's banners are its own.
    public var alEmpezar: ((PartidoEnVivo, any CronicaDelPartido) -> Void)?
    /// Every change of the model playing now (minutes, goals, start, end), for whoever draws it.
    public var alCambiar: ((PartidoEnVivo, PartidoEnVivo.Cambio) -> Void)?
    /// Called when the duration changed and the match starts again with `minutos`.
    public var alRelanzar: ((Int) -> Void)?

    private var tareaActual: Task<FinDelPartido, any Error>?
    private var cronicaActual: (any CronicaDelPartido)?

    /// - Parameters:
    ///   - duracionAjustada: reads the `duracion` setting (60 or 90).
    ///   - despertar: wakes the process of a run this one stopped (a signal on one host, a
    ///     notification across hosts).
    public init(
        ejecuciones: any Ejecuciones,
        duracionAjustada: @escaping @Sendable () throws -> Int,
        propietario: Propietario,
        reloj: Reloj = .continuo,
        registro: (any Registro)? = nil,
        despertar: @escaping @Sendable (EjecucionAjena) -> Void,
        nuevoCodigo: @escaping @Sendable () -> String = PartidoEnVivo.codigoAleatorio
    ) {
        self.ejecuciones = ejecuciones
        self.duracionAjustada = duracionAjustada
        self.propietario = propietario
        self.reloj = reloj
        self.registro = registro
        self.despertar = despertar
        self.nuevoCodigo = nuevoCodigo
    }

    /// The run being played now, if any.
    public var ejecucionActual: Int? { cronicaActual?.ejecucion }
    /// The run played last (still set once it ended).
    public private(set) var ejecucionUltima: Int?

    /// Plays `peticion` until its run finishes, is replaced by another `jugar`, or the calling
    /// task is cancelled; a change of the duration it follows starts it again from zero.
    /// - Throws: what the store throws; `FalloDeReanudacion.tomadaPorOtro` when the run to
    ///   resume was taken over meanwhile.
    public func jugar(_ peticion: Peticion) async throws -> Desenlace {
        var guardada = peticion.reanudar
        var duracion =
            try guardada?.duracion ?? peticion.duracion
            ?? peticion.partido.duracionPorDefecto(ajuste: duracionAjustada())
        let fija = guardada?.duracionFija ?? (peticion.duracion != nil)
        while true {
            let cronica = ejecuciones.cronica(
                partido: peticion.partido.id, duracionFija: fija,
                canalesPropios: peticion.canalesPropios, propietario: propietario)
            let modelo = PartidoEnVivo(
                partido: peticion.partido,
                msPorMinuto: peticion.msPorMinuto,
                reloj: reloj, cronica: cronica, registro: registro, nuevoCodigo: nuevoCodigo)
            cronicaActual = cronica
            modelo.alCambiar = { [weak self, weak modelo] cambio in
                guard let self, let modelo else { return }
                if case .inicio = cambio {
                    self.ejecucionUltima = cronica.ejecucion
                    for detenida in modelo.detenidas { self.despertar(detenida) }
                    self.alEmpezar?(modelo, cronica)
                }
                self.alCambiar?(modelo, cambio)
            }
            let aReanudar = guardada
            let tarea = Task { @MainActor in
                if let aReanudar { return try await modelo.reanudar(aReanudar) }
                return try await modelo.jugar(duracion: duracion)
            }
            tareaActual = tarea
            let fin: FinDelPartido
            do {
                fin = try await withTaskCancellationHandler {
                    try await tarea.value
                } onCancel: {
                    tarea.cancel()
                }
            } catch FalloDeEjecucion.noReanudable {
                tareaActual = nil
                throw FalloDeReanudacion.tomadaPorOtro
            }
            tareaActual = nil
            let minuto: Int
            switch fin {
            case .terminado(let final):
                cronicaActual = nil
                return .terminado(enElMinuto: final)
            case .perdido(let final):
                cronicaActual = nil
                return .perdido(enElMinuto: final)
            case .cancelado(let final):
                minuto = final
            }
            if Task.isCancelled {
                cronicaActual = nil
                return .cancelado(enElMinuto: minuto)
            }
            let motivo = try cronica.ejecucion.flatMap {
                try ejecuciones.cancelacionPedida(ejecucion: $0)
            }
            guard motivo == .duracion, !fija else {
                cronicaActual = nil
                return .reemplazado(enElMinuto: minuto)
            }
            // `.task(id:)`: the duration changed, so the same process plays a new run from zero.
            duracion = peticion.partido.duracionPorDefecto(ajuste: try duracionAjustada())
            guardada = nil
            alRelanzar?(duracion)
        }
    }

    /// Reacts to a wake-up (SIGUSR1, a notification): if the store holds a stop request for
    /// the run being played, that run stops now instead of at its next minute.
    public func revisarParada() {
        guard let id = cronicaActual?.ejecucion, let tarea = tareaActual,
            (try? ejecuciones.cancelacionPedida(ejecucion: id)) ?? nil != nil
        else { return }
        tarea.cancel()
    }

    /// The run `--reanudar` would go on with: the latest of the match, if it was interrupted
    /// (its process died) or cancelled.
    public func reanudable(partido: Int) throws -> EjecucionGuardada {
        guard let ultima = try ejecuciones.ultima(partido: partido), ultima.estado != .sinEmpezar
        else { throw FalloDeReanudacion.sinEmpezar }
        switch ultima.estadoDelPartido {
        case .interrumpido, .cancelado: return ultima
        case .enJuego: throw FalloDeReanudacion.enJuego(pid: ultima.pid)
        default: throw FalloDeReanudacion.terminado
        }
    }

    /// Stores the duration setting and stops, in the same transaction, every live run that
    /// follows it and would now last differently; their processes are woken and start again.
    /// - Returns: how many runs start again.
    public nonisolated static func cambiarDuracion(
        _ minutos: Int, en ejecuciones: any Ejecuciones, propietario: Propietario,
        despertar: @Sendable (EjecucionAjena) -> Void
    ) throws -> Int {
        precondition(Duracion.ajustables.contains(minutos), "validated by the caller")
        let detenidas = try ejecuciones.cambiarDuracion(minutos, propietario: propietario)
        for detenida in detenidas { despertar(detenida) }
        return detenidas.count
    }
}
