import CCurl
import Sistema
import Synchronization

/// A request as the channels need them: a method, headers, an optional body, a time limit.
public struct PeticionHTTP: Sendable {
    public var url: String
    public var metodo: String
    public var cabeceras: [(String, String)]
    public var cuerpo: [UInt8]?
    /// Whole-request time limit in seconds (connection included).
    public var limite: Double
    /// Redirects to follow, only to the same host and never with credentials; 0 means a
    /// redirect is an answer like any other.
    public var redirecciones: Int
    /// Bytes of body kept; past them the body is cut (the status still counts).
    public var maximoDeBytes: Int?
    /// Looks at the first `bytesParaDecidir` bytes of a 2xx body and returns the size limit for
    /// that content, or `nil` to stop at once (content that will not be used).
    public var limiteSegunContenido: (@Sendable ([UInt8]) -> Int?)?
    public static let bytesParaDecidir = 16
    /// Speak HTTP/2 over TLS (ALPN `h2`), as APNs requires; HTTP/1.1 is never offered then.
    public var http2 = false
    /// A CA file (PEM) that verifies the server instead of the system's, for a private CA.
    /// Verification itself is never switched off.
    public var ca: String?

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

/// An HTTP answer. Its status comes from the status line, whatever happened to the body.
public struct RespuestaHTTP: Sendable {
    public var codigo: Int
    /// Header names in lower case.
    public var cabeceras: [String: String]
    public var cuerpo: [UInt8]
    /// The body went past the read limit (or was refused by its first bytes) and was cut.
    public var cortado: Bool

    public init(codigo: Int, cabeceras: [String: String], cuerpo: [UInt8], cortado: Bool = false) {
        self.codigo = codigo
        self.cabeceras = cabeceras
        self.cuerpo = cuerpo
        self.cortado = cortado
    }

    /// `Retry-After` in seconds, when given as a number of seconds.
    public var reintentarTras: Double? {
        cabeceras["retry-after"].flatMap { Double($0.trimmingCharacters(in: " \t")) }
    }
}

/// Why a request got no HTTP answer.
public enum FalloHTTP: Error, Sendable, Hashable, CustomStringConvertible {
    case tiempoAgotado(segundos: Double)
    case demasiadasRedirecciones
    case redireccionAOtroServidor(String)
    case conexion(String)

    public var description: String {
        switch self {
        case .tiempoAgotado(let segundos): "tiempo agotado tras \(formatoSegundos(segundos)) s"
        case .demasiadasRedirecciones: "demasiadas redirecciones"
        case .redireccionAOtroServidor(let destino):
            "redirige a otro servidor (\(destino)), que no se sigue"
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

/// HTTP(S) through libcurl's multi interface (https://curl.se/libcurl/c/libcurl-multi.html).
///
/// Each transfer waits in `curl_multi_poll` on a thread of its own, never on the Swift
/// cooperative pool (which has one thread per core); cancelling the calling task wakes it with
/// `curl_multi_wakeup` and the transfer ends at once, so a signal never waits for a peer.
public enum ClienteHTTP {
    /// The address of libcurl's entry points, loaded once (a static's initializer runs once,
    /// thread-safely) and never written again, so sharing it between threads is safe.
    private static let direccionDeAPI: UInt? = {
        let api = UnsafeMutablePointer<marcador_curl_api>.allocate(capacity: 1)
        api.initialize(to: marcador_curl_api())
        return marcador_curl_cargar(api) == 0 ? UInt(bitPattern: api) : nil
    }()

    static var api: UnsafePointer<marcador_curl_api>? {
        direccionDeAPI.flatMap { UnsafePointer(bitPattern: $0) }
    }

    /// Sends `peticion`, following redirects to the same host only.
    /// - Throws: `FalloHTTP` when there is no answer; `CancellationError` when the task is
    ///   cancelled (the transfer is abandoned at once).
    public static func enviar(_ peticion: PeticionHTTP) async throws -> RespuestaHTTP {
        guard let api else {
            throw FalloHTTP.conexion("no está libcurl (instala el paquete libcurl4)")
        }
        let origen = try? DireccionWeb(peticion.url)
        var actual = peticion
        var saltos = 0
        while true {
            let (respuesta, destino) = try await transferir(actual, api)
            guard peticion.redirecciones > 0, (300..<400).contains(respuesta.codigo),
                let destino
            else { return respuesta }
            guard saltos < peticion.redirecciones else { throw FalloHTTP.demasiadasRedirecciones }
            guard let nueva = try? DireccionWeb(destino), let origen,
                nueva.anfitrion == origen.anfitrion
            else { throw FalloHTTP.redireccionAOtroServidor(DireccionWeb.visible(destino)) }
            // Credentials never travel with a redirect, not even to the same host.
            actual.url = nueva.sinCredenciales
            saltos += 1
        }
    }

    private static func transferir(
        _ peticion: PeticionHTTP, _ api: UnsafePointer<marcador_curl_api>
    ) async throws -> (RespuestaHTTP, String?) {
        let direccion = UInt(bitPattern: api)
        let control = ControlDeTransferencia(api: direccion)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuacion in
                Hilo.lanzar {
                    let api = UnsafePointer<marcador_curl_api>(bitPattern: direccion)!
                    continuacion.resume(with: Result { try realizar(peticion, api, control) })
                }
            }
        } onCancel: {
            control.cancelar()
        }
    }

    /// Collects what curl hands to the callbacks of one transfer.
    final class Recogida {
        var codigo = 0
        var cuerpo: [UInt8] = []
        var cabeceras: [String: String] = [:]
        var maximo: Int?
        var cortado = false
        var decidir: (@Sendable ([UInt8]) -> Int?)?
    }

    private static func realizar(
        _ peticion: PeticionHTTP, _ api: UnsafePointer<marcador_curl_api>,
        _ control: ControlDeTransferencia
    ) throws -> (RespuestaHTTP, String?) {
        guard let curl = api.pointee.easy_init(), let multi = api.pointee.multi_init() else {
            throw FalloHTTP.conexion("libcurl no arrancó")
        }
        defer {
            control.soltar()
            _ = api.pointee.multi_remove_handle(multi, curl)
            _ = api.pointee.multi_cleanup(multi)
            api.pointee.easy_cleanup(curl)
        }
        let recogida = Recogida()
        let lista = try preparar(curl, peticion, recogida, api)
        defer { api.pointee.slist_free_all(lista) }
        guard control.registrar(multi: UInt(bitPattern: multi)) else { throw CancellationError() }
        guard api.pointee.multi_add_handle(multi, curl) == CURLM_OK else {
            throw FalloHTTP.conexion("libcurl no aceptó la transferencia")
        }
        var resultado = CURLE_OK
        while true {
            var enCurso: Int32 = 0
            guard api.pointee.multi_perform(multi, &enCurso) == CURLM_OK else {
                throw FalloHTTP.conexion("libcurl falló durante la transferencia")
            }
            if control.cancelada { throw CancellationError() }
            if enCurso == 0 {
                var quedan: Int32 = 0
                while let mensaje = api.pointee.multi_info_read(multi, &quedan) {
                    _ = marcador_curl_mensaje_terminado(mensaje, &resultado)
                }
                break
            }
            // Wait for the sockets, but never past libcurl's own next deadline (its timeouts
            // are only noticed when it is called again).
            var espera = 0
            _ = api.pointee.multi_timeout(multi, &espera)
            _ = api.pointee.multi_poll(
                multi, nil, 0, Int32(espera < 0 ? 1000 : min(espera, 1000)), nil)
            if control.cancelada { throw CancellationError() }
        }
        return try respuesta(curl, peticion, recogida, resultado, api)
    }

    /// Sets `curl` up for `peticion`, its callbacks writing into `recogida` (which must outlive
    /// the transfer). Returns the header list, to free once the transfer is done.
    static func preparar(
        _ curl: UnsafeMutableRawPointer, _ peticion: PeticionHTTP, _ recogida: Recogida,
        _ api: UnsafePointer<marcador_curl_api>
    ) throws -> UnsafeMutablePointer<curl_slist>? {
        recogida.maximo = peticion.maximoDeBytes
        recogida.decidir = peticion.limiteSegunContenido
        let contexto = Unmanaged.passUnretained(recogida).toOpaque()
        var lista: UnsafeMutablePointer<curl_slist>?
        for (nombre, valor) in peticion.cabeceras {
            lista = api.pointee.slist_append(lista, "\(nombre): \(valor)")
        }
        do {
            try configurar(curl, peticion, lista, contexto, api)
        } catch {
            api.pointee.slist_free_all(lista)
            throw error
        }
        return lista
    }

    private static func configurar(
        _ curl: UnsafeMutableRawPointer, _ peticion: PeticionHTTP,
        _ lista: UnsafeMutablePointer<curl_slist>?, _ contexto: UnsafeMutableRawPointer,
        _ api: UnsafePointer<marcador_curl_api>
    ) throws {
        func opcion(_ codigo: CURLcode) throws {
            guard codigo == CURLE_OK else {
                throw FalloHTTP.conexion(
                    "libcurl no acepta una opción de la petición (\(descripcion(codigo, api)))")
            }
        }
        let cuerpo = peticion.cuerpo ?? []
        try peticion.url.withCString { url in
            try "http,https".withCString { protocolos in
                try peticion.metodo.withCString { metodo in
                    try cuerpo.withUnsafeBytes { bytes in
                        try opcion(marcador_curl_setopt_pointer(api, curl, CURLOPT_URL, url))
                        try opcion(
                            marcador_curl_setopt_pointer(
                                api, curl, CURLOPT_PROTOCOLS_STR, protocolos))
                        try opcion(marcador_curl_setopt_long(api, curl, CURLOPT_NOSIGNAL, 1))
                        try opcion(
                            marcador_curl_setopt_long(
                                api, curl, CURLOPT_TIMEOUT_MS, max(1, Int(peticion.limite * 1000))))
                        try opcion(marcador_curl_setopt_long(api, curl, CURLOPT_FOLLOWLOCATION, 0))
                        try opcion(
                            marcador_curl_setopt_pointer(api, curl, CURLOPT_HTTPHEADER, lista))
                        try opcion(
                            marcador_curl_setopt_pointer(api, curl, CURLOPT_WRITEDATA, contexto))
                        try opcion(
                            marcador_curl_setopt_pointer(api, curl, CURLOPT_HEADERDATA, contexto))
                        try opcion(
                            marcador_curl_setopt_data_callback(
                                api, curl, CURLOPT_WRITEFUNCTION, alRecibirCuerpo))
                        try opcion(
                            marcador_curl_setopt_data_callback(
                                api, curl, CURLOPT_HEADERFUNCTION, alRecibirCabecera))
                        if peticion.cuerpo != nil {
                            try opcion(
                                marcador_curl_setopt_long(
                                    api, curl, CURLOPT_POSTFIELDSIZE, bytes.count))
                            try opcion(
                                marcador_curl_setopt_pointer(
                                    api, curl, CURLOPT_COPYPOSTFIELDS,
                                    bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)))
                        }
                        if peticion.http2 {
                            // Over TLS, HTTP/2 is agreed through ALPN, and a server that only
                            // speaks HTTP/1.1 (some push services) still gets its request.
                            let version =
                                peticion.url.hasPrefix("https:")
                                ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE
                            try opcion(
                                marcador_curl_setopt_long(
                                    api, curl, CURLOPT_HTTP_VERSION, Int(version)))
                        }
                        if let ca = peticion.ca {
                            try ca.withCString { ruta in
                                try opcion(
                                    marcador_curl_setopt_pointer(api, curl, CURLOPT_CAINFO, ruta))
                            }
                        }
                        if peticion.metodo != "GET" && peticion.metodo != "POST" {
                            try opcion(
                                marcador_curl_setopt_pointer(
                                    api, curl, CURLOPT_CUSTOMREQUEST, metodo))
                        }
                    }
                }
            }
        }
    }

    /// The answer of a finished transfer, or why there is none.
    static func respuesta(
        _ curl: UnsafeMutableRawPointer, _ peticion: PeticionHTTP, _ recogida: Recogida,
        _ resultado: CURLcode, _ api: UnsafePointer<marcador_curl_api>
    ) throws -> (RespuestaHTTP, String?) {
        var estado = 0
        _ = marcador_curl_getinfo_long(api, curl, CURLINFO_RESPONSE_CODE, &estado)
        let codigo = estado != 0 ? estado : recogida.codigo
        // A body cut on purpose ends the transfer with a write error; the answer still stands.
        if resultado != CURLE_OK && !(recogida.cortado && codigo != 0) {
            switch resultado {
            case CURLE_OPERATION_TIMEDOUT:
                throw FalloHTTP.tiempoAgotado(segundos: peticion.limite)
            default:
                throw FalloHTTP.conexion(motivo(resultado, api))
            }
        }
        var destino: UnsafeMutablePointer<CChar>?
        _ = marcador_curl_getinfo_string(api, curl, CURLINFO_REDIRECT_URL, &destino)
        return (
            RespuestaHTTP(
                codigo: codigo, cabeceras: recogida.cabeceras, cuerpo: recogida.cuerpo,
                cortado: recogida.cortado),
            destino.map { String(cString: $0) }
        )
    }

    private static let alRecibirCuerpo: marcador_curl_data_callback = {
        datos, tamano, cuenta, contexto in
        let recogida = Unmanaged<Recogida>.fromOpaque(contexto!).takeUnretainedValue()
        let n = tamano * cuenta
        guard let datos else { return n }
        let trozo = UnsafeRawBufferPointer(start: datos, count: n)
        // Once the first bytes of a 2xx body tell what the content is, its own limit applies
        // (or the transfer stops at once when it is content nobody will use).
        if let decidir = recogida.decidir, (200..<300).contains(recogida.codigo) {
            let disponibles = recogida.cuerpo.count + n
            if disponibles >= PeticionHTTP.bytesParaDecidir {
                recogida.decidir = nil
                let inicio =
                    recogida.cuerpo
                    + trozo.prefix(PeticionHTTP.bytesParaDecidir - recogida.cuerpo.count)
                guard let limite = decidir(inicio) else {
                    recogida.cuerpo = inicio
                    recogida.cortado = true
                    return 0  // anything but n aborts the transfer
                }
                recogida.maximo = min(recogida.maximo ?? limite, limite)
            }
        }
        if let maximo = recogida.maximo, recogida.cuerpo.count + n > maximo {
            recogida.cuerpo.append(contentsOf: trozo.prefix(maximo - recogida.cuerpo.count))
            recogida.cortado = true
            return 0
        }
        recogida.cuerpo.append(contentsOf: trozo)
        return n
    }

    private static let alRecibirCabecera: marcador_curl_data_callback = {
        datos, tamano, cuenta, contexto in
        let recogida = Unmanaged<Recogida>.fromOpaque(contexto!).takeUnretainedValue()
        let n = tamano * cuenta
        guard let datos else { return n }
        let linea = String(
            decoding: UnsafeRawBufferPointer(start: datos, count: n), as: UTF8.self)
        // A status line starts a new response (after a 100 Continue): forget the old headers.
        if linea.hasPrefix("HTTP/") {
            recogida.cabeceras = [:]
            let partes = linea.split(separator: " ", maxSplits: 2)
            recogida.codigo = partes.count > 1 ? Int(partes[1]) ?? 0 : 0
        } else if let dosPuntos = linea.firstIndex(of: ":") {
            let nombre = linea[..<dosPuntos].lowercased()
            let valor = String(linea[linea.index(after: dosPuntos)...]).trimmingCharacters(
                in: " \t\r\n")
            recogida.cabeceras[nombre] = valor
        }
        return n
    }

    /// libcurl's reason, in a Spanish sentence: the user reads Spanish, the detail stays.
    static func motivo(_ codigo: CURLcode, _ api: UnsafePointer<marcador_curl_api>) -> String {
        let explicacion: String
        switch codigo {
        case CURLE_COULDNT_RESOLVE_HOST: explicacion = "no se encuentra el servidor"
        case CURLE_COULDNT_CONNECT: explicacion = "no se pudo conectar con el servidor"
        case CURLE_GOT_NOTHING: explicacion = "el servidor cerró la conexión sin responder"
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR: explicacion = "la conexión se cortó"
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION:
            explicacion = "falló la conexión segura (TLS)"
        case CURLE_UNSUPPORTED_PROTOCOL: explicacion = "protocolo no permitido"
        default: explicacion = "error de red"
        }
        return "\(explicacion) (libcurl \(codigo.rawValue): \(descripcion(codigo, api)))"
    }

    private static func descripcion(_ codigo: CURLcode, _ api: UnsafePointer<marcador_curl_api>)
        -> String
    {
        api.pointee.easy_strerror(codigo).map { String(cString: $0) } ?? "\(codigo.rawValue)"
    }
}

/// The bridge between a task's cancellation and a transfer waiting in `curl_multi_poll`.
///
/// The multi handle is registered while the transfer runs and withdrawn before it is cleaned
/// up, both under the lock that `cancelar` takes, so a wake-up never reaches a freed handle.
final class ControlDeTransferencia: Sendable {
    private struct Estado {
        var cancelada = false
        var multi: UInt?
    }
    private let estado = Mutex(Estado())
    private let api: UInt

    init(api: UInt) { self.api = api }

    var cancelada: Bool { estado.withLock { $0.cancelada } }

    /// Returns `false` when the task was cancelled before the transfer began.
    func registrar(multi: UInt) -> Bool {
        estado.withLock { estado in
            guard !estado.cancelada else { return false }
            estado.multi = multi
            return true
        }
    }

    func soltar() { estado.withLock { $0.multi = nil } }

    func cancelar() {
        estado.withLock { estado in
            estado.cancelada = true
            if let multi = estado.multi,
                let api = UnsafePointer<marcador_curl_api>(bitPattern: api),
                let puntero = UnsafeMutableRawPointer(bitPattern: multi)
            {
                _ = api.pointee.multi_wakeup(puntero)
            }
        }
    }
}
