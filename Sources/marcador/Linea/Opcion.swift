/// A command-line option: a flag (`--json`) or an option with a value (`--db RUTA`).
struct Opcion: Sendable {
    /// Every spelling, the canonical (long) one last: `["-h", "--help"]`.
    var nombres: [String]
    /// The value's placeholder in help (`RUTA`); `nil` for a flag.
    var valor: String?
    /// One sentence ending in a full stop.
    var ayuda: String

    var nombre: String { nombres.last! }

    static func bandera(_ nombres: String..., ayuda: String) -> Opcion {
        Opcion(nombres: nombres, valor: nil, ayuda: ayuda)
    }

    static func conValor(_ nombre: String, _ valor: String, ayuda: String) -> Opcion {
        Opcion(nombres: [nombre], valor: valor, ayuda: ayuda)
    }

    /// `--db RUTA` or `-h, --help`, as help shows it.
    var firma: String {
        nombres.joined(separator: ", ") + (valor.map { " " + $0 } ?? "")
    }
}

/// A positional argument, for help and for counting.
struct Posicional: Sendable {
    var nombre: String
    var ayuda: String
    var opcional = false
}
