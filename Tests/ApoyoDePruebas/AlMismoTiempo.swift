import Dispatch
import Foundation
import Synchronization

/// Runs `trabajo` on `n` threads of their own released together: each waits at a gate until
/// all are ready, so their calls (an HTTP request, a process started) leave within
/// microseconds of one another. Blocking work, never on the cooperative pool.
/// - Returns: each thread's result, by index.
public func alMismoTiempo<T: Sendable>(
    _ n: Int, _ trabajo: @escaping @Sendable (Int) throws -> T
) async throws -> [T] {
    let listos = DispatchSemaphore(value: 0)
    let puerta = DispatchSemaphore(value: 0)
    let resultados = Mutex<[Int: Result<T, any Error>]>([:])
    let hechos = DispatchGroup()
    for i in 0..<n {
        hechos.enter()
        Thread.detachNewThread {
            listos.signal()
            puerta.wait()
            let resultado = Result { try trabajo(i) }
            resultados.withLock { $0[i] = resultado }
            hechos.leave()
        }
    }
    try await fueraDelPool {
        for _ in 0..<n { listos.wait() }
        for _ in 0..<n { puerta.signal() }
        hechos.wait()
    }
    let todos = resultados.withLock { $0 }
    return try (0..<n).map { try todos[$0]!.get() }
}
