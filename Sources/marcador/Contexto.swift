import Almacen
import AlmacenPostgreSQL
import Persistencia
import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a running command may use: the global options, the environment, the terminal, the
/// database.
@MainActor
final class Contexto {
    let db: String?
    let reiniciarDatos: Bool
    let entorno: [String: String]
    let terminal: Terminal
    private var abierta: (any Tienda)?

    init(db: String?, reiniciarDatos: Bool, entorno: [String: String], terminal: Terminal) {
        self.db = db
        self.reiniciarDatos = reiniciarDatos
        self.entorno = entorno
        self.terminal = terminal
    }

    /// `--db`, else `MARCADOR_DB`, else `$XDG_DATA_HOME/marcador/`, else `~/.local/share/marcador/`.
    /// With none of them there is no private place to keep it: the user is asked for `--db`
    /// rather than given a shared folder such as /tmp, where another user could plant the file.
    var rutaDeLaBase: String {
        get throws(Fallo) {
            if let ruta = db {
                guard !ruta.isEmpty else {
                    throw .uso("--db necesita una ruta: «--db \"\"» no dice dónde guardar nada.")
                }
                return ruta
            }
            if let ruta = entorno["MARCADOR_DB"], !ruta.isEmpty { return ruta }
            guard let carpeta = Self.carpetaPorDefecto(entorno) else {
                throw .uso(
                    "No hay HOME ni XDG_DATA_HOME: no sé dónde guardar la base de datos. "
                        + "Indica una con --db RUTA o con la variable MARCADOR_DB.")
            }
            return carpeta + "/marcador.sqlite3"
        }
    }

    /// The path to show in messages (even when none could be chosen); a PostgreSQL URL
    /// without its password.
    var rutaParaMensajes: String { AlmacenPG.sinContrasena((try? rutaDeLaBase) ?? "") }

    static func carpetaPorDefecto(_ entorno: [String: String]) -> String? {
        if let datos = entorno["XDG_DATA_HOME"], datos.hasPrefix("/") {
            return datos + "/marcador"
        }
        guard let casa = entorno["HOME"], casa.hasPrefix("/") else { return nil }
        return casa + "/.local/share/marcador"
    }

    /// The store, opened, migrated and seeded on first use (and reset with
    /// `--reiniciar-datos`): a PostgreSQL database for a `postgresql://` URL (DESIGN §12),
    /// else the SQLite file.
    func tienda() throws(Fallo) -> any Tienda {
        if let abierta { return abierta }
        let ruta = try rutaDeLaBase
        let nueva: any Tienda
        do {
            if AlmacenPG.esURL(ruta) {
                nueva = TiendaPG(try AlmacenPG.abrir(url: ruta, reiniciarDatos: reiniciarDatos))
            } else {
                let usaLaDePorDefecto = db == nil && (entorno["MARCADOR_DB"] ?? "").isEmpty
                if usaLaDePorDefecto, let carpeta = Self.carpetaPorDefecto(entorno) {
                    try crearCarpetaPrivada(carpeta)
                }
                nueva = TiendaSQLite(try Almacen.abrir(ruta: ruta, reiniciarDatos: reiniciarDatos))
            }
        } catch {
            throw Fallo.deBaseDeDatos(error, ruta: rutaParaMensajes)
        }
        abierta = nueva
        return nueva
    }

    var repositorio: any PartidosRepositorio {
        get throws(Fallo) { try tienda().partidos }
    }

    /// `mkdir -p` with private permissions (the database holds webhook URLs with secrets); the
    /// last folder must be a real folder of this user, not a symlink someone planted.
    private func crearCarpetaPrivada(_ ruta: String) throws(Fallo) {
        var actual = ""
        for parte in ruta.split(separator: "/") {
            actual += "/" + parte
            mkdir(actual, 0o700)
        }
        var info = stat()
        guard lstat(ruta, &info) == 0 else { return }  // SQLite will say why it cannot open
        guard (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid() else {
            throw .entradaSalida(
                "La carpeta «\(ruta)» no es una carpeta tuya (¿un enlace simbólico?): "
                    + "no se guarda nada en ella. Usa --db RUTA.")
        }
    }
}

extension PartidosRepositorio {
    /// The match `id`, or the user's «no such match» error (exit 66).
    func partidoExistente(_ id: Int) throws -> Partido {
        guard let partido = try partido(id: id) else {
            throw Fallo.noEncontrado(
                "No existe el partido \(id). Mira los que hay con «marcador partidos».")
        }
        return partido
    }
}
