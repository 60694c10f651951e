import Aplicacion

/// The declarations a command makes of its arguments, options and flags: each one is both what
/// help, completion and the man page describe and the typed key the command reads with
/// (swift-argument-parser's shape: an undeclared option cannot be read, a declared one cannot
/// be missing from help).
struct Especificacion {
    enum Clase: Equatable {
        case bandera
        case opcion(marcador: String)
        case argumento(opcional: Bool)
    }

    /// Every spelling of an option (`-j`, `--json`), or a positional's display name (`ID`).
    var nombres: [String]
    var clase: Clase
    /// One sentence ending in a full stop.
    var ayuda: String
    var repetible = false
    var oculta = false
    var valoresPosibles: [String]?
    /// An option the command cannot do without (`--url` of a webhook): usage shows it bare.
    var obligatoria = false

    /// The canonical (long) spelling.
    var nombre: String { nombres.last! }

    var tomaValor: Bool {
        if case .opcion = clase { return true }
        return false
    }

    /// `--db RUTA`, `-h, --help`, `ID`: as help shows it.
    var firma: String {
        switch clase {
        case .bandera: nombres.joined(separator: ", ")
        case .opcion(let marcador): nombres.joined(separator: ", ") + " " + marcador
        case .argumento: nombre
        }
    }
}

/// Where the parser writes what it read for one declaration; the declaration reads it back.
@MainActor
final class Lectura {
    var textos: [String] = []
    var valores: [Any] = []
}

/// What every property wrapper below is, for the parser and the help writer.
@MainActor
protocol Declaracion {
    var especificacion: Especificacion { get }
    /// Shared by every copy of the declaration, so the command's own property reads the values.
    var lectura: Lectura { get }
    /// Converts and stores one value (`nil` for a flag).
    func asignar(_ texto: String?) throws(Fallo)
    /// Whether a value was given.
    var dada: Bool { get }
}

/// An option with a value: `@Opcion("--duracion", marcador: "MINUTOS", ayuda: "…") var duracion: Int?`
@MainActor
@propertyWrapper
struct Opcion<Valor: ValorDeLinea>: Declaracion {
    let especificacion: Especificacion
    let lectura = Lectura()
    let comprobar: (Valor, String) throws(Fallo) -> Void

    /// - Parameter valores: the words a shell completes the value to, when its type does not
    ///   say (a text that must be one of a few).
    init(
        _ nombres: String..., marcador: String? = nil, ayuda: String, oculta: Bool = false,
        obligatoria: Bool = false, valores: [String]? = nil,
        comprobar: @escaping (Valor, String) throws(Fallo) -> Void = { _, _ in }
    ) {
        especificacion = Especificacion(
            nombres: nombres, clase: .opcion(marcador: marcador ?? Valor.marcador), ayuda: ayuda,
            oculta: oculta, valoresPosibles: valores ?? Valor.valoresPosibles,
            obligatoria: obligatoria)
        self.comprobar = comprobar
        Recogida.apuntar(self)
    }

    var wrappedValue: Valor? { lectura.valores.last as? Valor }

    func asignar(_ texto: String?) throws(Fallo) {
        let valor = try Valor.leer(texto ?? "", para: especificacion.nombre)
        try comprobar(valor, texto ?? "")
        lectura.textos.append(texto ?? "")
        lectura.valores.append(valor)
    }

    var dada: Bool { !lectura.valores.isEmpty }
}

extension Opcion where Valor: Comparable {
    /// An option whose value must lie in `rango`; the message names the option and the range.
    init(
        _ nombres: String..., marcador: String? = nil, rango: ClosedRange<Valor>,
        unidad: String = "",
        ayuda: String, oculta: Bool = false
    ) {
        let nombre = nombres.last!
        especificacion = Especificacion(
            nombres: nombres, clase: .opcion(marcador: marcador ?? Valor.marcador), ayuda: ayuda,
            oculta: oculta)
        comprobar = { (valor: Valor, texto: String) throws(Fallo) in
            guard rango.contains(valor) else {
                throw .uso(
                    "\(nombre) va de \(rango.lowerBound) a \(rango.upperBound)\(unidad), no \(citado(texto))."
                )
            }
        }
        Recogida.apuntar(self)
    }
}

extension Opcion where Valor: Comparable {
    /// An option with only a lower bound: `--ultimas` is 1 or more.
    init(
        _ nombres: String..., marcador: String? = nil, desde minimo: Valor, ayuda: String,
        oculta: Bool = false
    ) {
        let nombre = nombres.last!
        especificacion = Especificacion(
            nombres: nombres, clase: .opcion(marcador: marcador ?? Valor.marcador), ayuda: ayuda,
            oculta: oculta)
        comprobar = { (valor: Valor, texto: String) throws(Fallo) in
            guard valor >= minimo else {
                throw .uso("\(nombre) debe ser \(minimo) o más, no \(citado(texto)).")
            }
        }
        Recogida.apuntar(self)
    }
}

/// An option that may be given several times: `--equipo Francia --equipo Brasil`.
@MainActor
@propertyWrapper
struct Opciones<Valor: ValorDeLinea>: Declaracion {
    let especificacion: Especificacion
    let lectura = Lectura()

    init(_ nombres: String..., marcador: String? = nil, ayuda: String) {
        especificacion = Especificacion(
            nombres: nombres, clase: .opcion(marcador: marcador ?? Valor.marcador), ayuda: ayuda,
            repetible: true, valoresPosibles: Valor.valoresPosibles)
        Recogida.apuntar(self)
    }

    var wrappedValue: [Valor] { lectura.valores.compactMap { $0 as? Valor } }

    func asignar(_ texto: String?) throws(Fallo) {
        lectura.valores.append(try Valor.leer(texto ?? "", para: especificacion.nombre))
    }

    var dada: Bool { !lectura.valores.isEmpty }
}

/// A flag: `@Bandera("--json", ayuda: "…") var json: Bool`.
@MainActor
@propertyWrapper
struct Bandera: Declaracion {
    let especificacion: Especificacion
    let lectura = Lectura()

    init(_ nombres: String..., ayuda: String, oculta: Bool = false) {
        especificacion = Especificacion(
            nombres: nombres, clase: .bandera, ayuda: ayuda, oculta: oculta)
        Recogida.apuntar(self)
    }

    var wrappedValue: Bool { !lectura.textos.isEmpty }

    func asignar(_ texto: String?) throws(Fallo) { lectura.textos.append("") }

    var dada: Bool { wrappedValue }
}

/// A positional argument that must be given: `@Argumento("ID", ayuda: "…") var id: IdDePartido`.
@MainActor
@propertyWrapper
struct Argumento<Valor: ValorDeLinea>: Declaracion {
    let especificacion: Especificacion
    let lectura = Lectura()

    init(_ nombre: String, ayuda: String) {
        especificacion = Especificacion(
            nombres: [nombre], clase: .argumento(opcional: false), ayuda: ayuda,
            valoresPosibles: Valor.valoresPosibles)
        Recogida.apuntar(self)
    }

    /// Read only after parsing, which guarantees the value (a read before is a programmer error).
    var wrappedValue: Valor {
        guard let valor = lectura.valores.last as? Valor else {
            preconditionFailure("\(especificacion.nombre) read before parsing")
        }
        return valor
    }

    func asignar(_ texto: String?) throws(Fallo) {
        lectura.valores.append(try Valor.leer(texto ?? "", para: especificacion.nombre))
    }

    var dada: Bool { !lectura.valores.isEmpty }
}

/// A positional argument that may be left out.
@MainActor
@propertyWrapper
struct ArgumentoOpcional<Valor: ValorDeLinea>: Declaracion {
    let especificacion: Especificacion
    let lectura = Lectura()

    init(_ nombre: String, ayuda: String) {
        especificacion = Especificacion(
            nombres: [nombre], clase: .argumento(opcional: true), ayuda: ayuda,
            valoresPosibles: Valor.valoresPosibles)
        Recogida.apuntar(self)
    }

    var wrappedValue: Valor? { lectura.valores.last as? Valor }

    func asignar(_ texto: String?) throws(Fallo) {
        lectura.valores.append(try Valor.leer(texto ?? "", para: especificacion.nombre))
    }

    var dada: Bool { !lectura.valores.isEmpty }
}

/// Options several commands share, declared once (swift-argument-parser's `@OptionGroup`):
/// its declarations count as its command's, in the place the group is written.
@MainActor
protocol GrupoDeOpciones {}

/// Collects the declarations a command makes while it is being made: every property wrapper
/// above reports itself from its initializer, and stored properties are initialized in the
/// order they are written, so the list comes out in declaration order, a group's in its place.
/// Reflection (`Mirror`) would find the same list, but it demangles every field's type and
/// scans every protocol conformance in the binary at start-up, a third of `--version`'s time.
@MainActor
enum Recogida {
    private static var abiertas: [[any Declaracion]] = []

    static func apuntar(_ declaracion: any Declaracion) {
        guard !abiertas.isEmpty else { return }
        abiertas[abiertas.count - 1].append(declaracion)
    }

    /// What `crear` makes, with the declarations made while it ran.
    static func declarado<Valor>(_ crear: () -> Valor) -> (
        valor: Valor, declaraciones: [any Declaracion]
    ) {
        abiertas.append([])
        let valor = crear()
        return (valor, abiertas.removeLast())
    }
}

/// The declarations of a command type, in the order written.
@MainActor
func declaraciones(de tipo: any ComandoDeclarado.Type) -> [any Declaracion] {
    Recogida.declarado { tipo.init() }.declaraciones
}

extension OpcionesGlobales {
    /// The global options' declarations, in the order written.
    static var declaraciones: [any Declaracion] {
        Recogida.declarado { OpcionesGlobales() }.declaraciones
    }
}

/// Every remaining positional word: `marcador help avisos canales`.
@MainActor
@propertyWrapper
struct ArgumentosRestantes: Declaracion {
    let especificacion: Especificacion
    let lectura = Lectura()

    init(_ nombre: String, ayuda: String) {
        especificacion = Especificacion(
            nombres: [nombre], clase: .argumento(opcional: true), ayuda: ayuda, repetible: true)
        Recogida.apuntar(self)
    }

    var wrappedValue: [String] { lectura.textos }

    func asignar(_ texto: String?) throws(Fallo) { lectura.textos.append(texto ?? "") }

    var dada: Bool { !lectura.textos.isEmpty }
}
