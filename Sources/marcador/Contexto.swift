import Almacen
import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a running command may use: its arguments, the environment, the terminal, the database.
@MainActor
final class Contexto {
    let argumentos: Argumentos
    let entorno: [String: String]
    let terminal: Terminal
    private var abierto: DatabaseQueue?

    init(argumentos: Argumentos, entorno: [String: String], terminal: Terminal) {
        self.argumentos = argumentos
        self.entorno = entorno
        self.terminal = terminal
    }

    var json: Bool { argumentos.tiene("--json") }

    /// `--db`, else `MARCADOR_DB`, else `$XDG_DATA_HOME/marcador/`, else `~/.local/share/marcador/`.
    var rutaDeLaBase: String {
        if let ruta = argumentos.valor("--db") { return ruta }
        if let ruta = entorno["MARCADOR_DB"], !ruta.isEmpty { return ruta }
        return Self.carpetaPorDefecto(entorno) + "/marcador.sqlite3"
    }

    static func carpetaPorDefecto(_ entorno: [String: String]) -> String {
        if let datos = entorno["XDG_DATA_HOME"], datos.hasPrefix("/") {
            return datos + "/marcador"
        }
        return (entorno["HOME"] ?? "/tmp") + "/.local/share/marcador"
    }

    /// The database, opened, migrated and seeded on first use (and reset with
    /// `--reiniciar-datos`).
    func almacen() throws(Fallo) -> DatabaseQueue {
        if let abierto { return abierto }
        let ruta = rutaDeLaBase
        let usaLaDePorDefecto =
            argumentos.valor("--db") == nil && (entorno["MARCADOR_DB"] ?? "").isEmpty
        if usaLaDePorDefecto {
            crearCarpetas(Self.carpetaPorDefecto(entorno))
        }
        do {
            let queue = try Almacen.abrir(
                ruta: ruta, reiniciarDatos: argumentos.tiene("--reiniciar-datos"))
            abierto = queue
            return queue
        } catch {
            throw Fallo.deBaseDeDatos(error, ruta: ruta)
        }
    }

    var repositorio: PartidosSQLite {
        get throws(Fallo) { PartidosSQLite(try almacen()) }
    }

    var registro: RegistroSQLite {
        get throws(Fallo) { RegistroSQLite(try almacen()) }
    }

    /// `mkdir -p` with private permissions: the database holds webhook URLs with secrets.
    private func crearCarpetas(_ ruta: String) {
        var actual = ""
        for parte in ruta.split(separator: "/") {
            actual += "/" + parte
            mkdir(actual, 0o700)
        }
    }
}

extension PartidosSQLite {
    /// The match `id`, or the user's «no such match» error (exit 66).
    func partidoExistente(_ id: Int) throws -> Partido {
        guard let partido = try partido(id: id) else {
            throw Fallo.noEncontrado(
                "No existe el partido \(id). Mira los que hay con «marcador partidos».")
        }
        return partido
    }
}
