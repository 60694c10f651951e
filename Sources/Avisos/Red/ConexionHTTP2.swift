import CCurl
import Sistema
import Synchronization

/// One HTTP/2 connection to one server, kept open and shared by every request this process
/// sends there (APNs: contract.md §19): each request a stream on it, instead of a TCP and TLS
/// handshake each.
///
/// libcurl does not share a connection between threads (`CURL_LOCK_DATA_CONNECT` is not for
/// concurrent threads), so one thread of its own owns one multi handle and runs every transfer
/// to that server; callers hand requests over and are woken with the answer. Cancelling a
/// caller ends its stream at once, not the connection.
public final class ConexionHTTP2: Sendable {
    private struct Encargo: Sendable {
        let id: Int
        let peticion: PeticionHTTP
        let continuacion: CheckedContinuation<RespuestaHTTP, any Error>
    }

    private struct Estado {
        var cola: [Encargo] = []
        var canceladas: Set<Int> = []
        var siguiente = 0
    }

    private let estado = Mutex(Estado())
    /// The multi handle (its address), set once by the connection's thread before any request
    /// can be handed over, never freed: `curl_multi_wakeup` may be called on it from any thread.
    private let multi: UInt
    private let api: UInt

    private init?(_ api: UnsafePointer<marcador_curl_api>) {
        guard let multi = api.pointee.multi_init() else { return nil }
        self.multi = UInt(bitPattern: multi)
        self.api = UInt(bitPattern: api)
        Hilo.lanzar { [self] in atender() }
    }

    private static let compartidas = Mutex<[String: ConexionHTTP2]>([:])

    /// This process's connection number `indice` to `origen` (scheme, host and port)
    /// verified with `ca`; `nil` without libcurl.
    public static func para(origen: String, ca: String?, indice: Int = 0) -> ConexionHTTP2? {
        guard let api = ClienteHTTP.api else { return nil }
        return compartidas.withLock { todas in
            let clave = "\(origen) \(ca ?? "") \(indice)"
            if let conexion = todas[clave] { return conexion }
            let nueva = ConexionHTTP2(api)
            todas[clave] = nueva
            return nueva
        }
    }

    /// Forgets `conexion` as this process's connection to its server: the next `para` opens
    /// another one.
    static func retirar(_ conexion: ConexionHTTP2) {
        compartidas.withLock { todas in
            for (clave, valor) in todas where valor === conexion { todas[clave] = nil }
        }
    }

    /// Sends `peticion` as a stream of the connection (no redirects are followed).
    /// - Throws: `FalloHTTP` without an answer; `CancellationError` when the task is cancelled.
    public func enviar(_ peticion: PeticionHTTP) async throws -> RespuestaHTTP {
        let id = estado.withLock { estado in
            estado.siguiente += 1
            return estado.siguiente
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuacion in
                estado.withLock {
                    $0.cola.append(Encargo(id: id, peticion: peticion, continuacion: continuacion))
                }
                despertar()
            }
        } onCancel: {
            estado.withLock { _ = $0.canceladas.insert(id) }
            despertar()
        }
    }

    private func despertar() {
        guard let api = UnsafePointer<marcador_curl_api>(bitPattern: api),
            let multi = UnsafeMutableRawPointer(bitPattern: multi)
        else { return }
        _ = api.pointee.multi_wakeup(multi)
    }

    /// A stream in flight: what it was asked, where its answer collects, its header list.
    private struct EnVuelo {
        let encargo: Encargo
        let recogida: ClienteHTTP.Recogida
        let lista: UnsafeMutablePointer<curl_slist>?
    }

    /// The connection's thread: takes new requests, runs every transfer, answers each caller.
    private func atender() {
        let api = UnsafePointer<marcador_curl_api>(bitPattern: api)!
        let multi = UnsafeMutableRawPointer(bitPattern: multi)!
        var enVuelo: [UInt: EnVuelo] = [:]
        func terminar(
            _ curl: UnsafeMutableRawPointer, con resultado: Result<RespuestaHTTP, any Error>
        ) {
            guard let vuelo = enVuelo.removeValue(forKey: UInt(bitPattern: curl)) else { return }
            _ = api.pointee.multi_remove_handle(multi, curl)
            api.pointee.easy_cleanup(curl)
            api.pointee.slist_free_all(vuelo.lista)
            vuelo.encargo.continuacion.resume(with: resultado)
        }
        while true {
            let (nuevos, canceladas) = estado.withLock { estado in
                let tomados = estado.cola
                estado.cola = []
                // Cancellations of requests that are neither queued nor in flight are stale.
                let vivas = Set(tomados.map(\.id)).union(enVuelo.values.map(\.encargo.id))
                estado.canceladas.formIntersection(vivas)
                return (tomados, estado.canceladas)
            }
            for encargo in nuevos {
                if canceladas.contains(encargo.id) {
                    encargo.continuacion.resume(throwing: CancellationError())
                    continue
                }
                guard let curl = api.pointee.easy_init() else {
                    encargo.continuacion.resume(throwing: FalloHTTP.conexion("libcurl no arrancó"))
                    continue
                }
                let recogida = ClienteHTTP.Recogida()
                do {
                    let lista = try ClienteHTTP.preparar(curl, encargo.peticion, recogida, api)
                    // Wait for the connection being opened to say whether it multiplexes
                    // rather than open another.
                    _ = marcador_curl_setopt_long(api, curl, CURLOPT_PIPEWAIT, 1)
                    enVuelo[UInt(bitPattern: curl)] = EnVuelo(
                        encargo: encargo, recogida: recogida, lista: lista)
                    guard api.pointee.multi_add_handle(multi, curl) == CURLM_OK else {
                        terminar(
                            curl,
                            con: .failure(FalloHTTP.conexion("libcurl no aceptó la transferencia")))
                        continue
                    }
                } catch {
                    api.pointee.easy_cleanup(curl)
                    encargo.continuacion.resume(throwing: error)
                }
            }
            for (direccion, vuelo) in enVuelo where canceladas.contains(vuelo.encargo.id) {
                terminar(
                    UnsafeMutableRawPointer(bitPattern: direccion)!,
                    con: .failure(CancellationError()))
            }
            var enCurso: Int32 = 0
            _ = api.pointee.multi_perform(multi, &enCurso)
            var quedan: Int32 = 0
            while let mensaje = api.pointee.multi_info_read(multi, &quedan) {
                var resultado = CURLE_OK
                guard marcador_curl_mensaje_terminado(mensaje, &resultado) == 1,
                    let curl = marcador_curl_mensaje_easy(mensaje),
                    let vuelo = enVuelo[UInt(bitPattern: curl)]
                else { continue }
                // A stream that got no answer in time says the connection may be stalled: the
                // next requests get a new one (contract.md §20: one slow connection never holds
                // the rest), while this one finishes what it carries.
                if resultado == CURLE_OPERATION_TIMEDOUT { Self.retirar(self) }
                terminar(
                    curl,
                    con: Result {
                        try ClienteHTTP.respuesta(
                            curl, vuelo.encargo.peticion, vuelo.recogida, resultado, api
                        ).0
                    })
            }
            // Sleep until a socket stirs, libcurl's next deadline, or a wake-up (a new request
            // or a cancellation).
            var espera = 0
            _ = api.pointee.multi_timeout(multi, &espera)
            _ = api.pointee.multi_poll(
                multi, nil, 0, Int32(espera < 0 ? 60_000 : min(espera, 60_000)), nil)
        }
    }
}
