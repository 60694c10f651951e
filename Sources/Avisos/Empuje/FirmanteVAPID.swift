import Empuje
import Synchronization

/// VAPID tokens (RFC 8292) shared by every subscription of this process: one per push service
/// (its origin is the token's `aud`), signed once and reused until an hour before its `exp`,
/// instead of an ECDSA signature per message (contract.md §20).
public final class FirmanteVAPID: Sendable {
    private struct Vigente {
        var token: String
        var caduca: Double
    }

    /// Tokens by push service and key.
    private let vigentes = Mutex<[String: Vigente]>([:])

    public static let compartido = FirmanteVAPID()

    /// Renewed when less than this is left of its life, in seconds.
    static let margen: Double = 3600

    /// The token for `origen`, new or still valid at `ahora`.
    public func token(origen: String, credenciales: CredencialesDeEmpuje.WebPush, ahora: Double)
        throws -> String
    {
        let clave =
            "\(origen) \(credenciales.contacto) \(Base64URL.codificar(credenciales.clave.publica))"
        if let vigente = vigentes.withLock({ $0[clave] }), vigente.caduca - ahora > Self.margen,
            vigente.caduca - ahora <= CanalWebPush.vigenciaDeVAPID
        {
            return vigente.token
        }
        let caduca = ahora + CanalWebPush.vigenciaDeVAPID
        let token = try JWT.firmar(
            cabecera: [("typ", .texto("JWT"))],
            reclamaciones: [
                ("aud", .texto(origen)), ("exp", .entero(Int(caduca))),
                ("sub", .texto(credenciales.contacto)),
            ], clave: credenciales.clave)
        vigentes.withLock { $0[clave] = Vigente(token: token, caduca: caduca) }
        return token
    }
}
