/// A day of the Gregorian calendar, written `AAAA-MM-DD`: what openfootball files, `--fecha`,
/// `--desde` and `--hasta` give. Only real days exist (no 2024-02-30).
public struct FechaDeCalendario: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let ano: Int
    public let mes: Int
    public let dia: Int

    /// Years a football file may speak of.
    public static let anos = 1850...2200

    public init?(ano: Int, mes: Int, dia: Int) {
        guard Self.anos.contains(ano), (1...12).contains(mes),
            (1...Self.diasDelMes(mes, de: ano)).contains(dia)
        else { return nil }
        self.ano = ano
        self.mes = mes
        self.dia = dia
    }

    /// `2018-06-14`: four digits, two, two; nothing else.
    public init?(_ texto: String) {
        // Read as bytes: every stored match's date is read on each list and table, and
        // splitting by characters was a sixth of `clasificacion`'s time.
        var texto = texto
        guard
            let (ano, mes, dia) = texto.withUTF8({ b -> (Int, Int, Int)? in
                guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-") else {
                    return nil
                }
                func numero(_ rango: Range<Int>) -> Int? {
                    var valor = 0
                    for i in rango {
                        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[i]) else {
                            return nil
                        }
                        valor = valor * 10 + Int(b[i] - UInt8(ascii: "0"))
                    }
                    return valor
                }
                guard let ano = numero(0..<4), let mes = numero(5..<7), let dia = numero(8..<10)
                else { return nil }
                return (ano, mes, dia)
            })
        else { return nil }
        self.init(ano: ano, mes: mes, dia: dia)
    }

    /// The day a user names by a word, from `hoy` (their today): `hoy`, `mañana`, `ayer`, in any
    /// case, with or without the tilde; `nil` for any other text.
    public static func relativa(_ palabra: String, hoy: FechaDeCalendario) -> FechaDeCalendario? {
        switch palabra.lowercased() {
        case "hoy": hoy
        case "mañana", "manana": hoy.sumando(dias: 1)
        case "ayer": hoy.sumando(dias: -1)
        default: nil
        }
    }

    /// The day `dias` after this one (before it, when negative).
    public func sumando(dias: Int) -> FechaDeCalendario {
        FechaDeCalendario(diasDesde1970: diasDesde1970 + dias)
    }

    public static func esBisiesto(_ ano: Int) -> Bool {
        ano % 4 == 0 && (ano % 100 != 0 || ano % 400 == 0)
    }

    public static func diasDelMes(_ mes: Int, de ano: Int) -> Int {
        switch mes {
        case 2: esBisiesto(ano) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 (negative before it), counted on the proleptic Gregorian calendar.
    public var diasDesde1970: Int {
        // Years start in March here, so the leap day is the last day of the year.
        let anoDeMarzo = mes <= 2 ? ano - 1 : ano
        let era = (anoDeMarzo >= 0 ? anoDeMarzo : anoDeMarzo - 399) / 400
        let anoDeLaEra = anoDeMarzo - era * 400
        let diaDelAno = (153 * (mes > 2 ? mes - 3 : mes + 9) + 2) / 5 + dia - 1
        let diaDeLaEra = anoDeLaEra * 365 + anoDeLaEra / 4 - anoDeLaEra / 100 + diaDelAno
        return era * 146_097 + diaDeLaEra - 719_468
    }

    /// The day `dias` after 1970-01-01 (the inverse of `diasDesde1970`).
    public init(diasDesde1970 dias: Int) {
        let desplazados = dias + 719_468
        let era = (desplazados >= 0 ? desplazados : desplazados - 146_096) / 146_097
        let diaDeLaEra = desplazados - era * 146_097
        let anoDeLaEra =
            (diaDeLaEra - diaDeLaEra / 1_460 + diaDeLaEra / 36_524 - diaDeLaEra / 146_096) / 365
        let diaDelAno = diaDeLaEra - (365 * anoDeLaEra + anoDeLaEra / 4 - anoDeLaEra / 100)
        let mesDeMarzo = (5 * diaDelAno + 2) / 153
        dia = diaDelAno - (153 * mesDeMarzo + 2) / 5 + 1
        mes = mesDeMarzo < 10 ? mesDeMarzo + 3 : mesDeMarzo - 9
        ano = anoDeLaEra + era * 400 + (mes <= 2 ? 1 : 0)
    }

    public var description: String {
        func dos(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(ano)-\(dos(mes))-\(dos(dia))"
    }

    public static func < (a: Self, b: Self) -> Bool {
        (a.ano, a.mes, a.dia) < (b.ano, b.mes, b.dia)
    }
}
