/// A kick-off time as openfootball writes it: `18:00`, `18:00 UTC+3`, `13:00 UTC-6`,
/// `19:30 UTC+5:30`. The offset is the venue's, when the file gives it.
public struct HoraDeSaque: Sendable, Hashable, CustomStringConvertible {
    public let hora: Int
    public let minuto: Int
    /// Minutes east of UTC; `nil` when the file gives the time without its offset.
    public let desplazamiento: Int?

    public init?(hora: Int, minuto: Int, desplazamiento: Int? = nil) {
        guard (0...23).contains(hora), (0...59).contains(minuto) else { return nil }
        if let desplazamiento, !(-14 * 60...14 * 60).contains(desplazamiento) { return nil }
        self.hora = hora
        self.minuto = minuto
        self.desplazamiento = desplazamiento
    }

    public init?(_ texto: String) {
        let partes = texto.split(separator: " ", omittingEmptySubsequences: true)
        guard (1...2).contains(partes.count), let reloj = Self.reloj(partes[0]) else {
            return nil
        }
        var desplazamiento: Int?
        if partes.count == 2 {
            guard let leido = Self.desplazamiento(partes[1]) else { return nil }
            desplazamiento = leido
        }
        self.init(hora: reloj.0, minuto: reloj.1, desplazamiento: desplazamiento)
    }

    /// `18:00` or `9:30`.
    private static func reloj(_ texto: Substring) -> (Int, Int)? {
        let partes = texto.split(separator: ":", omittingEmptySubsequences: false)
        guard partes.count == 2, (1...2).contains(partes[0].count), partes[1].count == 2,
            partes.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hora = Int(partes[0]), let minuto = Int(partes[1])
        else { return nil }
        return (hora, minuto)
    }

    /// `UTC`, `UTC+3`, `UTC-6`, `UTC+5:30`, in minutes.
    private static func desplazamiento(_ texto: Substring) -> Int? {
        guard texto.hasPrefix("UTC") else { return nil }
        let resto = texto.dropFirst(3)
        if resto.isEmpty { return 0 }
        guard let signo = resto.first, signo == "+" || signo == "-" else { return nil }
        let partes = resto.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(partes.count),
            partes.allSatisfy({
                (1...2).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber }
            }),
            let horas = Int(partes[0]), horas <= 14
        else { return nil }
        let minutos = partes.count == 2 ? Int(partes[1]) ?? 99 : 0
        guard minutos < 60 else { return nil }
        return (signo == "-" ? -1 : 1) * (horas * 60 + minutos)
    }

    /// `18:00`.
    public var reloj: String {
        (hora < 10 ? "0\(hora)" : "\(hora)") + ":" + (minuto < 10 ? "0\(minuto)" : "\(minuto)")
    }

    /// `UTC+3`, `UTC-4:30`, `UTC`.
    public static func textoDeDesplazamiento(_ minutos: Int) -> String {
        guard minutos != 0 else { return "UTC" }
        let absoluto = abs(minutos)
        let resto = absoluto % 60
        return "UTC" + (minutos < 0 ? "-" : "+") + "\(absoluto / 60)"
            + (resto == 0 ? "" : ":" + (resto < 10 ? "0\(resto)" : "\(resto)"))
    }

    /// As the file wrote it, normalised: `18:00 UTC+3`, `21:00`.
    public var description: String {
        reloj + (desplazamiento.map { " " + Self.textoDeDesplazamiento($0) } ?? "")
    }
}
