import Persistencia

extension ErrorPG: ErrorDeTienda {
    /// What the server or libpq said; libpq's own words (English, several lines) only as the
    /// detail in brackets, on one line.
    public var explicacion: String {
        let detalle = mensaje.split(whereSeparator: \.isNewline)
            .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            .joined(separator: " ")
        let motivo: String
        switch estado {
        case "":
            motivo = "falta libpq, la biblioteca de PostgreSQL (en Debian, el paquete libpq5)"
        case ErrorPG.estadoInterrumpido:
            motivo = "el servidor PostgreSQL no respondió a tiempo mientras marcador se paraba"
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
            motivo = "el servidor PostgreSQL respondió con el error \(estado) (\(detalle))"
        }
        return motivo
    }
}
