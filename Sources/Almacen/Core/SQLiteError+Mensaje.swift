import Persistencia
import Sistema

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SQLiteError: ErrorDeTienda {
    /// What SQLite said, about the user's file.
    public var explicacion: String { motivo(ruta: nil) }

    public func mensaje(para ruta: String) -> String {
        "Base de datos «\(ruta)»: \(motivo(ruta: ruta))."
    }

    /// Why, with what the file system says about `ruta` when SQLite cannot open it.
    private func motivo(ruta: String?) -> String {
        if systemErrno == ENOSPC || systemErrno == EDQUOT { return "no queda espacio en el disco" }
        let motivo: String
        switch code.primario {
        case .cantopen:
            motivo = "no se puede abrir" + (ruta.map { ": " + Self.porQueNoSeAbre($0) } ?? "")
        case .notadb, .corrupt:
            motivo =
                "no es una base de datos de marcador (el fichero está dañado o es de otro tipo)"
        case .readonly: motivo = "es de solo lectura (el fichero o su carpeta no admiten escritura)"
        case .full: motivo = "no queda espacio en el disco"
        case .busy, .locked: motivo = "está bloqueada por otro proceso durante demasiado tiempo"
        case .ioerr: motivo = "error de lectura o escritura en el disco (\(message))"
        default: motivo = message
        }
        return motivo
    }

    /// SQLite only says "unable to open"; the file system knows why.
    private static func porQueNoSeAbre(_ ruta: String) -> String {
        var info = stat()
        if lstat(ruta, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK {
            return "es un enlace simbólico, y una base de datos no se abre a través de uno"
        }
        if stat(ruta, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            return "es una carpeta, no un fichero"
        }
        let barra = ruta.lastIndex(of: "/")
        let carpeta = barra.map { $0 == ruta.startIndex ? "/" : String(ruta[..<$0]) } ?? "."
        if stat(carpeta, &info) != 0 {
            return "la carpeta «\(carpeta)» no existe"
        }
        if access(carpeta, W_OK) != 0 && errno == EROFS {
            return "está en un sistema de ficheros de solo lectura"
        }
        if access(carpeta, W_OK) != 0 {
            return "no hay permiso para escribir en la carpeta «\(carpeta)»"
        }
        return "el fichero o su diario (-wal, -shm) no se pueden crear o leer"
    }
}

extension FicheroAjeno: ErrorDeTienda {
    public var explicacion: String {
        switch self {
        case .deOtroUsuario(let fichero, let uid):
            "«\(fichero)» es de otro usuario (uid \(uid)): no se usa ni se cambia; usa una base tuya con --db"
        case .escribiblePorOtros(let fichero, let permisos):
            "otros usuarios pueden escribir en «\(fichero)» (permisos \(String(permisos, radix: 8))): "
                + "no se usa ni se cambia; quítales el permiso (chmod 600) o usa otra con --db"
        case .deOtroPrograma:
            "es una base de datos SQLite de otro programa, no de marcador: no se usa ni se cambia"
        }
    }
}
