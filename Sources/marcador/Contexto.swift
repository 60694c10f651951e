import Almacen
import AlmacenPostgreSQL
import Aplicacion
import Persistencia
import Sistema
import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a running command may use: the global options, the environment, the terminal, and
/// the core over the store the user chose (opened on first use).
@MainActor
final class Contexto {
    let db: String?
    let entorno: [String: String]
    let terminal: Terminal
    /// Set for a rehearsal of the command (`--reiniciar-datos` checks it first on the data as
    /// the reset will leave it): nothing is written to the user's terminal or store.
    let esEnsayo: Bool
    /// Seconds a PostgreSQL store keeps reconnecting before a call fails.
    let paciencia: Double
    private var abierto: Nucleo?

    init(db: String?, entorno: [String: String], terminal: Terminal, paciencia: Double = 0) {
        self.db = db
        self.entorno = entorno
        self.terminal = terminal
        self.paciencia = paciencia
        esEnsayo = false
    }

    /// A context for a rehearsal on `nucleo`, with a terminal that writes nothing.
    init(ensayo nucleo: Nucleo, entorno: [String: String]) {
        db = nil
        self.entorno = entorno
        terminal = .muda
        esEnsayo = true
        paciencia = 0
        abierto = nucleo
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
    var rutaParaMensajes: String {
        if let abierto { return abierto.descripcion }
        return AlmacenPG.sinContrasena((try? rutaDeLaBase) ?? "")
    }

    static func carpetaPorDefecto(_ entorno: [String: String]) -> String? {
        if let datos = entorno["XDG_DATA_HOME"], datos.hasPrefix("/") {
            return datos + "/marcador"
        }
        guard let casa = entorno["HOME"], casa.hasPrefix("/") else { return nil }
        return casa + "/.local/share/marcador"
    }

    /// The core over the store: a PostgreSQL database for a `postgresql://` URL (postgresql.md),
    /// else the SQLite file, opened, migrated and seeded on first use.
    func nucleo() throws(Fallo) -> Nucleo {
        if let abierto { return abierto }
        let ruta = try rutaDeLaBase
        let tienda: any Tienda
        do {
            if AlmacenPG.esURL(ruta) {
                tienda = TiendaPG(try AlmacenPG.abrir(url: ruta, paciencia: paciencia))
            } else {
                let usaLaDePorDefecto = db == nil && (entorno["MARCADOR_DB"] ?? "").isEmpty
                if usaLaDePorDefecto, let carpeta = Self.carpetaPorDefecto(entorno) {
                    try crearCarpetaPrivada(carpeta)
                }
                tienda = TiendaSQLite(try Almacen.abrir(ruta: ruta))
            }
        } catch {
            throw Fallo.de(error, tienda: rutaParaMensajes)
        }
        let nuevo = Nucleo(tienda: tienda, entorno: entorno)
        abierto = nuevo
        return nuevo
    }

    func tienda() throws(Fallo) -> any Tienda { try nucleo().tienda }

    /// A line for stderr (a warning, a channel that cannot work here); nothing in a rehearsal.
    func advertir(_ texto: String) {
        if !esEnsayo { escribirEnStderr(texto + "\n") }
    }

    /// The world as `--reiniciar-datos` will leave it, in memory: the seed's matches, and this
    /// store's settings and channels (which a reset keeps).
    func ensayoTrasReinicio() throws -> Contexto {
        let real = try nucleo().tienda
        let ensayo = TiendaSQLite(try Almacen.enMemoria())
        try ensayo.partidos.guardar(try real.partidos.ajustes())
        let canales = try real.buzon.canales()
        for canal in try ensayo.buzon.canales()
        where !canales.contains(where: { $0.nombre == canal.nombre }) {
            _ = try ensayo.buzon.quitarCanal(canal.nombre)
        }
        for canal in canales { _ = try ensayo.buzon.guardar(canal, reemplazar: true) }
        return Contexto(ensayo: Nucleo(tienda: ensayo, entorno: entorno), entorno: entorno)
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
