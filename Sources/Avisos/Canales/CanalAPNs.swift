import FoundationEssentials
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
            var sound = "default"
            var threadId: String
            var mutableContent: Int?

            enum CodingKeys: String, CodingKey {
                case alert, sound
                case threadId = "thread-id"
                case mutableContent = "mutable-content"
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
            return Array(
                try codificador.encode(
                    Carga(
                        aps: aps, simulatorTargetBundle: bundle, attached: aviso.adjunto,
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

    /// `partido-1-gol-90+3-Cheryshev.apns`, with anything unsafe in a file name replaced.
    public static func nombreDeFichero(_ aviso: AvisoDeGol) -> String {
        let seguro = aviso.identificador.map { c -> Character in
            c.isLetter || c.isNumber || c == "-" || c == "+" || c == "_" ? c : "_"
        }
        return "partido-\(aviso.partidoId)-\(String(seguro)).apns"
    }

    public func notificarGol(_ aviso: AvisoDeGol) async throws {
        let bytes = try Self.carga(aviso, bundle: bundle)
        let destino = directorio + "/" + Self.nombreDeFichero(aviso)
        let temporal = destino + ".tmp-\(getpid())"
        guard let fichero = fopen(temporal, "wx") else {
            throw FalloDeEntrega(
                "no se puede escribir en «\(directorio)»: \(String(cString: strerror(errno)))",
                reintentable: true)
        }
        let escritos = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, fichero) }
        let cerrado = fclose(fichero) == 0
        guard escritos == bytes.count, cerrado, rename(temporal, destino) == 0 else {
            let motivo = String(cString: strerror(errno))
            unlink(temporal)
            throw FalloDeEntrega("no se pudo guardar «\(destino)»: \(motivo)", reintentable: true)
        }
    }
}
