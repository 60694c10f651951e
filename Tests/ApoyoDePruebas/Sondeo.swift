/// Waits for a state by looking at it again and again: the first look again 1 ms later, each
/// pause then twice the one before, up to 20 ms. What a test waits for usually comes within a
/// few milliseconds and is seen at once; a long wait costs 50 wake-ups a second. Fixed polls
/// of 1–5 ms in every waiting test took more than a quarter of two cores in the process suites
/// (perf, 2026-12-02), CPU the programs under test needed.
/// - Returns: the first value `mirar` gives, or `nil` once `limite` has passed.
public func sondear<T>(limite: Duration, _ mirar: () async throws -> T?) async rethrows -> T? {
    let tope = ContinuousClock.now + limite
    var pausa = Duration.milliseconds(1)
    while true {
        if let valor = try await mirar() { return valor }
        let ahora = ContinuousClock.now
        if ahora >= tope { return nil }
        try? await Task.sleep(for: min(pausa, tope - ahora))
        pausa = min(pausa * 2, .milliseconds(20))
    }
}

/// `sondear` for a condition: whether it came to hold before `limite` passed.
public func sondearQue(limite: Duration, _ cumple: () async throws -> Bool) async rethrows -> Bool {
    try await sondear(limite: limite) { try await cumple() ? true : nil } ?? false
}
