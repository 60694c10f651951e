import Torneo

/// Where one run of a match is written down as it is played: the engine's only way to persist.
///
/// Each call is one transaction of the store, so a crash leaves the run at the last whole
/// minute: the minute, the score and the notices of that minute are committed together or not
/// at all. Every write is fenced (architecture.md): it happens only while this chronicle still owns
/// the run, so a process that lost it (stopped, or taken over after a stale heartbeat) writes
/// nothing more and learns why from the answer.
public protocol CronicaDelPartido: Sendable {
    /// The stored run being written, once `empezar` or `reanudar` chose it.
    var ejecucion: Int? { get }

    /// Starts a new run from zero and, in the same transaction, asks every other live run of
    /// the match to stop, so at most one run of a match is ever live. `codigo` identifies it.
    /// - Returns: the runs asked to stop, whose processes the caller wakes.
    @discardableResult
    func empezar(partido: Partido, duracion: Int, msPorMinuto: Int, codigo: String) throws
        -> [EjecucionAjena]

    /// Takes over the stored run (after its process died, or it was cancelled) to go on playing
    /// it, stopping any other live run of the match in the same transaction.
    /// - Throws: `FalloDeEjecucion.noReanudable` when it is no longer resumable.
    @discardableResult
    func reanudar(_ ejecucion: EjecucionGuardada) throws -> [EjecucionAjena]

    /// Commits minute `minuto`: the scripted score, the heartbeat, the goal notices of the
    /// minute and, when `ultimoAviso` is given, the last notice it builds from the manual goals
    /// read in the same transaction (another process may have added one since the previous
    /// minute). `nil` says the last notice stays as stored: most minutes write only their own
    /// row, in one statement.
    /// - Returns: `.hecha` with the manual goals now stored; otherwise nothing was written.
    func registrar(
        minuto: Int, goles: Marcador, avisos: [AvisoDeGol], ultimoAviso: ((Marcador) -> String)?
    ) throws -> Escritura

    /// Adds a manual goal to this run; returns the manual goals now stored.
    func golAMano(_ lado: Lado) throws -> Marcador

    /// Ends the run as finished, unless a stop request arrived first (the caller then cancels)
    /// or the run is no longer this chronicle's.
    func terminar(minuto: Int) throws -> Escritura

    /// Ends the run as cancelled, if it is still this chronicle's.
    func cancelar(minuto: Int) throws
}

/// What a fenced write of a run found.
public enum Escritura: Sendable, Hashable {
    /// Written, by the run's owner; the manual goals now stored.
    case hecha(golesAMano: Marcador)
    /// Someone asked the run to stop (a new start, a duration change): nothing was written,
    /// and the owner cancels it.
    case parada
    /// The run is no longer this process's (another took it over after its heartbeat went
    /// stale, or it ended): nothing was written, and nothing more may be.
    case perdida
}

/// Why a run cannot be started or resumed.
public enum FalloDeEjecucion: Error, Sendable, Hashable {
    /// Another process took the run over, or it finished, since it was read.
    case noReanudable
}
