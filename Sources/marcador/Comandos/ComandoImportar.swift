import Almacen
import Importador
import Persistencia
import Sistema
import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `marcador importar <fichero.json> [--simular]`: real matches from openfootball JSON.
struct ComandoImportar: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "importar",
        resumen: "Importa partidos de un fichero JSON de openfootball (todo o nada).",
        detalles: """
            Un partido con prórroga (score.et, o un gol entre el 100 y el 120) se juega en 120
            minutos. Un minuto entre 91 y 99 en un partido sin prórroga se lee como tiempo añadido
            (92 → 90+2), y uno entre 121 y 130 en un partido con prórroga, como 120+N; cada caso se
            advierte. Los penaltis de la tanda (score.p) son resultado, no goles. Volver a importar
            el mismo fichero no añade nada. Si un partido está mal escrito o repetido, o un nombre
            pasa de 200 caracteres o lleva caracteres de control, no se importa ninguno (65).
            """)

    @Argumento("FICHERO", ayuda: "El fichero JSON (formato openfootball: name, matches[…]).")
    var ruta: String

    @Bandera("--simular", ayuda: "Lo comprueba y cuenta, sin guardar nada.")
    var simular: Bool

    @Bandera("--dry-run", ayuda: "Lo mismo que --simular.", oculta: true)
    var dryRun: Bool

    var soloComprobar: Bool { simular || dryRun }

    /// Files larger than this are refused before reading: no match file comes near it.
    static let tamanoMaximo = 64 * 1024 * 1024

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let bytes = try leerFichero()
        let nombrePorDefecto = String(ruta.split(separator: "/").last ?? "importado")
        let competicion: Competicion
        do {
            competicion = try LectorOpenFootball.leer(bytes, nombrePorDefecto: nombrePorDefecto)
        } catch let fallo as FalloDeImportacion {
            throw Fallo.datos("No se importa nada de \(citado(ruta)): \(fallo.mensaje).")
        }
        let tienda = try contexto.tienda()
        for aviso in competicion.partidos.flatMap(\.avisos) {
            escribirEnStderr("advertencia: \(TextoSeguro.limpio(aviso))\n")
        }
        let entradas = competicion.partidos.map { partido in
            EntradaDeImportacion(
                clave: partido.clave(competicion: competicion.nombre), local: partido.local,
                visitante: partido.visitante, competicion: competicion.nombre, ronda: partido.ronda,
                fecha: partido.fecha, hora: partido.hora, grupo: partido.grupo,
                estadio: partido.estadio,
                finalDelPartido: partido.finalDelPartido, trasLaProrroga: partido.trasLaProrroga,
                penaltis: partido.penaltis, tieneProrroga: partido.tieneProrroga,
                goles: partido.goles,
                conAvisos: !partido.avisos.isEmpty)
        }
        let resumen = try tienda.importacion.importar(entradas, soloComprobar: soloComprobar)
        let terminal = contexto.terminal
        terminal.linea(
            "\(TextoSeguro.limpio(competicion.nombre)): "
                + Textos.cuenta(competicion.partidos.count, "partido", "partidos") + " y "
                + Textos.cuenta(competicion.goles, "gol", "goles") + " en el fichero.")
        terminal.linea(
            "Nuevos: \(resumen.nuevos) · ya estaban: \(resumen.yaEstaban) · "
                + "sin detalle de goles: \(resumen.sinGoles) · con advertencias: \(resumen.conAvisos)."
        )
        if soloComprobar { terminal.linea("(simulación: no se ha guardado nada)") }
        return .ok
    }

    private func leerFichero() throws -> [UInt8] {
        var info = stat()
        guard stat(ruta, &info) == 0 else {
            throw Fallo.noEncontrado("No existe el fichero \(citado(ruta)).")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw Fallo.noEncontrado("\(citado(ruta)) no es un fichero.")
        }
        guard Int(info.st_size) <= Self.tamanoMaximo else {
            throw Fallo.datos(
                "No se importa nada de \(citado(ruta)): ocupa \(info.st_size / 1_048_576) MB y el máximo es "
                    + "\(Self.tamanoMaximo / 1_048_576) MB.")
        }
        guard let fichero = fopen(ruta, "rb") else {
            throw Fallo.entradaSalida(
                "No se puede leer \(citado(ruta)): \(errorDelSistema(errno)).")
        }
        defer { fclose(fichero) }
        var bytes: [UInt8] = []
        var bloque = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&bloque, 1, bloque.count, fichero)
            if n > 0 { bytes += bloque[0..<n] }
            if n < bloque.count {
                if ferror(fichero) != 0 {
                    throw Fallo.entradaSalida("No se puede leer \(citado(ruta)): error de lectura.")
                }
                break
            }
        }
        return bytes
    }
}
