import Aplicacion

/// The process exit statuses of cli.md; stable, so scripts can branch on them.
enum CodigoDeSalida: Int32, Sendable {
    case ok = 0
    /// EX_USAGE: wrong arguments.
    case uso = 64
    /// EX_DATAERR: a file or value with the wrong content.
    case datos = 65
    /// EX_NOINPUT: no such match or file.
    case noEncontrado = 66
    /// EX_UNAVAILABLE: a notification channel cannot work on this machine.
    case canalNoDisponible = 69
    /// EX_IOERR: the database or a file could not be read or written.
    case entradaSalida = 74
    /// 128 + SIGHUP: the terminal was closed.
    case colgado = 129
    /// 128 + SIGINT.
    case interrumpido = 130
    /// 128 + SIGTERM.
    case terminado = 143
}

extension CodigoDeSalida {
    /// 128 + the signal's number, as shells report it.
    static func porSenal(_ senal: Int32) -> CodigoDeSalida {
        switch senal {
        case 1: .colgado
        case 15: .terminado
        default: .interrumpido
        }
    }

    /// The status a kind of failure exits with (a state that forbids the request, such as
    /// nothing to undo, is a usage error on the command line).
    init(_ clase: Fallo.Clase) {
        switch clase {
        case .uso, .conflicto: self = .uso
        case .datos: self = .datos
        case .noEncontrado: self = .noEncontrado
        case .noDisponible: self = .canalNoDisponible
        case .entradaSalida: self = .entradaSalida
        }
    }
}
