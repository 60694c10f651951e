/// How a call to `jugar` or `reanudar` ended.
public enum FinDelPartido: Sendable, Hashable {
    case terminado(enElMinuto: Int)
    /// The task was cancelled or the run was asked to stop from outside.
    case cancelado(enElMinuto: Int)
    /// The run stopped being this process's (another took it over): it wrote nothing more.
    case perdido(enElMinuto: Int)
}
