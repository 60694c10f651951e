import FoundationEssentials
import Torneo

/// HTTP POST of a JSON document per notice. 2xx is delivered; 408, 429, 5xx, timeouts and
/// connection errors are retried (honouring `Retry-After`); any other answer fails at once.
/// The `Idempotency-Key` header lets the receiver drop a redelivery of the same notice.
public struct CanalWebhook: Notificador {
    public let canal: String
    let url: String
    let limite: Double
    /// ntfy (https://ntfy.sh) style: the body is the plain text, the title and the attachment
    /// travel in headers (`Title`, `Attach`, `Filename`).
    let ntfy: Bool

    public init(canal: String = "webhook", url: String, limite: Double = 10, ntfy: Bool = false) {
        self.canal = canal
        self.url = url
        self.limite = limite
        self.ntfy = ntfy
    }

    /// The document a receiver gets; its keys are part of the interface.
    struct Documento: Encodable {
        var identificador: String
        var partido: Int
        var minuto: String
        var jugador: String
        var equipo: String
        var titulo: String
        var cuerpo: String
        var marcador: String
        var adjunto: String?
        var adjuntoTipo: String?
        /// `gol`, `anulado` and `corregido` (same identifier and key as the goal: they replace
        /// its alert), `inicio`, `descanso`, `prorroga`, `penaltis`, `final`, `prueba`.
        var tipo: String
        /// Present, and true, in the channel's quiet hours.
        var tranquilo: Bool?
    }

    static func documento(_ aviso: AvisoDeGol) throws -> [UInt8] {
        let codificador = JSONEncoder()
        codificador.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(
            try codificador.encode(
                Documento(
                    identificador: aviso.identificador, partido: aviso.partidoId,
                    minuto: aviso.minuto.description, jugador: aviso.jugador, equipo: aviso.equipo,
                    titulo: aviso.titulo, cuerpo: aviso.cuerpo,
                    marcador: aviso.marcador.description,
                    adjunto: aviso.adjunto.map(DireccionWeb.sinCredenciales),
                    adjuntoTipo: aviso.tipoDeAdjunto, tipo: aviso.tipo.rawValue,
                    tranquilo: aviso.tranquilo ? true : nil)))
    }

    /// `=?UTF-8?B?…?=` (RFC 2047): how a non-ASCII title fits in an HTTP header.
    static func cabeceraCodificada(_ texto: String) -> String {
        "=?UTF-8?B?" + Data(texto.utf8).base64EncodedString() + "?="
    }

    func peticion(_ aviso: AvisoDeGol) throws -> PeticionHTTP {
        var cabeceras = [
            ("Idempotency-Key", aviso.claveDeIdempotencia),
            ("User-Agent", "marcador"),
        ]
        let cuerpo: [UInt8]
        if ntfy {
            cuerpo = Array(aviso.cuerpo.utf8)
            cabeceras += [
                ("Content-Type", "text/plain; charset=utf-8"),
                ("Title", Self.cabeceraCodificada(aviso.titulo)),
                ("Tags", aviso.tipo == .anulado ? "x" : "soccer"),
            ]
            // ntfy's low priority: no sound, no pop-up.
            if aviso.tranquilo { cabeceras.append(("Priority", "2")) }
            if let adjunto = aviso.adjunto {
                let nombre =
                    aviso.identificador + "."
                    + (aviso.tipoDeAdjunto.map { $0 == "jpeg" ? "jpg" : $0 } ?? "bin")
                cabeceras += [
                    ("Attach", DireccionWeb.sinCredenciales(adjunto)),
                    ("Filename", Self.cabeceraCodificada(nombre)),
                ]
            }
        } else {
            cuerpo = try Self.documento(aviso)
            cabeceras.insert(("Content-Type", "application/json; charset=utf-8"), at: 0)
        }
        return PeticionHTTP(
            url: url, metodo: "POST", cabeceras: cabeceras, cuerpo: cuerpo, limite: limite,
            maximoDeBytes: 64 * 1024)
    }

    public func notificarGol(_ aviso: AvisoDeGol) async throws {
        let respuesta: RespuestaHTTP
        do {
            respuesta = try await ClienteHTTP.enviar(try peticion(aviso))
        } catch let fallo as FalloHTTP {
            // No answer at all (timeout, reset): the receiver may or may not have it; the
            // same Idempotency-Key makes the retry safe.
            throw FalloDeEntrega("\(fallo)", reintentable: true)
        }
        try Self.juzgar(respuesta)
    }

    /// Outcomes only on evidence (delivery.md): the status line decides, whatever the body's size
    /// (a body past the read limit is cut, never taken as an answer of its own).
    static func juzgar(_ respuesta: RespuestaHTTP) throws {
        switch respuesta.codigo {
        case 200..<300:
            return
        case 408, 429, 500..<600, 0:
            throw FalloDeEntrega(
                describir(respuesta), reintentable: true, reintentarTras: respuesta.reintentarTras)
        default:
            throw FalloDeEntrega(describir(respuesta), reintentable: false)
        }
    }

    /// `HTTP 503: <the start of the body>`, with the peer's text made safe to print.
    static func describir(_ respuesta: RespuestaHTTP) -> String {
        guard respuesta.codigo != 0 else { return "respuesta sin código de estado" }
        let texto = String(decoding: respuesta.cuerpo.prefix(120), as: UTF8.self)
            .split(whereSeparator: \.isNewline).joined(separator: " ")
            .trimmingCharacters(in: " \t")
        guard !texto.isEmpty else { return "HTTP \(respuesta.codigo)" }
        let corto = texto.count > 80 ? String(texto.prefix(80)) + "…" : texto
        return "HTTP \(respuesta.codigo): \(TextoSeguro.limpio(corto))"
    }

    /// The URL as it may be shown: scheme, host and port only, since paths, queries and user
    /// info often carry the secret token.
    public static func urlVisible(_ url: String) -> String { DireccionWeb.visible(url) }
}
