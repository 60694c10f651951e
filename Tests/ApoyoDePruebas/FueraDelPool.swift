import Sistema

/// Runs blocking work (a child process waited for, a server's answers) on a thread of its own:
/// the suites running in parallel share a cooperative pool of one thread per core, and the
/// timed end-to-end tests beside them need it.
public func fueraDelPool<T: Sendable>(_ trabajo: @escaping @Sendable () throws -> T) async throws
    -> T
{
    try await withCheckedThrowingContinuation { continuacion in
        Hilo.lanzar { continuacion.resume(with: Result { try trabajo() }) }
    }
}
