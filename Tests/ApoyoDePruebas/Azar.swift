import Foundation

/// Random bytes a failing test can replay: SplitMix64 from a seed that the test prints, taken
/// from `MARCADOR_SEMILLA` when set (tests.md: seeded randomness, the seed printed).
public struct Azar: RandomNumberGenerator, Sendable {
    public let semilla: UInt64
    private var estado: UInt64

    /// - Parameter para: what the bytes are for, printed beside the seed.
    public init(para: String) {
        let dada = ProcessInfo.processInfo.environment["MARCADOR_SEMILLA"].flatMap(UInt64.init)
        var sistema = SystemRandomNumberGenerator()
        semilla = dada ?? sistema.next()
        estado = semilla
        print("\(para): semilla \(semilla) (MARCADOR_SEMILLA=\(semilla) la repite)")
    }

    public mutating func next() -> UInt64 {
        estado &+= 0x9E37_79B9_7F4A_7C15
        var z = estado
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `n` random bytes.
    public mutating func bytes(_ n: Int) -> [UInt8] {
        var salida = [UInt8]()
        salida.reserveCapacity(n + 8)
        while salida.count < n {
            withUnsafeBytes(of: next().littleEndian) { salida.append(contentsOf: $0) }
        }
        return Array(salida.prefix(n))
    }
}
