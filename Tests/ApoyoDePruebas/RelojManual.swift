import Synchronization

/// A clock that only moves when the test says so: cancellation tests become deterministic.
public final class RelojManual: Clock, Sendable {
    public struct Instant: InstantProtocol {
        public var desdeElInicio: Duration
        public func advanced(by duration: Duration) -> Instant {
            Instant(desdeElInicio: desdeElInicio + duration)
        }
        public func duration(to other: Instant) -> Duration { other.desdeElInicio - desdeElInicio }
        public static func < (a: Instant, b: Instant) -> Bool { a.desdeElInicio < b.desdeElInicio }
    }

    private struct Espera {
        let id: Int
        let hasta: Instant
        let continuacion: CheckedContinuation<Void, any Error>
    }

    private struct Estado {
        var ahora = Instant(desdeElInicio: .zero)
        var esperas: [Espera] = []
        var siguienteId = 0
        /// Sleeps cancelled before they registered: the check and the registration happen
        /// under the same lock, so a cancellation that comes first is never lost.
        var canceladas: Set<Int> = []
    }

    private let estado = Mutex(Estado())

    public init() {}

    public var now: Instant { estado.withLock { $0.ahora } }
    public var minimumResolution: Duration { .zero }
    /// Sleeps waiting for time to move: a test moves it once the sleeper it means is there.
    public var durmientes: Int { estado.withLock { $0.esperas.count } }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        let id = estado.withLock { estado -> Int in
            estado.siguienteId += 1
            return estado.siguienteId
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuacion: CheckedContinuation<Void, any Error>) in
                enum Ya { case vencida, cancelada, espera }
                let ya = estado.withLock { estado -> Ya in
                    if estado.canceladas.remove(id) != nil { return .cancelada }
                    if deadline <= estado.ahora { return .vencida }
                    estado.esperas.append(
                        Espera(id: id, hasta: deadline, continuacion: continuacion))
                    return .espera
                }
                switch ya {
                case .vencida: continuacion.resume()
                case .cancelada: continuacion.resume(throwing: CancellationError())
                case .espera: break
                }
            }
        } onCancel: {
            let espera = estado.withLock { estado -> Espera? in
                guard let i = estado.esperas.firstIndex(where: { $0.id == id }) else {
                    estado.canceladas.insert(id)
                    return nil
                }
                return estado.esperas.remove(at: i)
            }
            espera?.continuacion.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline passed.
    public func avanzar(_ duracion: Duration) {
        let vencidas = estado.withLock { estado -> [Espera] in
            estado.ahora = estado.ahora.advanced(by: duracion)
            let ahora = estado.ahora
            let vencidas = estado.esperas.filter { $0.hasta <= ahora }
            estado.esperas.removeAll { $0.hasta <= ahora }
            return vencidas
        }
        for espera in vencidas { espera.continuacion.resume() }
    }
}
