import FoundationEssentials
import Sistema
import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One `.apns` file per notice in a directory, in the payload format APNs and
/// `xcrun simctl push` accept. Files are named by match and identifier, so a redelivery
/// rewrites the same file (the identifier is the collapse id), and written atomically.
public struct CanalAPNs: Notificador {
    public let canal: String
    let directorio: String
    /// `"Simulator Target Bundle"`: lets `simctl push` find the app without a bundle argument.
    let bundle: String?

    /// APNs rejects payloads over 4 KB.
    public static let tamanoMaximo = 4096

    public init(canal: String = "apns", directorio: String, bundle: String? = nil) {
        self.canal = canal
        self.directorio = directorio
        self.bundle = bundle
    }

    struct Carga: Encodable {
        struct Aps: Encodable {
            struct Alerta: Encodable {
                var title: String
                var body: String
            }
            var alert: Alerta
            var sound: String? = "default"
            var threadId: String
            var mutableContent: Int?
            /// `passive` in quiet hours: listed, without sound or lighting the screen.
            var interruptionLevel: String?

            enum CodingKeys: String, CodingKey {
                case alert, sound
                case threadId = "thread-id"
                case mutableContent = "mutable-content"
                case interruptionLevel = "interruption-level"
            }
        }
        var aps: Aps
        var simulatorTargetBundle: String?
        var attached: String?
        var identificador: String?
        var partido: Int
        var marcador: String

        enum CodingKeys: String, CodingKey {
            case aps, attached, identificador, partido, marcador
            case simulatorTargetBundle = "Simulator Target Bundle"
        }
    }

    /// The payload for `aviso`, within 4096 bytes: the body is shortened first (ending in «…»),
    /// then the informative `identificador` key is dropped, as APNs would reject the whole.
    public static func carga(_ aviso: AvisoDeGol, bundle: String?) throws -> [UInt8] {
        let codificador = JSONEncoder()
        codificador.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func codificar(cuerpo: String, conIdentificador: Bool) throws -> [UInt8] {
            var aps = Carga.Aps(
                alert: .init(title: aviso.titulo, body: cuerpo),
                threadId: "partido-\(aviso.partidoId)")
            if aviso.adjunto != nil { aps.mutableContent = 1 }
            if aviso.tranquilo {
                aps.sound = nil
                aps.interruptionLevel = "passive"
            }
            return Array(
                try codificador.encode(
                    Carga(
                        aps: aps, simulatorTargetBundle: bundle,
                        attached: aviso.adjunto.map(DireccionWeb.sinCredenciales),
                        identificador: conIdentificador ? aviso.identificador : nil,
                        partido: aviso.partidoId, marcador: aviso.marcador.description)))
        }
        for conIdentificador in [true, false] {
            var cuerpo = aviso.cuerpo
            var bytes = try codificar(cuerpo: cuerpo, conIdentificador: conIdentificador)
            while bytes.count > tamanoMaximo && !cuerpo.isEmpty {
                // Each character is at least one byte: drop about as many as the excess.
                let sobran = max(1, (bytes.count - tamanoMaximo) / 2)
                let base = cuerpo.hasSuffix("…") ? String(cuerpo.dropLast()) : cuerpo
                let recortado = String(base.dropLast(sobran))
                cuerpo = recortado.isEmpty ? "" : recortado + "…"
                bytes = try codificar(cuerpo: cuerpo, conIdentificador: conIdentificador)
            }
            if bytes.count <= tamanoMaximo { return bytes }
        }
        throw FalloDeEntrega(
            "la notificación no cabe en 4096 bytes ni sin cuerpo", reintentable: false)
    }

    /// `partido-1-gol-90+3-Cheryshev.apns`, with anything unsafe in a file name replaced and a
    /// long identifier shortened with a hash of it (a file name has 255 bytes at most).
    public static func nombreDeFichero(_ aviso: AvisoDeGol) -> String {
        var seguro = String(
            aviso.identificador.map { c -> Character in
                c.isLetter || c.isNumber || c == "-" || c == "+" || c == "_" ? c : "_"
            })
        if seguro.utf8.count > 120 {
            var hash: UInt64 = 14_695_981_039_346_656_037
            for byte in aviso.identificador.utf8 {
                hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211
            }
            var corto = ""
            for caracter in seguro where corto.utf8.count + caracter.utf8.count <= 100 {
                corto.append(caracter)
            }
            seguro = corto + "-" + String(hash, radix: 16)
        }
        return "partido-\(aviso.partidoId)-\(seguro).apns"
    }

    public func notificarGol(_ aviso: AvisoDeGol) async throws {
        let bytes = try Self.carga(aviso, bundle: bundle)
        let destino = directorio + "/" + Self.nombreDeFichero(aviso)
        let temporal = destino + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        // Private (the payload names the user's matches), created fresh, never through a
        // symlink; the rename replaces the old file atomically (and never follows a link).
        let descriptor = open(temporal, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw FalloDeEntrega(
                "no se puede escribir en «\(TextoSeguro.limpio(directorio))»: \(errorDelSistema(errno))",
                reintentable: true)
        }
        fchmod(descriptor, 0o600)
        var escritos = 0
        var fallo: Int32 = 0
        while escritos < bytes.count {
            let n = bytes.withUnsafeBytes {
                write(descriptor, $0.baseAddress! + escritos, $0.count - escritos)
            }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                fallo = errno
                break
            }
            escritos += n
        }
        if fallo == 0 && fsync(descriptor) != 0 { fallo = errno }
        if close(descriptor) != 0 && fallo == 0 { fallo = errno }
        if fallo == 0 && rename(temporal, destino) != 0 { fallo = errno }
        guard fallo == 0 else {
            unlink(temporal)
            throw FalloDeEntrega(
                "no se pudo guardar «\(TextoSeguro.limpio(destino))»: \(errorDelSistema(fallo))",
                reintentable: true)
        }
    }
}
