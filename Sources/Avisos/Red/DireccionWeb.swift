/// An `http(s)://` URL taken apart, strictly: what a webhook may be sent to, what an attachment
/// may be fetched from, and how either may be shown without its secrets.
///
/// Only the parts marcador decides on are parsed (scheme, user info, host, port); the rest
/// (path, query, fragment) is kept as written and never shown.
public struct DireccionWeb: Sendable, Hashable {
    /// `http` or `https`, in lower case.
    public let esquema: String
    /// `user:password` before the `@`, if any: a secret.
    public let credenciales: String?
    /// The host in lower case; an IPv6 literal keeps its brackets (`[::1]`).
    public let anfitrion: String
    public let puerto: Int?
    /// Path, query and fragment, as written (may hold a token).
    public let resto: String

    /// Why a URL is not accepted, as a user reads it.
    public enum Fallo: Error, Sendable, Hashable {
        case esquema
        case anfitrion
        case puerto
        case caracteres
    }

    /// Reads `texto`; refuses anything but `http`/`https` with a valid host and a port 1–65535.
    public init(_ texto: String) throws(Fallo) {
        // Control characters and spaces never belong in a URL (they would forge headers or
        // log lines); a URL with them is refused, not cleaned.
        guard !texto.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F })
        else { throw .caracteres }
        guard let separador = texto.firstRange(of: "://") else { throw .esquema }
        let esquema = texto[..<separador.lowerBound].lowercased()
        guard esquema == "http" || esquema == "https" else { throw .esquema }
        let trasEsquema = texto[separador.upperBound...]
        let autoridad = trasEsquema.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        resto = String(trasEsquema.dropFirst(autoridad.count))
        var anfitrionYPuerto = Substring(autoridad)
        if let arroba = autoridad.lastIndex(of: "@") {
            credenciales = String(autoridad[..<arroba])
            anfitrionYPuerto = autoridad[autoridad.index(after: arroba)...]
        } else {
            credenciales = nil
        }
        var textoDelPuerto: Substring?
        if anfitrionYPuerto.hasPrefix("[") {
            guard let cierre = anfitrionYPuerto.firstIndex(of: "]") else { throw .anfitrion }
            let dentro = anfitrionYPuerto[
                anfitrionYPuerto.index(after: anfitrionYPuerto.startIndex)..<cierre]
            guard !dentro.isEmpty, dentro.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." })
            else { throw .anfitrion }
            anfitrion = "[" + dentro.lowercased() + "]"
            let tras = anfitrionYPuerto[anfitrionYPuerto.index(after: cierre)...]
            if !tras.isEmpty {
                guard tras.hasPrefix(":") else { throw .anfitrion }
                textoDelPuerto = tras.dropFirst()
            }
        } else {
            let partes = anfitrionYPuerto.split(
                separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let nombre = partes[0]
            guard !nombre.isEmpty, nombre.count <= 253, nombre.allSatisfy(Self.valeEnUnNombre)
            else { throw .anfitrion }
            anfitrion = nombre.lowercased()
            if partes.count == 2 { textoDelPuerto = partes[1] }
        }
        if let textoDelPuerto {
            guard let numero = Int(textoDelPuerto), (1...65_535).contains(numero),
                textoDelPuerto.allSatisfy(\.isNumber)
            else { throw .puerto }
            puerto = numero
        } else {
            puerto = nil
        }
        self.esquema = esquema
    }

    private static func valeEnUnNombre(_ caracter: Character) -> Bool {
        guard caracter.isASCII else { return false }
        return caracter.isLetter || caracter.isNumber || caracter == "-" || caracter == "."
            || caracter == "_"
    }

    /// The port a connection goes to.
    public var puertoEfectivo: Int { puerto ?? (esquema == "https" ? 443 : 80) }

    /// Scheme, host and port, with everything that may be secret masked:
    /// `https://***@hooks.example.com:8443/***`.
    public var visible: String {
        var texto = esquema + "://"
        if credenciales != nil { texto += "***@" }
        texto += anfitrion
        if let puerto { texto += ":\(puerto)" }
        if !resto.isEmpty { texto += "/***" }
        return texto
    }

    /// The same URL without its user info: what a redirect may be followed to.
    public var sinCredenciales: String {
        esquema + "://" + anfitrion + (puerto.map { ":\($0)" } ?? "") + resto
    }

    /// `texto` without user info, for a URL that goes into a payload a third party reads (the
    /// webhook's `adjunto`, APNs' `attached`): the attachment's credentials are for fetching it,
    /// never to be handed on. A text that does not parse as an http(s) URL keeps only what
    /// comes before any user info.
    public static func sinCredenciales(_ texto: String) -> String {
        if let direccion = try? DireccionWeb(texto) { return direccion.sinCredenciales }
        guard let separador = texto.firstRange(of: "://") else { return texto }
        let autoridad = texto[separador.upperBound...].prefix { $0 != "/" }
        guard let arroba = autoridad.lastIndex(of: "@") else { return texto }
        return String(texto[..<separador.upperBound]) + String(texto[texto.index(after: arroba)...])
    }

    /// The masked form of any text given as a URL, valid or not: nothing after the scheme is
    /// shown unless it parses as a URL.
    public static func visible(_ texto: String) -> String {
        if let direccion = try? DireccionWeb(texto) { return direccion.visible }
        guard let separador = texto.firstRange(of: "://") else { return "***" }
        let esquema = texto[..<separador.lowerBound]
        guard !esquema.isEmpty, esquema.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            return "***"
        }
        return esquema.lowercased() + "://***"
    }
}

extension DireccionWeb.Fallo {
    /// The sentence a user reads.
    public var mensaje: String {
        switch self {
        case .esquema: "debe empezar por http:// o https://"
        case .anfitrion: "no tiene un nombre de servidor válido"
        case .puerto: "el puerto debe ser un número de 1 a 65535"
        case .caracteres: "tiene espacios o caracteres de control"
        }
    }
}
