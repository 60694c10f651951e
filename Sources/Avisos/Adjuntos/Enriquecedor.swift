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
    /// Attachments that ship inside the binary (`semilla:gol.gif`): name → bytes.
    let incrustados: @Sendable (String) -> [UInt8]?

    public init(
        plazo: Double = 30, carpeta: String, vida: Double = 600,
        incrustados: @escaping @Sendable (String) -> [UInt8]? = { _ in nil }
    ) {
        self.plazo = plazo
        self.carpeta = carpeta
        self.vida = vida
        self.incrustados = incrustados
    }

    /// `$XDG_CACHE_HOME/marcador/adjuntos`, else `~/.cache/marcador/adjuntos`; `nil` with
    /// neither variable (no shared folder such as /tmp is ever used instead).
    public static func carpetaPorDefecto(entorno: [String: String]) -> String? {
        if let cache = entorno["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return cache + "/marcador/adjuntos"
        }
        guard let casa = entorno["HOME"], casa.hasPrefix("/") else { return nil }
        return casa + "/.cache/marcador/adjuntos"
    }

    /// The scheme of attachments compiled into the binary.
    public static let esquemaIncrustado = "semilla"

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
                if respuesta.cortado, let tipo = TipoDeAdjunto.detectar(respuesta.cuerpo) {
                    return .original(
                        motivo: "adjunto descartado: pasa de \(tipo.limite / 1_048_576) MB")
                }
                contenido = respuesta.cuerpo
            } catch let fallo as FalloHTTP {
                switch fallo {
                case .tiempoAgotado:
                    return .original(
                        motivo:
                            "adjunto descartado: tiempo agotado tras \(formatoSegundos(plazo)) s")
                default:
                    return .original(motivo: "adjunto descartado: \(fallo)")
                }
            } catch {
                return .original(motivo: "adjunto descartado: cancelado")
            }
        case "file":
            switch leerLocal(String(url.dropFirst("file://".count))) {
            case .success(let bytes): contenido = bytes
            case .failure(let motivo):
                return .original(motivo: "adjunto descartado: \(motivo.texto)")
            }
        case Self.esquemaIncrustado:
            let nombre = String(url.dropFirst(Self.esquemaIncrustado.count + 1))
            guard let bytes = incrustados(nombre) else {
                return .original(
                    motivo: "adjunto descartado: no existe «\(TextoSeguro.limpio(url))»")
            }
            contenido = bytes
        default:
            return .original(
                motivo:
                    "adjunto descartado: esquema no permitido «\(TextoSeguro.limpio(esquema))» (solo http, https y file)"
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
            return .original(
                motivo: "adjunto descartado: no se pudo guardar en «\(TextoSeguro.limpio(carpeta))»"
            )
        }
        return .enriquecido(Descargado(ruta: ruta, tipo: tipo, bytes: contenido.count))
    }

    struct MotivoLocal: Error {
        let texto: String
    }

    private func leerLocal(_ ruta: String) -> Result<[UInt8], MotivoLocal> {
        var info = stat()
        guard stat(ruta, &info) == 0 else {
            return .failure(MotivoLocal(texto: "no existe «\(TextoSeguro.limpio(ruta))»"))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            return .failure(MotivoLocal(texto: "«\(TextoSeguro.limpio(ruta))» no es un fichero"))
        }
        guard Int(info.st_size) <= TipoDeAdjunto.limiteMaximo else {
            return .failure(
                MotivoLocal(texto: "pasa de \(TipoDeAdjunto.limiteMaximo / 1_048_576) MB"))
        }
        guard let fichero = fopen(ruta, "rb") else {
            return .failure(MotivoLocal(texto: "no se puede leer «\(TextoSeguro.limpio(ruta))»"))
        }
        defer { fclose(fichero) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        let leidos = fread(&bytes, 1, bytes.count, fichero)
        return .success(Array(bytes.prefix(leidos)))
    }

    /// Writes a private copy: a fresh temporary file (never through a symlink) renamed into
    /// place, in a folder that is really a folder of ours.
    private func guardar(_ bytes: [UInt8], en ruta: String) -> Bool {
        crearCarpeta()
        var info = stat()
        guard lstat(carpeta, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR,
            info.st_uid == getuid()
        else { return false }
        let temporal = ruta + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporal, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        fchmod(descriptor, 0o600)
        var escritos = 0
        var bien = true
        while escritos < bytes.count {
            let n = bytes.withUnsafeBytes {
                write(descriptor, $0.baseAddress! + escritos, $0.count - escritos)
            }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                bien = false
                break
            }
            escritos += n
        }
        if close(descriptor) != 0 { bien = false }
        if bien && rename(temporal, ruta) == 0 { return true }
        unlink(temporal)
        return false
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
            if lstat(ruta, &info) == 0, info.st_mtim.tv_sec < limite { unlink(ruta) }
        }
    }

    static func hash(_ texto: String) -> String {
        var h: UInt64 = 14_695_981_039_346_656_037
        for byte in texto.utf8 { h = (h ^ UInt64(byte)) &* 1_099_511_628_211 }
        return String(h, radix: 16)
    }
}
