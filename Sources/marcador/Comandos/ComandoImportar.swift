import Almacen
import Importador
import Sistema
import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `marcador importar <fichero.json> [--dry-run]`: real matches from openfootball JSON.
struct ComandoImportar: Comando {
    static let nombre = "importar"
    static let resumen = "Importa partidos de un fichero JSON de openfootball (todo o nada)."
    static let posicionales = [
        Posicional(
            nombre: "FICHERO", ayuda: "El fichero JSON (formato openfootball: name, matches[…]).")
    ]
    static let opciones: [Opcion] = [
        .bandera("--dry-run", ayuda: "Lo comprueba y cuenta, sin guardar nada.")
    ]
    static let detalles: String? = """
        Un partido con prórroga (score.et, o un gol pasado el 100) se juega en 120 minutos. Un
        minuto entre 91 y 99 en un partido sin prórroga se lee como tiempo añadido (92 → 90+2), con
        un aviso. Los penaltis de la tanda (score.p) son resultado, no goles. Volver a importar el
        mismo fichero no añade nada. Si un partido está mal escrito, no se importa ninguno (65).
        """

    let ruta: String
    let soloComprobar: Bool

    init(_ argumentos: Argumentos) throws(Fallo) {
        try Self.comprobarPosicionales(argumentos)
        ruta = argumentos.posicionales[0]
        soloComprobar = argumentos.tiene("--dry-run")
    }

    /// Files larger than this are refused before reading: no match file comes near it.
    static let tamanoMaximo = 64 * 1024 * 1024

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let bytes = try leerFichero()
        let nombrePorDefecto = String(ruta.split(separator: "/").last ?? "importado")
        let competicion: Competicion
        do {
            competicion = try LectorOpenFootball.leer(bytes, nombrePorDefecto: nombrePorDefecto)
        } catch let fallo as FalloDeImportacion {
            throw Fallo.datos("No se importa nada de «\(ruta)»: \(fallo.mensaje).")
        }
        let queue = try contexto.almacen()
        for aviso in competicion.partidos.flatMap(\.avisos) {
            escribirEnStderr("advertencia: \(TextoSeguro.limpio(aviso))\n")
        }
        let entradas = competicion.partidos.map { partido in
            ImportacionSQLite.Entrada(
                clave: partido.clave(competicion: competicion.nombre), local: partido.local,
                visitante: partido.visitante, competicion: competicion.nombre, ronda: partido.ronda,
                fecha: partido.fecha, hora: partido.hora, grupo: partido.grupo,
                estadio: partido.estadio,
                finalDelPartido: partido.finalDelPartido, trasLaProrroga: partido.trasLaProrroga,
                penaltis: partido.penaltis, tieneProrroga: partido.tieneProrroga,
                goles: partido.goles,
                conAvisos: !partido.avisos.isEmpty)
        }
        let resumen = try ImportacionSQLite(queue).importar(entradas, soloComprobar: soloComprobar)
        let terminal = contexto.terminal
        terminal.linea(
            "\(TextoSeguro.limpio(competicion.nombre)): "
                + Textos.cuenta(competicion.partidos.count, "partido", "partidos") + " y "
                + Textos.cuenta(competicion.goles, "gol", "goles") + " en el fichero.")
        terminal.linea(
            "Nuevos: \(resumen.nuevos) · ya estaban: \(resumen.yaEstaban) · "
                + "sin detalle de goles: \(resumen.sinGoles) · con advertencias: \(resumen.conAvisos)."
        )
        if soloComprobar { terminal.linea("(--dry-run: no se ha guardado nada)") }
        return .ok
    }

    private func leerFichero() throws -> [UInt8] {
        var info = stat()
        guard stat(ruta, &info) == 0 else {
            throw Fallo.noEncontrado("No existe el fichero «\(ruta)».")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw Fallo.noEncontrado("«\(ruta)» no es un fichero.")
        }
        guard Int(info.st_size) <= Self.tamanoMaximo else {
            throw Fallo.datos(
                "No se importa nada de «\(ruta)»: ocupa \(info.st_size / 1_048_576) MB y el máximo es "
                    + "\(Self.tamanoMaximo / 1_048_576) MB.")
        }
        guard let fichero = fopen(ruta, "rb") else {
            throw Fallo.entradaSalida(
                "No se puede leer «\(ruta)»: \(String(cString: strerror(errno))).")
        }
        defer { fclose(fichero) }
        var bytes: [UInt8] = []
        var bloque = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&bloque, 1, bloque.count, fichero)
            if n > 0 { bytes += bloque[0..<n] }
            if n < bloque.count {
                if ferror(fichero) != 0 {
                    throw Fallo.entradaSalida("No se puede leer «\(ruta)»: error de lectura.")
                }
                break
            }
        }
        return bytes
    }
}
