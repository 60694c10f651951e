import Foundation
import PackagePlugin

/// Embeds files into the target as Swift literals: `migrations/*.sql` into the SQLite store,
/// `seeds/*` into the SQL layer both stores share, `migrations/postgresql/*.sql` into the PostgreSQL one, `web/*` (the pages of
/// `marcador servir`) into the executable.
///
/// The binary must work from any directory, so it cannot read these files at run time; a build
/// tool plugin keeps the files as the single source of truth and regenerates the literals
/// whenever one of them changes. A new file is seen when SwiftPM plans the build again (a
/// clean build, or after `touch Package.swift`): the list of files is read while planning.
@main
struct Incrustar: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let raiz = context.package.directoryURL
        // The generated file builds `ArchivoIncrustado` values, a type of module Sistema.
        var argumentos: [String] = ["importar=Sistema"]
        var entradas: [URL] = []
        let grupos: [(String, String)]
        switch target.name {
        case "Almacen": grupos = [("migraciones", "migrations")]
        case "AlmacenSQL": grupos = [("semillas", "seeds")]
        case "AlmacenPostgreSQL": grupos = [("migraciones", "migrations/postgresql")]
        default: grupos = [("web", "web")]
        }
        for (grupo, carpeta) in grupos {
            let directorio = raiz.appending(path: carpeta)
            // Files only: `migrations/` holds the PostgreSQL folder next to SQLite's steps.
            let nombres = try FileManager.default.contentsOfDirectory(atPath: directorio.path())
                .filter { nombre in
                    var esCarpeta: ObjCBool = false
                    let ruta = directorio.appending(path: nombre).path()
                    return !nombre.hasPrefix(".")
                        && FileManager.default.fileExists(atPath: ruta, isDirectory: &esCarpeta)
                        && !esCarpeta.boolValue
                }
                .sorted()
            for nombre in nombres {
                let fichero = directorio.appending(path: nombre)
                entradas.append(fichero)
                argumentos.append("\(grupo)=\(fichero.path())")
            }
        }
        let salida = context.pluginWorkDirectoryURL.appending(path: "RecursosIncrustados.swift")
        return [
            .buildCommand(
                displayName:
                    "Incrustando \(grupos.map(\.1).joined(separator: " y ")) en \(target.name)",
                executable: try context.tool(named: "incrustador").url,
                arguments: [salida.path()] + argumentos,
                inputFiles: entradas,
                outputFiles: [salida]
            )
        ]
    }
}
