import Aplicacion
import Sistema
import Torneo

/// A type an option or argument can be read as: the conversion, the placeholder help shows, and
/// the values completion may offer.
protocol ValorDeLinea {
    /// Reads `texto` given for `nombre` (`--duracion`, `ID`); throws the user's usage error.
    static func leer(_ texto: String, para nombre: String) throws(Fallo) -> Self
    /// `NÚMERO`, `SI|NO`…: what help writes after the option.
    static var marcador: String { get }
    /// Every accepted value, when there are few (completion and help list them).
    static var valoresPosibles: [String]? { get }
}

extension ValorDeLinea {
    static var valoresPosibles: [String]? { nil }
}

extension Int: ValorDeLinea {
    static func leer(_ texto: String, para nombre: String) throws(Fallo) -> Int {
        guard let numero = Int(texto) else {
            throw .uso("El valor de \(nombre) debe ser un número entero, no \(citado(texto)).")
        }
        return numero
    }
    static var marcador: String { "N" }
}

extension Double: ValorDeLinea {
    static func leer(_ texto: String, para nombre: String) throws(Fallo) -> Double {
        guard let numero = Double(texto), numero.isFinite else {
            throw .uso("El valor de \(nombre) debe ser un número, no \(citado(texto)).")
        }
        return numero
    }
    static var marcador: String { "N" }
}

extension String: ValorDeLinea {
    static func leer(_ texto: String, para nombre: String) throws(Fallo) -> String { texto }
    static var marcador: String { "TEXTO" }
}

extension Lado: ValorDeLinea {
    static func leer(_ texto: String, para nombre: String) throws(Fallo) -> Lado {
        guard let lado = Lado(rawValue: texto) else {
            throw .uso("Indica «local» o «visitante», no \(citado(texto)).")
        }
        return lado
    }
    static var marcador: String { "local|visitante" }
    static var valoresPosibles: [String]? { Lado.allCases.map(\.rawValue) }
}

extension TipoDeCanal: ValorDeLinea {
    static func leer(_ texto: String, para nombre: String) throws(Fallo) -> TipoDeCanal {
        guard let tipo = TipoDeCanal(rawValue: texto), !tipo.esDispositivo else {
            throw .uso("Tipo de canal desconocido \(citado(texto)). Tipos: \(TipoDeCanal.lista).")
        }
        return tipo
    }
    static var marcador: String { "TIPO" }
    static var valoresPosibles: [String]? { TipoDeCanal.configurables.map(\.rawValue) }
}

/// A yes or no, spelled one way everywhere: `si` (or `sí`) and `no`.
struct SiNo: ValorDeLinea, Hashable {
    let valor: Bool

    static func leer(_ texto: String, para nombre: String) throws(Fallo) -> SiNo {
        switch texto.lowercased() {
        case "si", "sí": SiNo(valor: true)
        case "no": SiNo(valor: false)
        default: throw .uso("Indica «si» o «no» para \(nombre), no \(citado(texto)).")
        }
    }
    static var marcador: String { "si|no" }
    static var valoresPosibles: [String]? { ["si", "no"] }
}

/// A match id: a positive integer.
struct IdDePartido: ValorDeLinea, Hashable {
    let valor: Int

    static func leer(_ texto: String, para nombre: String) throws(Fallo) -> IdDePartido {
        guard let id = Int(texto), id > 0 else {
            throw .uso("El id del partido es un número entero positivo, no \(citado(texto)).")
        }
        return IdDePartido(valor: id)
    }
    static var marcador: String { "ID" }
}

/// A calendar day as openfootball writes it: `2018-06-14`.
struct Fecha: ValorDeLinea, Hashable {
    let dia: FechaDeCalendario

    static func leer(_ texto: String, para nombre: String) throws(Fallo) -> Fecha {
        // `hoy`, `mañana` and `ayer` are days of the user's zone (TZ), as kick-offs are shown.
        guard
            let dia = FechaDeCalendario(texto)
                ?? FechaDeCalendario.relativa(texto, hoy: ZonaHoraria.hoy)
        else {
            throw .uso(
                "\(nombre) es un día del calendario como 2018-06-14, o hoy, mañana o ayer; "
                    + "no \(citado(texto)).")
        }
        return Fecha(dia: dia)
    }
    static var marcador: String { "AAAA-MM-DD" }
}

/// The shells `completado` writes a script for.
enum Shell: String, ValorDeLinea, CaseIterable {
    case bash, zsh, fish

    static func leer(_ texto: String, para nombre: String) throws(Fallo) -> Shell {
        guard let shell = Shell(rawValue: texto) else {
            throw .uso("Shells: bash, zsh o fish; no \(citado(texto)).")
        }
        return shell
    }
    static var marcador: String { "bash|zsh|fish" }
    static var valoresPosibles: [String]? { allCases.map(\.rawValue) }
}

/// A match status as `partidos --estado` filters by it (the `--json` words).
struct FiltroDeEstado: ValorDeLinea, Hashable {
    let clave: String

    static let claves = ["sin_empezar", "en_juego", "terminado", "cancelado", "interrumpido"]

    static func leer(_ texto: String, para nombre: String) throws(Fallo) -> FiltroDeEstado {
        let clave = String(texto.map { $0 == "-" ? "_" : $0 }).lowercased()
        guard claves.contains(clave) else {
            throw .uso("Estados: " + claves.joined(separator: ", ") + "; no \(citado(texto)).")
        }
        return FiltroDeEstado(clave: clave)
    }
    static var marcador: String { "ESTADO" }
    static var valoresPosibles: [String]? { claves }
}

extension Clasificacion.Desempate: ValorDeLinea {
    static func leer(_ texto: String, para nombre: String) throws(Fallo) -> Self {
        guard let desempate = Self(rawValue: texto.lowercased()) else {
            throw .uso(
                "\(nombre): goles (diferencia y goles a favor primero) o enfrentamientos "
                    + "(el enfrentamiento directo primero); no \(citado(texto)).")
        }
        return desempate
    }
    static var marcador: String { "CRITERIO" }
    static var valoresPosibles: [String]? { allCases.map(\.rawValue) }
}

/// `--avisar goles,anulados,rojas,alineaciones,inicio,descanso,final,recordatorio`.
struct ClasesElegidas: ValorDeLinea, Hashable {
    /// One kind completes at a time (`goles,` then the next).
    static var valoresPosibles: [String]? { ClaseDeAviso.allCases.map(\.rawValue) }

    let clases: Set<ClaseDeAviso>

    static func leer(_ texto: String, para nombre: String) throws(Fallo) -> ClasesElegidas {
        guard let clases = ClaseDeAviso.leer(texto) else {
            throw .uso(
                "\(nombre) es una lista de "
                    + ClaseDeAviso.allCases.map(\.rawValue).joined(separator: ", ")
                    + " separadas por comas; no \(citado(texto)).")
        }
        return ClasesElegidas(clases: clases)
    }
    static var marcador: String { "CLASES" }
}

/// `--antes 15m`.
extension Antelacion: ValorDeLinea {
    static func leer(_ texto: String, para nombre: String) throws(Fallo) -> Antelacion {
        guard let antelacion = Antelacion(texto) else {
            throw .uso(
                "\(nombre) es un tiempo antes del saque, de un minuto a un día: 90s, 15m o 2h "
                    + "(un número solo son minutos); no \(citado(texto)).")
        }
        return antelacion
    }
    static var marcador: String { "TIEMPO" }
}

/// `--horas-tranquilas 23:00-08:00`.
extension HorasTranquilas: ValorDeLinea {
    static func leer(_ texto: String, para nombre: String) throws(Fallo) -> HorasTranquilas {
        guard let horas = HorasTranquilas(texto) else {
            throw .uso(
                "\(nombre) es un intervalo de horas como 23:00-08:00 (en tu zona horaria); no \(citado(texto))."
            )
        }
        return horas
    }
    static var marcador: String { "HH:MM-HH:MM" }
}
