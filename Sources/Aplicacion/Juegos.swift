import Motor
import Persistencia
import Torneo

/// What a front end asks to play (the CLI's `jugar`, the page's «Jugar»).
public struct PeticionDeJuego: Sendable {
    public var partido: Int
    /// `--duracion`; `nil` follows the `duracion` setting.
    public var duracion: Int?
    /// `nil` uses the `ms-por-minuto` setting.
    public var msPorMinuto: Int?
    /// Go on with the interrupted or cancelled run instead of starting from zero.
    public var reanudar: Bool
    /// Process-local channels added to each notice (the terminal banner).
    public var canalesPropios: [String]

    public init(
        partido: Int, duracion: Int? = nil, msPorMinuto: Int? = nil, reanudar: Bool = false,
        canalesPropios: [String] = []
    ) {
        self.partido = partido
        self.duracion = duracion
        self.msPorMinuto = msPorMinuto
        self.reanudar = reanudar
        self.canalesPropios = canalesPropios
    }
}

/// The runs this process plays (runs.md, §13): one for `jugar`, any number for `servir`.
///
/// Every start goes through the engine's run control, so starting a match that is being
/// played anywhere — in this process, another, or on another host — stops that run in the same
/// transaction and plays a new one from zero: at most one run per match is live, and «Jugar»
/// twice relaunches. Stop requests for these runs reach them in place (`Despertador`).
@MainActor
public final class Juegos {
    public typealias Desenlace = ControlDeEjecuciones.Desenlace

    let nucleo: Nucleo
    let registro: any Registro
    private var enMarcha:
        [ObjectIdentifier: (control: ControlDeEjecuciones, tarea: Task<Void, Never>?)] =
            [:]

    /// - Parameter registro: where the runs log (CANCELADO, TERMINADO…).
    public init(nucleo: Nucleo, registro: any Registro) {
        self.nucleo = nucleo
        self.registro = registro
    }

    /// How many runs this process plays now.
    public var cuantos: Int { enMarcha.count }

    /// Checks `peticion` against the store as it is: the match exists, the duration is one it
    /// may be played with, and a run to resume exists. What `jugar` would refuse is refused here,
    /// before anything is written (`--reiniciar-datos` asks this first).
    public func comprobar(_ peticion: PeticionDeJuego) throws -> (Partido, EjecucionGuardada?) {
        let partido = try nucleo.partidoExistente(peticion.partido)
        if let duracion = peticion.duracion, !partido.duracionesPermitidas.contains(duracion) {
            throw Fallo.uso(
                Duracion.noValida(String(duracion), conProrroga: partido.tieneProrroga))
        }
        guard peticion.reanudar else { return (partido, nil) }
        return (partido, try reanudable(partido.id))
    }

    /// Plays `peticion` here until its run ends: finished, replaced by another start, taken
    /// over, or cancelled with the calling task (a signal). The callbacks draw it.
    public func jugar(
        _ peticion: PeticionDeJuego,
        alEmpezar: ((PartidoEnVivo, Int?) -> Void)? = nil,
        alCambiar: ((PartidoEnVivo, PartidoEnVivo.Cambio) -> Void)? = nil,
        alRelanzar: ((Int) -> Void)? = nil
    ) async throws -> Desenlace {
        let (partido, guardada) = try comprobar(peticion)
        let ajustes = try nucleo.tienda.partidos.ajustes()
        let control = nuevoControl()
        let clave = ObjectIdentifier(control)
        enMarcha[clave] = (control, nil)
        defer { enMarcha[clave] = nil }
        control.alEmpezar = { [weak self] modelo, cronica in
            self?.anotarLocal(cronica.ejecucion, control)
            alEmpezar?(modelo, cronica.ejecucion)
        }
        control.alCambiar = alCambiar
        control.alRelanzar = alRelanzar
        defer { if let id = control.ejecucionUltima { nucleo.despertador.quitar(id) } }
        do {
            return try await control.jugar(
                ControlDeEjecuciones.Peticion(
                    partido: partido, duracion: peticion.duracion,
                    // A resumed run keeps its pace unless the caller names one.
                    msPorMinuto: peticion.msPorMinuto ?? guardada?.msPorMinuto
                        ?? ajustes.msPorMinuto, reanudar: guardada,
                    canalesPropios: peticion.canalesPropios))
        } catch ControlDeEjecuciones.FalloDeReanudacion.tomadaPorOtro {
            throw Fallo.uso(
                "Otro proceso ha reanudado o reemplazado el partido \(partido.id) mientras tanto.")
        }
    }

    /// Starts `partido` in the background (the page's «Jugar»), replacing its live run
    /// wherever it is; `alCambiar` hears every change (a dispatcher rings on goals).
    /// - Returns: the match that starts.
    @discardableResult
    public func lanzar(
        partido id: Int, msPorMinuto: Int?,
        alCambiar: ((PartidoEnVivo, PartidoEnVivo.Cambio) -> Void)? = nil
    ) throws -> Partido {
        if let msPorMinuto { try Nucleo.comprobarMsPorMinuto(msPorMinuto) }
        let (partido, _) = try comprobar(PeticionDeJuego(partido: id))
        let ms = try msPorMinuto ?? nucleo.tienda.partidos.ajustes().msPorMinuto
        let control = nuevoControl()
        control.alEmpezar = { [weak self] _, cronica in
            self?.anotarLocal(cronica.ejecucion, control)
        }
        control.alCambiar = alCambiar
        let clave = ObjectIdentifier(control)
        let tarea = Task { @MainActor [weak self] in
            _ = try? await control.jugar(
                ControlDeEjecuciones.Peticion(partido: partido, msPorMinuto: ms))
            if let id = control.ejecucionUltima { self?.nucleo.despertador.quitar(id) }
            self?.enMarcha[clave] = nil
        }
        enMarcha[clave] = (control, tarea)
        return partido
    }

    /// A wake-up from outside (SIGUSR1, a notification): the store may hold a stop request
    /// for one of these runs, which then stops now instead of at its next minute.
    public func revisarParadas() {
        for (control, _) in enMarcha.values { control.revisarParada() }
    }

    /// Cancels every background run and waits until each has written its end (CANCELADO).
    public func detenerTodos() async {
        let tareas = enMarcha.values.compactMap(\.tarea)
        for tarea in tareas { tarea.cancel() }
        for tarea in tareas { await tarea.value }
    }

    /// The run `--reanudar` would go on with, or why there is none.
    func reanudable(_ id: Int) throws -> EjecucionGuardada {
        do {
            return try nuevoControl().reanudable(partido: id)
        } catch ControlDeEjecuciones.FalloDeReanudacion.sinEmpezar {
            throw Fallo.uso(
                "El partido \(id) no ha empezado: no hay nada que reanudar. Júgalo con «marcador jugar \(id)»."
            )
        } catch ControlDeEjecuciones.FalloDeReanudacion.enJuego(let pid) {
            throw Fallo.uso(
                "El partido \(id) se está jugando en otro proceso (pid \(pid ?? 0)); "
                    + "«marcador jugar \(id)» lo reemplaza y empieza de cero.")
        } catch is ControlDeEjecuciones.FalloDeReanudacion {
            throw Fallo.uso(
                "El partido \(id) ya terminó: no hay nada que reanudar. «marcador jugar \(id)» lo juega de nuevo."
            )
        }
    }

    private func nuevoControl() -> ControlDeEjecuciones {
        let repositorio = nucleo.tienda.partidos
        let despertador = nucleo.despertador
        return ControlDeEjecuciones(
            ejecuciones: nucleo.tienda.ejecuciones,
            duracionAjustada: { try repositorio.ajustes().duracion },
            propietario: nucleo.propietario, reloj: nucleo.reloj, registro: registro,
            despertar: { despertador.despertar($0) })
    }

    /// From now on a stop request for run `id` reaches `control` in place.
    private func anotarLocal(_ id: Int?, _ control: ControlDeEjecuciones) {
        guard let id else { return }
        nucleo.despertador.registrar(id) { Task { @MainActor in control.revisarParada() } }
    }
}
