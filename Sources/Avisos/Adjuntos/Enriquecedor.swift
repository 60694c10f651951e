import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Fetches a notice's attachment before delivery, like Apple's Notification Service Extension:
/// within a deadline, recognised by its bytes, within Apple's size limits, stored privately.
/// Whatever goes wrong, the notice still goes out, with its original content.
public struct Enriquecedor: Sendable {
    /// Seconds the whole fetch may take (Apple gives its extension about 30).
    public var plazo: Double
    /// Private folder for the fetched files (mode 0700, files 0600).
    public let carpeta: String
    /// Files older than this are removed: no delivery can still need them.
    public var vida: Double

    public init(plazo: Double = 30, carpeta: String, vida: Double = 600) {
        self.plazo = plazo
        self.carpeta = carpeta
        self.vida = vida
    }

    /// `$XDG_CACHE_HOME/marcador/adjuntos`, else `~/.cache/marcador/adjuntos`.
    public static func carpetaPorDefecto(entorno: [String: String]) -> String {
        if let cache = entorno["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return cache + "/marcador/adjuntos"
        }
        return (entorno["HOME"] ?? "/tmp") + "/.cache/marcador/adjuntos"
    }

    public struct Descargado: Sendable, Hashable {
        public let ruta: String
        public let tipo: TipoDeAdjunto
        public let bytes: Int
    }

    public enum Resultado: Sendable, Hashable {
        case enriquecido(Descargado)
        /// The log line that says why the original content goes out.
        case original(motivo: String)
    }

    public func enriquecer(_ url: String, clave: String) async -> Resultado {
        let esquema = url.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        let contenido: [UInt8]
        switch esquema {
        case "http", "https":
            do {
                let respuesta = try await ClienteHTTP.enviar(
                    PeticionHTTP(
                        url: url, limite: plazo, redirecciones: 5,
                        maximoDeBytes: TipoDeAdjunto.limiteMaximo,
                        limiteSegunContenido: { TipoDeAdjunto.detectar($0)?.limite }))
                guard (200..<300).contains(respuesta.codigo) else {
                    return .original(motivo: "adjunto descartado: HTTP \(respuesta.codigo)")
                }
                contenido = respuesta.cuerpo
            } catch let fallo as FalloHTTP {
                switch fallo {
                case .tiempoAgotado:
                    return .original(
                        motivo:
                            "adjunto descartado: tiempo agotado tras \(formatoSegundos(plazo)) s")
                case .demasiadoGrande(let limite):
                    return .original(motivo: "adjunto descartado: pasa de \(limite / 1_048_576) MB")
                case .demasiadasRedirecciones:
                    return .original(motivo: "adjunto descartado: demasiadas redirecciones")
                case .conexion(let motivo):
                    return .original(motivo: "adjunto descartado: \(motivo)")
                }
            } catch {
                return .original(motivo: "adjunto descartado: \(error)")
            }
        case "file":
            switch leerLocal(String(url.dropFirst("file://".count))) {
            case .success(let bytes): contenido = bytes
            case .failure(let motivo):
                return .original(motivo: "adjunto descartado: \(motivo.texto)")
            }
        default:
            return .original(
                motivo:
                    "adjunto descartado: esquema no permitido «\(esquema)» (solo http, https y file)"
            )
        }
        guard let tipo = TipoDeAdjunto.detectar(contenido) else {
            return .original(
                motivo: "adjunto no compatible: \(TipoDeAdjunto.nombreDeLoDesconocido(contenido))")
        }
        guard contenido.count <= tipo.limite else {
            return .original(motivo: "adjunto descartado: pasa de \(tipo.limite / 1_048_576) MB")
        }
        limpiarViejos()
        let ruta = carpeta + "/\(Self.hash(clave)).\(tipo.sufijo)"
        guard guardar(contenido, en: ruta) else {
            return .original(motivo: "adjunto descartado: no se pudo guardar en «\(carpeta)»")
        }
        return .enriquecido(Descargado(ruta: ruta, tipo: tipo, bytes: contenido.count))
    }

    struct MotivoLocal: Error {
        let texto: String
    }

    private func leerLocal(_ ruta: String) -> Result<[UInt8], MotivoLocal> {
        var info = stat()
        guard stat(ruta, &info) == 0 else {
            return .failure(MotivoLocal(texto: "no existe «\(ruta)»"))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            return .failure(MotivoLocal(texto: "«\(ruta)» no es un fichero"))
        }
        guard Int(info.st_size) <= TipoDeAdjunto.limiteMaximo else {
            return .failure(
                MotivoLocal(texto: "pasa de \(TipoDeAdjunto.limiteMaximo / 1_048_576) MB"))
        }
        guard let fichero = fopen(ruta, "rb") else {
            return .failure(MotivoLocal(texto: "no se puede leer «\(ruta)»"))
        }
        defer { fclose(fichero) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        let leidos = fread(&bytes, 1, bytes.count, fichero)
        return .success(Array(bytes.prefix(leidos)))
    }

    private func guardar(_ bytes: [UInt8], en ruta: String) -> Bool {
        crearCarpeta()
        let descriptor = open(ruta, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        fchmod(descriptor, 0o600)
        var escritos = 0
        while escritos < bytes.count {
            let n = bytes.withUnsafeBytes {
                write(descriptor, $0.baseAddress! + escritos, $0.count - escritos)
            }
            if n <= 0 { return false }
            escritos += n
        }
        return true
    }

    private func crearCarpeta() {
        var actual = ""
        for parte in carpeta.split(separator: "/") {
            actual += "/" + parte
            mkdir(actual, 0o700)
        }
    }

    /// Removes fetched files older than `vida` seconds.
    public func limpiarViejos() {
        guard let directorio = opendir(carpeta) else { return }
        defer { closedir(directorio) }
        let limite = time(nil) - time_t(vida)
        while let entrada = readdir(directorio) {
            let nombre = withUnsafeBytes(of: entrada.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard nombre != ".", nombre != ".." else { continue }
            var info = stat()
            let ruta = carpeta + "/" + nombre
            if stat(ruta, &info) == 0, info.st_mtim.tv_sec < limite { unlink(ruta) }
        }
    }

    static func hash(_ texto: String) -> String {
        var h: UInt64 = 14_695_981_039_346_656_037
        for byte in texto.utf8 { h = (h ^ UInt64(byte)) &* 1_099_511_628_211 }
        return String(h, radix: 16)
    }
}
