import Almacen
import AlmacenPostgreSQL
import AlmacenSQL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Fallo {
    /// Turns what SQLite or the migrator said into a sentence about the user's file (exit 74).
    static func deBaseDeDatos(_ error: any Error, ruta: String) -> Fallo {
        if let fallo = error as? Fallo { return fallo }
        if let migracion = error as? MigrationError {
            switch migracion {
            case .superseded(let version, let conocida):
                return .entradaSalida(
                    "La base de datos «\(ruta)» es de una versión más nueva de marcador "
                        + "(esquema \(version); esta versión conoce hasta el \(conocida)). "
                        + "Actualiza marcador; no se ha modificado nada.")
            case .foreignKeyViolation(let nombre, let tabla):
                return .entradaSalida(
                    "La migración \(nombre) dejaría datos incoherentes en la tabla \(tabla); "
                        + "no se ha aplicado.")
            }
        }
        if let postgres = error as? ErrorPG { return deServidor(postgres, url: ruta) }
        guard let sqlite = error as? SQLiteError else {
            return .entradaSalida("Error con la base de datos «\(ruta)»: \(error).")
        }
        let motivo: String
        if sqlite.systemErrno == ENOSPC || sqlite.systemErrno == EDQUOT {
            return .entradaSalida("Base de datos «\(ruta)»: no queda espacio en el disco.")
        }
        switch sqlite.code.primario {
        case .cantopen:
            motivo = "no se puede abrir: " + porQueNoSeAbre(ruta)
        case .notadb, .corrupt:
            motivo =
                "no es una base de datos de marcador (el fichero está dañado o es de otro tipo)"
        case .readonly:
            motivo = "es de solo lectura (el fichero o su carpeta no admiten escritura)"
        case .full:
            motivo = "no queda espacio en el disco"
        case .busy, .locked:
            motivo = "está bloqueada por otro proceso durante demasiado tiempo"
        case .ioerr:
            motivo = "error de lectura o escritura en el disco (\(sqlite.message))"
        default:
            motivo = sqlite.message
        }
        return .entradaSalida("Base de datos «\(ruta)»: \(motivo).")
    }

    /// What the PostgreSQL server or libpq said, as a sentence; libpq's own words (English,
    /// several lines) only as the detail in brackets, on one line.
    private static func deServidor(_ error: ErrorPG, url: String) -> Fallo {
        let detalle = error.mensaje.split(whereSeparator: \.isNewline)
            .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            .joined(separator: " ")
        let motivo: String
        switch error.estado {
        case "":
            motivo = "falta libpq, la biblioteca de PostgreSQL (en Debian, el paquete libpq5)"
        case let estado where estado.hasPrefix("08"):
            motivo = "no se puede conectar con el servidor PostgreSQL (\(detalle))"
        case "53100":
            motivo = "no queda espacio en el disco del servidor PostgreSQL"
        case "25006":
            motivo = "el servidor PostgreSQL solo admite lecturas"
        case "42501":
            motivo = "el usuario no tiene permiso para esto en el servidor PostgreSQL (\(detalle))"
        case "57P01", "57P02", "57P03":
            motivo = "el servidor PostgreSQL se está parando o arrancando (\(detalle))"
        default:
            motivo = "el servidor PostgreSQL respondió con el error \(error.estado) (\(detalle))"
        }
        return .entradaSalida("Base de datos «\(url)»: \(motivo).")
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
