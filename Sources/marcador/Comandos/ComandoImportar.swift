import Aplicacion
import Torneo

/// `marcador importar <fichero.json|carpeta>… [--simular]`: real matches from openfootball JSON,
/// each file all or nothing.
struct ComandoImportar: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "importar",
        resumen: "Importa partidos de ficheros JSON de openfootball (cada uno, todo o nada).",
        detalles: """
            Lee los dos formatos de openfootball: {"matches": […]} y {"rounds": [{"name",
            "matches": […]}]}, con los equipos como nombre o como {"name", "code"}. Varios ficheros
            o una carpeta (sus .json) van en una sola orden: cada fichero se importa entero o
            nada, con una línea de resumen; si alguno no se importa, la orden termina con su
            error (65 si está mal escrito, 66 si no existe) después de los demás. Un partido con
            prórroga (score.et, o un gol entre el 100 y el 120) se juega en 120 minutos. Un
            minuto entre 91 y 99 en un partido sin prórroga se lee como tiempo añadido (92 →
            90+2), y uno entre 121 y 130 en un partido con prórroga, como 120+N; cada caso se
            advierte. Los penaltis de la tanda (score.p) son resultado, no goles. Volver a
            importar el mismo fichero no añade nada. Si un partido está mal escrito o repetido,
            tiene una fecha que no existe (2024-02-30), o un nombre pasa de 200 caracteres o
            lleva caracteres de control, no se importa ninguno de ese fichero (65); un JSON mal
            formado dice la línea y la columna.
            """)

    @ArgumentosRestantes(
        "FICHERO", ayuda: "Ficheros JSON (formato openfootball) o carpetas con ellos.")
    var rutas: [String]

    @Bandera("--simular", ayuda: "Lo comprueba y cuenta, sin guardar nada.")
    var simular: Bool

    @Bandera("--dry-run", ayuda: "Lo mismo que --simular.", oculta: true)
    var dryRun: Bool

    var soloComprobar: Bool { simular || dryRun }

    func validar() throws(Fallo) {
        if rutas.isEmpty {
            throw .uso("Falta FICHERO: uno o más ficheros JSON de openfootball, o una carpeta.")
        }
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let ficheros = try Nucleo.ficherosParaImportar(rutas)
        var peor: Fallo?
        var importados = 0
        for ruta in ficheros {
            do {
                try importar(ruta, en: contexto)
                importados += 1
            } catch let fallo as Fallo where ficheros.count > 1 && fallo.clase != .entradaSalida {
                // The others still go in; this one's reason now, its status at the end.
                contexto.advertir("marcador: \(fallo.mensaje)")
                if peor == nil
                    || CodigoDeSalida(fallo.clase).rawValue
                        > CodigoDeSalida(peor!.clase).rawValue
                {
                    peor = fallo
                }
            }
        }
        if ficheros.count > 1 {
            let rechazados = ficheros.count - importados
            contexto.terminal.linea(
                "\(Textos.cuenta(ficheros.count, "fichero", "ficheros")): "
                    + (soloComprobar ? "\(importados) se importarían" : "\(importados) importados")
                    + (rechazados > 0 ? ", \(rechazados) sin importar." : "."))
        }
        if soloComprobar { contexto.terminal.linea("(simulación: no se ha guardado nada)") }
        return peor.map { CodigoDeSalida($0.clase) } ?? .ok
    }

    /// One file, read and checked whole before the store is touched: a bad file changes
    /// nothing.
    private func importar(_ ruta: String, en contexto: Contexto) throws {
        let competicion = try Nucleo.leerPartidos(ruta)
        let nucleo = try contexto.nucleo()
        for advertencia in competicion.partidos.flatMap(\.avisos) {
            contexto.advertir("advertencia: \(TextoSeguro.limpio(advertencia))")
        }
        let resumen = try nucleo.importar(competicion, simular: soloComprobar).resumen
        let nombre = String(ruta.split(separator: "/").last ?? Substring(ruta))
        contexto.terminal.linea(
            "\(TextoSeguro.limpio(competicion.nombre)) (\(citado(nombre))): "
                + Textos.cuenta(competicion.partidos.count, "partido", "partidos") + ", "
                + Textos.cuenta(competicion.goles, "gol", "goles") + " · nuevos \(resumen.nuevos), "
                + "ya estaban \(resumen.yaEstaban), sin detalle de goles \(resumen.sinGoles), "
                + "con advertencias \(resumen.conAvisos).")
    }
}
