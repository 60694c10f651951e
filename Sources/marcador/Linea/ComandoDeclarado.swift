import Aplicacion

/// What a command is called, says and contains.
struct ConfiguracionDeComando {
    var nombre: String
    /// Other spellings that work but help does not show (`anadir` for `añadir`).
    var alias: [String] = []
    /// One line for the parent's help.
    var resumen: String
    /// More help shown under the usage (accepted values, what happens).
    var detalles: String?
    /// Commands that run (`Comando`), so the parsed leaf runs as it is: casting it to the
    /// protocol at run time would scan every conformance record in the binary first.
    var subcomandos: [any Comando.Type] = []
    /// Works but is not listed (internal generators).
    var oculto = false
}

/// A (sub)command as the parser, help and completion see it: a type with its arguments,
/// options and flags declared as properties. Help, completions and the man page come from these
/// declarations; what it does is `Comando` (in the executable's commands).
@MainActor
protocol ComandoDeclarado {
    static var configuracion: ConfiguracionDeComando { get }
    init()
    /// Rules between several values (checked after parsing, before anything runs).
    func validar() throws(Fallo)
}

extension ComandoDeclarado {
    func validar() throws(Fallo) {}
}

/// The options every command accepts, wherever they are written.
@MainActor
struct OpcionesGlobales {
    @Opcion(
        "--db", marcador: "RUTA",
        ayuda:
            "Base de datos a usar (también MARCADOR_DB); por defecto, marcador.sqlite3 en $XDG_DATA_HOME/marcador o ~/.local/share/marcador."
    )
    var db: String?

    @Bandera(
        "--reiniciar-datos",
        ayuda:
            "Antes del comando, borra los partidos y vuelve a cargar los de ejemplo (los ajustes y el registro se conservan)."
    )
    var reiniciarDatos: Bool

    @Bandera("-h", "--help", ayuda: "Muestra la ayuda (la general o la de un comando).")
    var ayuda: Bool

    @Bandera("-V", "--version", ayuda: "Muestra la versión.")
    var version: Bool

    /// Marks help as asked for even if the line had other mistakes.
    func ayudaPedida() {
        if !ayuda { try? _ayuda.asignar(nil) }
    }
}
