/// Where a run of a match is written down as it is played: the engine's only way to persist.
///
/// Each call is one transaction, so a crash leaves the run at the last whole minute: the minute,
/// the score and the notices of that minute are committed together or not at all.
public protocol CronicaDelPartido: Sendable {
    /// Starts a new run from zero. `codigo` identifies it in the log.
    func empezar(partido: Partido, duracion: Int, msPorMinuto: Int, codigo: String) throws

    /// Takes over the stored run (after its process died) to go on playing it.
    func reanudar(_ ejecucion: EjecucionGuardada) throws

    /// Commits minute `minuto`: the scripted score, the goal notices of the minute and the last
    /// notice, which `ultimoAviso` builds from the manual goals read in the same transaction
    /// (another process may have added one since the previous minute).
    /// - Returns: the manual goals now stored, or `nil` when someone asked this run to stop, in
    ///   which case nothing was written.
    func registrar(
        minuto: Int, goles: Marcador, avisos: [AvisoDeGol], ultimoAviso: (Marcador) -> String
    ) throws -> Marcador?

    /// Adds a manual goal to this run; returns the manual goals now stored.
    func golAMano(_ lado: Lado) throws -> Marcador

    func terminar(minuto: Int) throws
    func cancelar(minuto: Int) throws
}
