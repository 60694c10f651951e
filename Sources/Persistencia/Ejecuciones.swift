import Sistema
import Torneo

/// Runs as every process sees them: the latest run of each match, manual goals, and the
/// requests that stop a run played elsewhere. Each method is one transaction of the store.
public protocol Ejecuciones: Sendable {
    /// The chronicle for a new or resumed run of `partido` owned by `propietario`.
    /// - Parameters:
    ///   - duracionFija: `--duracion` chose it, so it does not follow `ajustes duracion`.
    ///   - canalesPropios: process-local channels (the terminal banner) added to each notice.
    func cronica(
        partido: Int, duracionFija: Bool, canalesPropios: [String], propietario: Propietario
    ) -> any CronicaDelPartido

    /// The latest run of a match, if it was ever played or given a manual goal.
    func ultima(partido: Int) throws -> EjecucionGuardada?

    /// Every run of a match, oldest first.
    func todas(partido: Int) throws -> [EjecucionGuardada]

    /// One run by id.
    func ejecucion(id: Int) throws -> EjecucionGuardada?

    /// Why someone asked run `id` to stop, if they did.
    func cancelacionPedida(ejecucion id: Int) throws -> MotivoDeCancelacion?

    /// Stores the duration setting and, in the same transaction, asks every live run that
    /// follows it and would now last a different time to stop (its process starts again).
    /// - Returns: the runs asked to stop, whose processes the caller wakes.
    func cambiarDuracion(_ ajuste: Int, propietario: Propietario) throws -> [EjecucionAjena]

    /// A manual goal for the latest run of `partido` (a new, unstarted run if it has none),
    /// or with `quitar` the undo of the last manual goal of that side.
    /// - Returns: the run as it is now, or `nil` when there was no manual goal to undo.
    func golAMano(partido: Int, lado: Lado, quitar: Bool, duracion: Int, codigo: String) throws
        -> EjecucionGuardada?
}
