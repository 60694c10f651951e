/// How long before kick-off a channel's reminder comes (`--antes 15m`): seconds (`90s`),
/// minutes (`15m`, or a bare number) or hours (`2h`), from one minute to a day.
public struct Antelacion: Sendable, Hashable, CustomStringConvertible {
    public let segundos: Double

    public static let rango: ClosedRange<Double> = 60...86_400

    public init?(segundos: Double) {
        guard segundos.isFinite, Self.rango.contains(segundos) else { return nil }
        self.segundos = segundos
    }

    public init?(_ texto: String) {
        var numero = Substring(texto.lowercased())
        var unidad: Double = 60
        if let ultima = numero.last, let porUnidad = ["s": 1.0, "m": 60, "h": 3_600][ultima] {
            unidad = porUnidad
            numero = numero.dropLast()
        }
        guard !numero.isEmpty, numero.allSatisfy(\.isASCII), let valor = Double(numero)
        else { return nil }
        self.init(segundos: valor * unidad)
    }

    /// `15 min`, `2 h`, `90 s`: as the channel list shows it.
    public var description: String {
        if segundos.truncatingRemainder(dividingBy: 3_600) == 0 {
            return "\(Int(segundos / 3_600)) h"
        }
        if segundos.truncatingRemainder(dividingBy: 60) == 0 { return "\(Int(segundos / 60)) min" }
        return "\(Int(segundos)) s"
    }
}
