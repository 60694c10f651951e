import Almacen
import Sistema
import Torneo

/// The whole command line: parse, dispatch, and turn every error into a message and a status.
@MainActor
enum Programa {
    static let version = "0.2.0"

    static func ejecutar(_ linea: [String], entorno: [String: String]) async -> CodigoDeSalida {
        let terminal = Terminal.actual(entorno: entorno)
        var contexto: Contexto?
        var ruta: [String] = []
        do {
            let leida: LineaLeida
            do {
                leida = try Analizador.analizar(linea, raiz: ComandoRaiz.self)
            } catch {
                ruta = error.ruta
                throw error.fallo
            }
            ruta = leida.nombres
            let globales = leida.globales
            Ayuda.version = version
            if globales.version {
                terminal.linea("marcador \(version)")
                return .ok
            }
            if globales.ayuda {
                terminal.escribir(Ayuda.de(leida.ruta.map { type(of: $0) }))
                return .ok
            }
            guard let comando = leida.comando as? any Comando else {
                preconditionFailure("every command of the tree runs")
            }
            let actual = Contexto(
                db: globales.db, reiniciarDatos: globales.reiniciarDatos, entorno: entorno,
                terminal: terminal)
            contexto = actual
            if globales.reiniciarDatos {
                if leida.ruta.count == 1 {
                    _ = try actual.tienda()
                    terminal.linea(
                        "Datos reiniciados en «\(TextoSeguro.limpio(actual.rutaParaMensajes))».")
                    return .ok
                }
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
                mensaje +=
                    "Prueba «\((["marcador"] + ruta + ["--help"]).joined(separator: " "))».\n"
            }
            escribirEnStderr(mensaje)
            return fallo.codigo
        }
    }
}
