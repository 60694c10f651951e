import Importador
import Persistencia
import Sistema
import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What importing one file did (or, simulated, would do).
public struct ImportacionDeFichero: Sendable {
    public var competicion: Competicion
    public var resumen: ResumenDeImportacion
    /// What looked wrong but could be read, one sentence each.
    public var advertencias: [String]
}

/// Importing openfootball files (fans.md, §14): read and checked whole before the store is
/// touched, stored all or nothing.
extension Nucleo {
    /// Files larger than this are refused before reading: no match file comes near it.
    public static let tamanoMaximoDeFichero = 64 * 1024 * 1024

    /// The files `rutas` name, in order: a folder stands for its `.json` files (not hidden,
    /// not in subfolders), by name.
    /// - Throws: `Fallo.noEncontrado` for a folder with none.
    public static func ficherosParaImportar(_ rutas: [String]) throws -> [String] {
        try rutas.flatMap { ruta -> [String] in
            guard esCarpeta(ruta) else { return [ruta] }
            guard let nombres = contenidoDeCarpeta(ruta) else {
                throw Fallo.entradaSalida(
                    "No se puede leer la carpeta \(citado(ruta)): \(errorDelSistema(errno)).")
            }
            let base = ruta.hasSuffix("/") ? ruta : ruta + "/"
            let ficheros = nombres.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
                .map { base + $0 }.filter { !esCarpeta($0) }
            guard !ficheros.isEmpty else {
                throw Fallo.noEncontrado("La carpeta \(citado(ruta)) no tiene ficheros .json.")
            }
            return ficheros
        }
    }

    /// Reads and checks the file at `ruta` (no store needed: a bad file is refused before the
    /// database is even opened).
    /// - Throws: `Fallo.noEncontrado` for a missing file, `Fallo.datos` for a malformed one.
    public static func leerPartidos(_ ruta: String) throws -> Competicion {
        let bytes = try leerBytes(ruta)
        let nombrePorDefecto = String(ruta.split(separator: "/").last ?? "importado")
        do {
            return try LectorOpenFootball.leer(bytes, nombrePorDefecto: nombrePorDefecto)
        } catch let fallo as FalloDeImportacion {
            throw Fallo.datos("No se importa nada de \(citado(ruta)): \(fallo.mensaje).")
        }
    }

    /// Stores the matches of `competicion` not already there, in one transaction; with
    /// `simular` nothing is written.
    public func importar(_ competicion: Competicion, simular: Bool) throws
        -> ImportacionDeFichero
    {
        let entradas = competicion.partidos.map { partido in
            EntradaDeImportacion(
                clave: partido.clave(competicion: competicion.nombre), local: partido.local,
                visitante: partido.visitante, competicion: competicion.nombre, ronda: partido.ronda,
                fecha: partido.fecha, hora: partido.hora, grupo: partido.grupo,
                estadio: partido.estadio, finalDelPartido: partido.finalDelPartido,
                trasLaProrroga: partido.trasLaProrroga, penaltis: partido.penaltis,
                tieneProrroga: partido.tieneProrroga, goles: partido.goles,
                conAvisos: !partido.avisos.isEmpty)
        }
        let resumen = try tienda.importacion.importar(entradas, soloComprobar: simular)
        return ImportacionDeFichero(
            competicion: competicion, resumen: resumen,
            advertencias: competicion.partidos.flatMap(\.avisos))
    }

    static func leerBytes(_ ruta: String, maximo: Int = tamanoMaximoDeFichero) throws -> [UInt8] {
        var info = stat()
        guard stat(ruta, &info) == 0 else {
            throw Fallo.noEncontrado("No existe el fichero \(citado(ruta)).")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw Fallo.noEncontrado("\(citado(ruta)) no es un fichero.")
        }
        guard Int(info.st_size) <= maximo else {
            throw Fallo.datos(
                "No se lee \(citado(ruta)): ocupa \(info.st_size) bytes y el máximo es "
                    + "\(maximo).")
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
