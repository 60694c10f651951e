import Foundation
import PackagePlugin

/// Embeds `migrations/*.sql` and `seeds/*` into the target as Swift literals.
///
/// The binary must work from any directory, so it cannot read these files at run time; a build
/// tool plugin keeps the files as the single source of truth and regenerates the literals
/// whenever one of them changes or a new one appears.
@main
struct Incrustar: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let raiz = context.package.directoryURL
        var argumentos: [String] = []
        var entradas: [URL] = []
        for (grupo, carpeta) in [("migraciones", "migrations"), ("semillas", "seeds")] {
            let directorio = raiz.appending(path: carpeta)
            let nombres = try FileManager.default.contentsOfDirectory(atPath: directorio.path())
                .filter { !$0.hasPrefix(".") }
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
                displayName: "Incrustando migraciones y semillas",
                executable: try context.tool(named: "incrustador").url,
                arguments: [salida.path()] + argumentos,
                inputFiles: entradas,
                outputFiles: [salida]
            )
        ]
    }
}
