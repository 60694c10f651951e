/// The process that owns a run or a lease: its host, its pid and its start time, which together
/// survive pid reuse and tell processes on different machines apart.
/// Whether such a process is alive is told beside it (`Proceso.swift`).
public struct Propietario: Sendable, Hashable, Codable {
    /// The host name (`gethostname`); empty where it does not matter (one SQLite file, one host).
    public var anfitrion: String
    public var pid: Int
    /// Clock ticks since boot when the process started (`/proc/<pid>/stat`, field 22); 0 where
    /// there is no `/proc`, and then only the pid is compared.
    public var inicio: Int

    public init(anfitrion: String = "", pid: Int, inicio: Int) {
        self.anfitrion = anfitrion
        self.pid = pid
        self.inicio = inicio
    }
}
