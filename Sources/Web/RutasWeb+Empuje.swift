import Aplicacion
import Avisos
import FoundationEssentials
import Servidor
import Torneo

/// The page's own push subscription (contract.md §19): the VAPID public key it subscribes
/// with, and the subscription it hands over or takes back, behind the same session and Origin
/// checks as every change.
extension RutasWeb {
    struct ClaveJSON: Encodable {
        /// base64url, for `pushManager.subscribe({applicationServerKey})`; `null` where Web
        /// Push is not configured (an answer, not an error: every page asks).
        var clave: String?

        func encode(to encoder: any Encoder) throws {
            var contenedor = encoder.container(keyedBy: CodingKeys.self)
            try contenedor.encode(clave, forKey: .clave)
        }
        enum CodingKeys: String, CodingKey { case clave }
    }

    struct DispositivoJSON: Encodable {
        var id: String
        var nuevo: Bool
        var mensaje: String
    }

    func claveDeEmpuje() throws -> HTTPResponse {
        Self.json(200, ClaveJSON(clave: try nucleo.estadoDeEmpuje().webpush?.clavePublica))
    }

    /// `POST /dispositivos` with the `PushSubscription` JSON: this browser becomes a device that
    /// follows what the page's notifications follow.
    func suscribir(_ peticion: HTTPRequest) throws -> HTTPResponse {
        guard peticion.header("content-type")?.lowercased().hasPrefix("application/json") == true
        else {
            throw FalloWeb(415, "El cuerpo debe ser la suscripción en JSON (application/json).")
        }
        let suscripcion: Dispositivo.Suscripcion
        do {
            suscripcion = try Dispositivo.suscripcion(json: peticion.body)
        } catch {
            throw FalloWeb(422, "No se añade el dispositivo: \(error.mensaje).")
        }
        let equipos =
            try nucleo.canales().first { $0.tipo == TipoDeCanal.navegador.rawValue }?.sigue.equipos
            ?? []
        let (id, nuevo) = try nucleo.anadirDispositivo(
            .webPush(suscripcion),
            PreferenciasDeDispositivo(seguimiento: Seguimiento(equipos: equipos)))
        return Self.json(
            nuevo ? 201 : 200,
            DispositivoJSON(
                id: id, nuevo: nuevo,
                mensaje: "Avisos con la página cerrada: activados en este navegador."))
    }

    /// `DELETE /dispositivos/ID`: a page takes back a browser's subscription, never a phone.
    func desuscribir(_ id: String) throws -> HTTPResponse {
        guard id.hasPrefix("web-"), id.utf8.count <= 64 else {
            throw FalloWeb(404, "No hay ninguna suscripción «\(TextoSeguro.limpio(id))».")
        }
        try nucleo.quitarDispositivo(id)
        return Self.json(
            200,
            DispositivoJSON(
                id: id, nuevo: false,
                mensaje: "Avisos con la página cerrada: desactivados en este navegador."))
    }
}
