import CCurl
import Dispatch

/// A request as the channels need them: a method, headers, an optional body, a time limit.
public struct PeticionHTTP: Sendable {
    public var url: String
    public var metodo: String
    public var cabeceras: [(String, String)]
    public var cuerpo: [UInt8]?
    /// Whole-request time limit in seconds (connection included).
    public var limite: Double
    /// Follow redirects (at most this many); 0 means redirects are answers.
    public var redirecciones: Int
    /// Stop reading once the body passes this many bytes.
    public var maximoDeBytes: Int?
    /// Looks at the first `bytesParaDecidir` bytes of the body and returns the size limit for
    /// that content, or `nil` to stop at once (content that will not be used).
    public var limiteSegunContenido: (@Sendable ([UInt8]) -> Int?)?
    public static let bytesParaDecidir = 16

    public init(
        url: String, metodo: String = "GET", cabeceras: [(String, String)] = [],
        cuerpo: [UInt8]? = nil, limite: Double = 10, redirecciones: Int = 0,
        maximoDeBytes: Int? = nil, limiteSegunContenido: (@Sendable ([UInt8]) -> Int?)? = nil
    ) {
        self.limiteSegunContenido = limiteSegunContenido
        self.url = url
        self.metodo = metodo
        self.cabeceras = cabeceras
        self.cuerpo = cuerpo
        self.limite = limite
        self.redirecciones = redirecciones
        self.maximoDeBytes = maximoDeBytes
    }
}

public struct RespuestaHTTP: Sendable {
    public var codigo: Int
    /// Header names in lower case.
    public var cabeceras: [String: String]
    public var cuerpo: [UInt8]

    /// `Retry-After` in seconds, when given as a number of seconds.
    public var reintentarTras: Double? {
        cabeceras["retry-after"].flatMap { Double($0.trimmingCharacters(in: " \t")) }
    }
}

/// Why a request got no HTTP answer.
public enum FalloHTTP: Error, Sendable, Hashable, CustomStringConvertible {
    case tiempoAgotado(segundos: Double)
    case demasiadoGrande(limite: Int)
    case demasiadasRedirecciones
    case conexion(String)

    public var description: String {
        switch self {
        case .tiempoAgotado(let segundos): "tiempo agotado tras \(formatoSegundos(segundos)) s"
        case .demasiadoGrande(let limite): "la respuesta pasa de \(limite) bytes"
        case .demasiadasRedirecciones: "demasiadas redirecciones"
        case .conexion(let motivo): motivo
        }
    }
}

func formatoSegundos(_ segundos: Double) -> String {
    segundos == segundos.rounded() ? String(Int(segundos)) : String(segundos)
}

extension String {
    func trimmingCharacters(in conjunto: String) -> String {
        var vista = Substring(self)
        while let primero = vista.first, conjunto.contains(primero) { vista.removeFirst() }
        while let ultimo = vista.last, conjunto.contains(ultimo) { vista.removeLast() }
        return String(vista)
    }
}

/// HTTP(S) through libcurl (https://curl.se/libcurl/c/libcurl-easy.html).
///
/// `curl_easy_perform` blocks, so each request runs on a Dispatch worker thread, never on the
/// Swift cooperative pool, which has only one thread per core.
public enum ClienteHTTP {
    /// The address of libcurl's entry points, loaded once (a static's initializer runs once,
    /// thread-safely) and never written again, so sharing it between threads is safe.
    private static let direccionDeAPI: UInt? = {
        let api = UnsafeMutablePointer<marcador_curl_api>.allocate(capacity: 1)
        api.initialize(to: marcador_curl_api())
        return marcador_curl_cargar(api) == 0 ? UInt(bitPattern: api) : nil
    }()

    public static func enviar(_ peticion: PeticionHTTP) async throws -> RespuestaHTTP {
        guard let direccion = direccionDeAPI else {
            throw FalloHTTP.conexion("no está libcurl (instala el paquete libcurl4)")
        }
        return try await withCheckedThrowingContinuation { continuacion in
            DispatchQueue.global().async {
                let api = UnsafePointer<marcador_curl_api>(bitPattern: direccion)!
                continuacion.resume(with: Result { try realizar(peticion, api) })
            }
        }
    }

    /// Collects what curl hands to the callbacks of one transfer.
    private final class Recogida {
        var cuerpo: [UInt8] = []
        var cabeceras: [String: String] = [:]
        var maximo: Int?
        var excedido = false
        var decidir: (@Sendable ([UInt8]) -> Int?)?
        var rechazado = false
    }

    private static func realizar(_ peticion: PeticionHTTP, _ api: UnsafePointer<marcador_curl_api>)
        throws
        -> RespuestaHTTP
    {
        guard let curl = api.pointee.easy_init() else {
            throw FalloHTTP.conexion("libcurl no arrancó")
        }
        defer { api.pointee.easy_cleanup(curl) }
        let recogida = Recogida()
        recogida.maximo = peticion.maximoDeBytes
        recogida.decidir = peticion.limiteSegunContenido
        let contexto = Unmanaged.passUnretained(recogida).toOpaque()
        var lista: UnsafeMutablePointer<curl_slist>?
        for (nombre, valor) in peticion.cabeceras {
            lista = api.pointee.slist_append(lista, "\(nombre): \(valor)")
        }
        defer { api.pointee.slist_free_all(lista) }

        let codigo: CURLcode = peticion.url.withCString { url in
            marcador_curl_setopt_pointer(api, curl, CURLOPT_URL, url)
            marcador_curl_setopt_long(api, curl, CURLOPT_NOSIGNAL, 1)
            marcador_curl_setopt_long(api, curl, CURLOPT_TIMEOUT_MS, Int(peticion.limite * 1000))
            marcador_curl_setopt_long(
                api, curl, CURLOPT_FOLLOWLOCATION, peticion.redirecciones > 0 ? 1 : 0)
            marcador_curl_setopt_long(api, curl, CURLOPT_MAXREDIRS, peticion.redirecciones)
            marcador_curl_setopt_pointer(api, curl, CURLOPT_HTTPHEADER, lista)
            marcador_curl_setopt_pointer(api, curl, CURLOPT_WRITEDATA, contexto)
            marcador_curl_setopt_pointer(api, curl, CURLOPT_HEADERDATA, contexto)
            marcador_curl_setopt_data_callback(api, curl, CURLOPT_WRITEFUNCTION) {
                datos, tamano, cuenta, contexto in
                let recogida = Unmanaged<Recogida>.fromOpaque(contexto!).takeUnretainedValue()
                let n = tamano * cuenta
                if let maximo = recogida.maximo, recogida.cuerpo.count + n > maximo {
                    recogida.excedido = true
                    return 0  // anything but n aborts the transfer
                }
                datos.map {
                    recogida.cuerpo.append(contentsOf: UnsafeRawBufferPointer(start: $0, count: n))
                }
                // Once the first bytes tell what the content is, its own limit applies (or the
                // transfer stops at once when it is content nobody will use).
                if let decidir = recogida.decidir,
                    recogida.cuerpo.count >= PeticionHTTP.bytesParaDecidir
                {
                    recogida.decidir = nil
                    guard let limite = decidir(recogida.cuerpo) else {
                        recogida.rechazado = true
                        return 0
                    }
                    recogida.maximo = min(recogida.maximo ?? limite, limite)
                    if recogida.cuerpo.count > limite {
                        recogida.excedido = true
                        return 0
                    }
                }
                return n
            }
            marcador_curl_setopt_data_callback(api, curl, CURLOPT_HEADERFUNCTION) {
                datos, tamano, cuenta, contexto in
                let recogida = Unmanaged<Recogida>.fromOpaque(contexto!).takeUnretainedValue()
                let n = tamano * cuenta
                guard let datos else { return n }
                let linea = String(
                    decoding: UnsafeRawBufferPointer(start: datos, count: n), as: UTF8.self)
                // A status line starts a new response (after a redirect): forget the old headers.
                if linea.hasPrefix("HTTP/") { recogida.cabeceras = [:] }
                if let dosPuntos = linea.firstIndex(of: ":") {
                    let nombre = linea[..<dosPuntos].lowercased()
                    let valor = String(linea[linea.index(after: dosPuntos)...]).trimmingCharacters(
                        in: " \t\r\n")
                    recogida.cabeceras[nombre] = valor
                }
                return n
            }
            if peticion.redirecciones > 0 {
                _ = "http,https".withCString {
                    marcador_curl_setopt_pointer(api, curl, CURLOPT_REDIR_PROTOCOLS_STR, $0)
                }
            }
            if let cuerpo = peticion.cuerpo {
                return cuerpo.withUnsafeBytes { bytes in
                    marcador_curl_setopt_long(api, curl, CURLOPT_POSTFIELDSIZE, bytes.count)
                    marcador_curl_setopt_pointer(api, curl, CURLOPT_POSTFIELDS, bytes.baseAddress)
                    if peticion.metodo != "POST" {
                        _ = peticion.metodo.withCString {
                            marcador_curl_setopt_pointer(api, curl, CURLOPT_CUSTOMREQUEST, $0)
                        }
                    }
                    return api.pointee.easy_perform(curl)
                }
            }
            return api.pointee.easy_perform(curl)
        }
        if recogida.excedido, let maximo = recogida.maximo {
            throw FalloHTTP.demasiadoGrande(limite: maximo)
        }
        if recogida.rechazado {
            return RespuestaHTTP(
                codigo: 200, cabeceras: recogida.cabeceras, cuerpo: recogida.cuerpo)
        }
        switch codigo {
        case CURLE_OK:
            break
        case CURLE_OPERATION_TIMEDOUT:
            throw FalloHTTP.tiempoAgotado(segundos: peticion.limite)
        case CURLE_TOO_MANY_REDIRECTS:
            throw FalloHTTP.demasiadasRedirecciones
        default:
            throw FalloHTTP.conexion(
                api.pointee.easy_strerror(codigo).map { String(cString: $0) }
                    ?? "error \(codigo.rawValue) de libcurl")
        }
        var estado = 0
        marcador_curl_getinfo_long(api, curl, CURLINFO_RESPONSE_CODE, &estado)
        return RespuestaHTTP(codigo: estado, cabeceras: recogida.cabeceras, cuerpo: recogida.cuerpo)
    }
}
