/// How failed deliveries are retried: exponential backoff with jitter, up to a number of
/// attempts, after which the delivery is a dead letter (`fallida`).
///
/// Defaults: 5 attempts; waits of 1, 2, 4, 8 s (each scaled by a random factor between 0.5 and
/// 1, so dispatchers that failed together do not retry together), never more than 5 minutes;
/// a `Retry-After` from the other side is honoured up to that same cap.
public struct PoliticaDeReintentos: Sendable {
    public var maximoDeIntentos: Int
    public var espera: Double
    public var tope: Double
    /// Returns a number in [0, 1): the jitter source, injectable for tests.
    public var aleatorio: @Sendable () -> Double

    public init(
        maximoDeIntentos: Int = 5, espera: Double = 1, tope: Double = 300,
        aleatorio: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.maximoDeIntentos = maximoDeIntentos
        self.espera = espera
        self.tope = tope
        self.aleatorio = aleatorio
    }

    /// Seconds to wait after failed attempt number `intento` (1-based).
    public func demora(trasElIntento intento: Int, pedida: Double? = nil) -> Double {
        if let pedida, pedida >= 0 { return min(pedida, tope) }
        let exponencial = espera * Double(1 << min(max(intento - 1, 0), 30))
        return min(exponencial, tope) * (0.5 + aleatorio() / 2)
    }
}
