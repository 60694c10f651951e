import Empuje
import FoundationEssentials
import Torneo

/// What APNs and Web Push share: JSON as both write it, and the short form of a notice's
/// identity that makes a later notice replace an earlier one (`apns-collapse-id`, `Topic`).
enum DocumentoDeEmpuje {
    static func json(_ valor: some Encodable) -> [UInt8] {
        let codificador = JSONEncoder()
        codificador.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? codificador.encode(valor)).map(Array.init) ?? Array("{}".utf8)
    }

    /// The attachment's address as a phone or a browser can fetch it: an http(s) URL without
    /// credentials; none for what only this machine can read (the seeds' `semilla:gol.gif`).
    static func adjunto(_ aviso: AvisoDeGol) -> String? {
        guard let adjunto = aviso.adjunto, let direccion = try? DireccionWeb(adjunto) else {
            return nil
        }
        return direccion.sinCredenciales
    }

    /// The notice's key (the goal's, shared by its annulment and its corrections) in at most
    /// `maximo` characters of base64url: itself when it fits and is already in that alphabet,
    /// else its SHA-256 (RFC 8030's `Topic` allows 32 such characters, APNs' collapse id 64
    /// bytes).
    static func colapso(_ aviso: AvisoDeGol, maximo: Int) -> String {
        let clave = aviso.claveDeIdempotencia
        let alfabeto = Set(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".unicodeScalars)
        if clave.unicodeScalars.count <= maximo, clave.unicodeScalars.allSatisfy(alfabeto.contains)
        {
            return clave
        }
        return String(Base64URL.codificar(Resumen.sha256(Array(clave.utf8))).prefix(maximo))
    }
}
