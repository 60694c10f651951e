import Almacen
import Sistema
import Torneo

/// The whole command line: parse, dispatch, and turn every error into a message and a status.
@MainActor
enum Programa {
    static let version = "0.1.0"

    /// Only implemented commands are listed: help never promises what does not exist.
    static let comandos: [any Comando.Type] = [
        ComandoPartidos.self,
        ComandoJugar.self,
        ComandoGolAMano.self,
        ComandoAjustes.self,
        ComandoAvisos.self,
        ComandoImportar.self,
        ComandoRegistro.self,
    ]

    static let globales: [Opcion] = [
        .conValor(
            "--db", "RUTA",
            ayuda:
                "Base de datos a usar (también MARCADOR_DB); por defecto, marcador.sqlite3 en $XDG_DATA_HOME/marcador o ~/.local/share/marcador."
        ),
        .bandera(
            "--reiniciar-datos",
            ayuda:
                "Antes del comando, borra los partidos y vuelve a cargar los de ejemplo (los ajustes y el registro se conservan)."
        ),
        .bandera("-h", "--help", ayuda: "Muestra la ayuda (la general o la de un comando)."),
        .bandera("--version", ayuda: "Muestra la versión."),
    ]

    static func ejecutar(_ linea: [String], entorno: [String: String]) async -> CodigoDeSalida {
        let terminal = Terminal.actual(entorno: entorno)
        var contexto: Contexto?
        do {
            let argumentos = try Argumentos.analizar(
                linea, globales: globales,
                comandos: Dictionary(
                    uniqueKeysWithValues: comandos.map { ($0.nombre, $0.opciones) }))
            if argumentos.tiene("--version") {
                terminal.linea("marcador \(version)")
                return .ok
            }
            guard let nombre = argumentos.comando,
                let tipo = comandos.first(where: { $0.nombre == nombre })
            else {
                if argumentos.tiene("--reiniciar-datos") && !argumentos.tiene("--help") {
                    let soloReiniciar = Contexto(
                        argumentos: argumentos, entorno: entorno, terminal: terminal)
                    contexto = soloReiniciar
                    _ = try soloReiniciar.almacen()
                    terminal.linea(
                        "Datos reiniciados en «\(TextoSeguro.limpio(try soloReiniciar.rutaDeLaBase))»."
                    )
                    return .ok
                }
                terminal.escribir(Ayuda.general())
                return .ok
            }
            if argumentos.tiene("--help") {
                terminal.escribir(Ayuda.de(tipo))
                return .ok
            }
            let comando = try tipo.init(argumentos)
            let actual = Contexto(argumentos: argumentos, entorno: entorno, terminal: terminal)
            contexto = actual
            if argumentos.tiene("--reiniciar-datos") {
                // The command is checked against what the data will be (the seed) before the
                // data is wiped: a command that would fail with 64 or 66 changes nothing.
                try comando.validarTrasReinicio(en: try Almacen.enMemoria())
            }
            return try await comando.ejecutar(en: actual)
        } catch {
            let fallo = Fallo.deBaseDeDatos(error, ruta: contexto?.rutaParaMensajes ?? "")
            // Messages quote what the user or a file said: made safe before the terminal.
            var mensaje = "marcador: \(TextoSeguro.limpio(fallo.mensaje))\n"
            if fallo.codigo == .uso {
                mensaje += "Prueba «marcador --help».\n"
            }
            escribirEnStderr(mensaje)
            return fallo.codigo
        }
    }
}
