/// A long-running job of the program (architecture.md): the match runner, the dispatcher, the
/// feed poller, the web server. Front ends never wire signals or drains around one: they put
/// their services in a `GrupoDeServicios` and render what the services leave behind.
public protocol Servicio: Sendable {
    /// Runs until its work is done or its task is cancelled. Cancelled, it stops taking work,
    /// finishes or gives back what is in flight within its own bound (`Cierre` says whether a
    /// signal asked for no wait at all) and releases its leases, and only then returns.
    func run() async throws
}

/// Waits until the calling task is cancelled: the body of a service whose work is done by
/// others (callbacks, a server's own thread) until the group stops it.
public func hastaQueLoParen() async {
    let (flujo, fin) = AsyncStream<Never>.makeStream()
    await withTaskCancellationHandler {
        for await _ in flujo {}
    } onCancel: {
        fin.finish()
    }
}
