import CEnvioH2
import Sistema
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where a batch of push requests goes: one provider's server (contract.md §20).
public struct DestinoH2: Sendable, Hashable {
    public var anfitrion: String
    public var puerto: Int
    public var ca: String?

    public init(anfitrion: String, puerto: Int, ca: String?) {
        self.anfitrion = anfitrion
        self.puerto = puerto
        self.ca = ca
    }
}

/// One request of a batch. Requests of one batch that share `variante` share `cabeceras`
/// (built into C strings once): a goal to a million phones has two variants, not a million.
public struct PeticionH2: Sendable {
    public var ruta: String
    public var variante: String
    public var cabeceras: [(String, String)]
    /// The one header that differs between requests of a variant (`apns-id`).
    public var propia: (String, String)?
    public var cuerpo: [UInt8]
    /// The provider token it carries, if any (an answer may refuse it).
    public var credencial: String?

    public init(
        ruta: String, variante: String, cabeceras: [(String, String)],
        propia: (String, String)? = nil, cuerpo: [UInt8], credencial: String? = nil
    ) {
        self.credencial = credencial
        self.ruta = ruta
        self.variante = variante
        self.cabeceras = cabeceras
        self.propia = propia
        self.cuerpo = cuerpo
    }
}

/// What a request of a batch got: the HTTP status (0: no answer, with why in `razon`), the
/// provider's `reason` or the body's first bytes, `Retry-After`.
public struct RespuestaH2: Sendable, Hashable {
    public var codigo: Int
    public var razon: String
    public var reintentarTras: Double?
}

/// Batches of requests to one server over a few HTTP/2 connections kept open between batches
/// (`Sources/CEnvioH2`): every request of a batch in flight at once, up to `enVuelo` per
/// connection and the server's own limit.
///
/// A client runs one batch at a time; the process keeps a pool per destination, so two
/// shards worked at once each have connections of their own.
public final class ClienteH2: Sendable {
    /// The C client's address; used only by the one batch holding this client (`pool`).
    private let cliente: UInt
    public let destino: DestinoH2

    private init?(_ destino: DestinoH2, conexiones: Int, enVuelo: Int, espera: Double) {
        self.destino = destino
        let hecho: OpaquePointer? = destino.anfitrion.withCString {
            anfitrion in
            func crear(_ ca: UnsafePointer<CChar>?) -> OpaquePointer? {
                var d = envio_h2_destino(
                    anfitrion: anfitrion, puerto: Int32(destino.puerto), ca: ca,
                    conexiones: Int32(conexiones), maximo_por_conexion: Int32(enVuelo),
                    espera_ms: Int32(espera * 1000), atasco_ms: 2000)
                return envio_h2_nuevo(&d)
            }
            if let ca = destino.ca { return ca.withCString { crear($0) } }
            return crear(nil)
        }
        guard let hecho else { return nil }
        cliente = UInt(bitPattern: hecho)
    }

    deinit {
        envio_h2_liberar(OpaquePointer(bitPattern: cliente))
    }

    private struct Clave: Hashable {
        let destino: DestinoH2
        let conexiones: Int
        let enVuelo: Int
        let espera: Double
    }
    private static let libres = Mutex<[Clave: [ClienteH2]]>([:])

    /// Runs `cuerpo` with a client of the pool for `destino` that no other batch holds.
    public static func conCliente<T>(
        _ destino: DestinoH2, conexiones: Int, enVuelo: Int, espera: Double,
        _ cuerpo: (ClienteH2?) async -> T
    ) async -> T {
        let clave = Clave(
            destino: destino, conexiones: conexiones, enVuelo: enVuelo, espera: espera)
        let cliente =
            libres.withLock { $0[clave]?.popLast() }
            ?? ClienteH2(destino, conexiones: conexiones, enVuelo: enVuelo, espera: espera)
        let resultado = await cuerpo(cliente)
        if let cliente { libres.withLock { $0[clave, default: []].append(cliente) } }
        return resultado
    }

    /// The reason every request of a batch carries when the server offered no HTTP/2 (the C
    /// client's words).
    public static let sinHTTP2 = "el servidor no habla HTTP/2"

    /// Connections this client has opened (a test counts reconnections).
    public var conexionesAbiertas: Int {
        Int(envio_h2_conexiones_abiertas(OpaquePointer(bitPattern: cliente)))
    }

    /// The threads batches block on, never the cooperative pool's: a batch holds its thread
    /// for as long as it takes (at most its deadline).
    static let ejecutor = EjecutorDedicado(nombre: "marcador-h2", hilos: 4)

    /// Sends every request and waits for all their answers. Cancelling the task leaves what
    /// has no answer yet as `codigo` 0, «cancelada».
    public func enviar(_ peticiones: [PeticionH2]) async -> [RespuestaH2] {
        guard !peticiones.isEmpty else { return [] }
        return await withTaskExecutorPreference(Self.ejecutor) {
            let parada = envio_h2_parada_nueva()
            defer { envio_h2_parada_liberar(parada) }
            let direccion = UInt(bitPattern: parada)
            return await withTaskCancellationHandler {
                enviarBloqueando(peticiones, parada)
            } onCancel: {
                envio_h2_parar(OpaquePointer(bitPattern: direccion))
            }
        }
    }

    private func enviarBloqueando(_ peticiones: [PeticionH2], _ parada: OpaquePointer?)
        -> [RespuestaH2]
    {
        // Every C string of the batch lives until it returns: the shared headers once per
        // variant, each request's path and own header.
        var propias: [UnsafeMutablePointer<CChar>?] = []
        propias.reserveCapacity(peticiones.count * 2 + 16)
        defer { for p in propias { free(p) } }
        var porVariante: [String: (UnsafeMutablePointer<UnsafePointer<CChar>?>, Int)] = [:]
        defer { for (lista, _) in porVariante.values { lista.deallocate() } }
        var c = [envio_h2_peticion](repeating: envio_h2_peticion(), count: peticiones.count)
        for (i, peticion) in peticiones.enumerated() {
            let compartidas: (UnsafeMutablePointer<UnsafePointer<CChar>?>, Int)
            if let hechas = porVariante[peticion.variante] {
                compartidas = hechas
            } else {
                let lista = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(
                    capacity: max(1, peticion.cabeceras.count * 2))
                for (k, (nombre, valor)) in peticion.cabeceras.enumerated() {
                    // HTTP/2 header names are lower case (RFC 9113 §8.2.1).
                    let n = strdup(nombre.lowercased())
                    let v = strdup(valor)
                    propias.append(n)
                    propias.append(v)
                    lista[2 * k] = UnsafePointer(n)
                    lista[2 * k + 1] = UnsafePointer(v)
                }
                compartidas = (lista, peticion.cabeceras.count)
                porVariante[peticion.variante] = compartidas
            }
            let ruta = strdup(peticion.ruta)
            propias.append(ruta)
            c[i].ruta = UnsafePointer(ruta)
            c[i].cabeceras = UnsafePointer(compartidas.0)
            c[i].n_cabeceras = Int32(compartidas.1)
            if let (nombre, valor) = peticion.propia {
                let n = strdup(nombre.lowercased())
                let v = strdup(valor)
                propias.append(n)
                propias.append(v)
                c[i].extra_nombre = UnsafePointer(n)
                c[i].extra_valor = UnsafePointer(v)
            }
        }
        // The bodies: pinned for the call (a variant's payload is one array shared by all).
        return peticiones.withCuerpos { cuerpos in
            for i in c.indices {
                c[i].cuerpo = cuerpos[i].baseAddress
                c[i].largo = cuerpos[i].count
            }
            _ = c.withUnsafeMutableBufferPointer { buffer in
                envio_h2_enviar(
                    OpaquePointer(bitPattern: cliente), buffer.baseAddress, buffer.count,
                    parada)
            }
            return c.map { respuesta in
                var r = respuesta
                let razon = withUnsafeBytes(of: &r.razon) { bytes in
                    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                return RespuestaH2(
                    codigo: Int(respuesta.estado), razon: razon,
                    reintentarTras: respuesta.reintentar_tras >= 0
                        ? Double(respuesta.reintentar_tras) : nil)
            }
        }
    }
}

extension Array where Element == PeticionH2 {
    /// The bodies' bytes, valid inside `cuerpo`. Arrays are copied into one buffer only when
    /// they are not the same storage as the previous request's.
    fileprivate func withCuerpos<T>(_ cuerpo: ([UnsafeBufferPointer<UInt8>]) -> T) -> T {
        var bloques: [UnsafeMutableBufferPointer<UInt8>] = []
        defer { for b in bloques { b.deallocate() } }
        var vistas: [UnsafeBufferPointer<UInt8>] = []
        vistas.reserveCapacity(count)
        var anterior: [UInt8]? = nil
        for peticion in self {
            if let previo = anterior,
                previo.withUnsafeBufferPointer({ a in
                    peticion.cuerpo.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress }
                }), let ultima = vistas.last
            {
                vistas.append(ultima)
                continue
            }
            let bloque = UnsafeMutableBufferPointer<UInt8>.allocate(
                capacity: Swift.max(1, peticion.cuerpo.count))
            _ = bloque.initialize(from: peticion.cuerpo)
            bloques.append(bloque)
            vistas.append(UnsafeBufferPointer(rebasing: bloque[0..<peticion.cuerpo.count]))
            anterior = peticion.cuerpo
        }
        return cuerpo(vistas)
    }
}
