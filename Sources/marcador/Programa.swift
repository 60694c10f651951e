import Aplicacion
import Sistema
import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The whole command line: parse, dispatch, and turn every error into a message and a status.
@MainActor
enum Programa {
    static let version = "0.3.0"

    static func ejecutar(_ linea: [String], entorno: [String: String]) async -> CodigoDeSalida {
        let terminal = Terminal.actual(entorno: entorno)
        var contexto: Contexto?
        var ruta: [String] = []
        var codigo: CodigoDeSalida
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
            let comando = leida.comando
            if globales.version {
                terminal.linea("marcador \(version)")
                codigo = .ok
            } else if globales.ayuda {
                terminal.escribir(Ayuda.de(leida.ruta.map { type(of: $0) }))
                codigo = .ok
            } else {
                // Before the command starts its threads.
                if type(of: comando).asignaEnVariosHilos { Memoria.variasArenas() }
                let actual = Contexto(
                    db: globales.db, entorno: entorno, terminal: terminal,
                    paciencia: type(of: comando).largaDuracion ? 60 : 0)
                contexto = actual
                if globales.reiniciarDatos {
                    if leida.ruta.count > 1 {
                        // The whole command is rehearsed first on the data as the reset will
                        // leave it (name lookups included): one that would fail leaves the
                        // data as it was (safety.md, §13).
                        try await comando.validarTrasReinicio(en: try actual.ensayoTrasReinicio())
                    }
                    let (antes, despues) = try actual.tienda().reiniciarDatos()
                    // What the reset removed is said, with its count: with a command after it,
                    // on stderr, so the command's own output stays what it is.
                    let dicho =
                        "Datos reiniciados en «\(TextoSeguro.limpio(actual.rutaParaMensajes))»: "
                        + Textos.cuenta(antes, "partido quitado", "partidos quitados")
                        + " (con sus equipos, ejecuciones y avisos); quedan "
                        + Textos.cuenta(despues, "partido de ejemplo", "partidos de ejemplo") + "."
                    if leida.ruta.count == 1 {
                        terminal.linea(dicho)
                    } else {
                        escribirEnStderr("marcador: \(dicho)\n")
                    }
                }
                if globales.reiniciarDatos && leida.ruta.count == 1 {
                    codigo = .ok
                } else {
                    codigo = try await comando.ejecutar(en: actual)
                }
            }
        } catch let fallida as SalidaFallida {
            codigo = fallida.errno == EPIPE ? .ok : .entradaSalida
        } catch {
            let fallo = Fallo.de(error, tienda: contexto?.rutaParaMensajes ?? "")
            // Messages quote what the user or a file said: made safe before the terminal.
            var mensaje = "marcador: \(TextoSeguro.limpio(fallo.mensaje))\n"
            if fallo.clase == .uso {
                mensaje +=
                    "Prueba «\((["marcador"] + ruta + ["--help"]).joined(separator: " "))».\n"
            }
            escribirEnStderr(mensaje)
            // A command stopped by a signal exits with the signal's status even when the
            // store failed on the way out (a server that hangs: architecture.md).
            codigo = Interrupcion.senal.map(CodigoDeSalida.porSenal) ?? CodigoDeSalida(fallo.clase)
        }
        return terminarSalida(terminal, codigo)
    }

    /// A write to standard output that failed is the command's failure too (architecture.md): exit
    /// 74 saying why, unless the reader merely left (a closed pipe: the end is quiet).
    static func terminarSalida(_ terminal: Terminal, _ codigo: CodigoDeSalida) -> CodigoDeSalida {
        let error = terminal.fallos.error
        guard error != 0, error != EPIPE, error != FallosDeSalida.callada else { return codigo }
        escribirEnStderr(
            "marcador: no se pudo escribir la salida: \(errorDelSistema(error)); lo escrito está incompleto.\n"
        )
        return codigo == .ok ? .entradaSalida : codigo
    }
}
