/// The time source of everything that waits (the engine's minutes, the dispatcher's polls and
/// lease renewals), wrapping any `Clock` whose durations are `Duration`.
///
/// The engine waits for deadlines measured from the start of the run (`start + n × msPorMinuto`)
/// rather than sleeping a minute at a time, so the time spent writing each minute does not add
/// up over 90 minutes. Production uses `ContinuousClock`; tests pass an immediate or manual clock.
public struct Reloj: Sendable {
    private let empezarCuenta: @Sendable () -> @Sendable (Duration) async throws -> Void

    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        empezarCuenta = {
            let inicio = clock.now
            return { desplazamiento in
                try await clock.sleep(until: inicio.advanced(by: desplazamiento), tolerance: nil)
            }
        }
    }

    public static let continuo = Reloj(ContinuousClock())

    /// Marks "now" as the start and returns a function that waits until start + offset.
    /// Waiting throws `CancellationError` when the task is cancelled.
    public func empezar() -> @Sendable (Duration) async throws -> Void {
        empezarCuenta()
    }

    /// Waits `duracion` from now; throws `CancellationError` when the task is cancelled.
    public func esperar(_ duracion: Duration) async throws {
        try await empezar()(duracion)
    }
}
