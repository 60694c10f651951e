import Synchronization

/// A doorbell for one waiter: `tocar` wakes it, or is remembered until it waits again. Waiting
/// ends early when the waiting task is cancelled.
final class Timbre: Sendable {
    private struct Estado {
        var tocado = false
        var esperando: CheckedContinuation<Void, Never>?
    }
    private let estado = Mutex(Estado())

    func tocar() {
        let despierta = estado.withLock { estado -> CheckedContinuation<Void, Never>? in
            guard let esperando = estado.esperando else {
                estado.tocado = true
                return nil
            }
            estado.esperando = nil
            return esperando
        }
        despierta?.resume()
    }

    /// Returns when rung (now, if it rang since the last wait) or when the task is cancelled.
    func esperar() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuacion: CheckedContinuation<Void, Never>) in
                let ya = estado.withLock { estado -> Bool in
                    // Checked under the lock: a cancellation that came first is never lost.
                    if estado.tocado || Task.isCancelled {
                        estado.tocado = false
                        return true
                    }
                    estado.esperando = continuacion
                    return false
                }
                if ya { continuacion.resume() }
            }
        } onCancel: {
            let despierta = estado.withLock { estado -> CheckedContinuation<Void, Never>? in
                defer { estado.esperando = nil }
                return estado.esperando
            }
            despierta?.resume()
        }
    }
}
