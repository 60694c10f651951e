import Empuje
import Synchronization

/// The provider token of one APNs key, shared by every device of this process: APNs refuses
/// a token renewed more than once every 20 minutes (429 TooManyProviderTokenUpdates) and one
/// older than an hour (403 ExpiredProviderToken), so it is reused and renewed at 50 minutes,
/// or at once when APNs says it expired (contract.md §19).
public final class FirmanteAPNs: Sendable {
    /// Renewed past this age, in seconds.
    public static let renovacion: Double = 50 * 60

    private struct Vigente {
        var token: String
        var emitido: Double
    }

    private let credenciales: CredencialesDeEmpuje.APNs
    private let ahora: @Sendable () -> Double
    private let vigente = Mutex<Vigente?>(nil)

    public init(_ credenciales: CredencialesDeEmpuje.APNs, ahora: @escaping @Sendable () -> Double)
    {
        self.credenciales = credenciales
        self.ahora = ahora
    }

    /// The token to send; a new one when the current is too old or was `rechazado` (the
    /// token APNs just called expired: another delivery may have renewed it already).
    public func token(rechazado: String? = nil) throws(ClaveP256.Fallo) -> String {
        let momento = ahora()
        if let actual = vigente.withLock({ $0 }), actual.token != rechazado,
            momento - actual.emitido < Self.renovacion, momento >= actual.emitido
        {
            return actual.token
        }
        let token = try JWT.firmar(
            cabecera: [("kid", .texto(credenciales.idClave))],
            reclamaciones: [
                ("iss", .texto(credenciales.equipo)), ("iat", .entero(Int(momento))),
            ], clave: credenciales.clave)
        vigente.withLock { $0 = Vigente(token: token, emitido: momento) }
        return token
    }

    private static let compartidos = Mutex<[CredencialesDeEmpuje.APNs: FirmanteAPNs]>([:])

    /// The process's signer for these credentials.
    public static func compartido(
        _ credenciales: CredencialesDeEmpuje.APNs, ahora: @escaping @Sendable () -> Double
    ) -> FirmanteAPNs {
        compartidos.withLock { todos in
            if let firmante = todos[credenciales] { return firmante }
            let firmante = FirmanteAPNs(credenciales, ahora: ahora)
            todos[credenciales] = firmante
            return firmante
        }
    }
}
