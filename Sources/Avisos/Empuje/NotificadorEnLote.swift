import Synchronization
import Torneo

/// A device whose notices go out in batches with every other device of the same provider
/// (contract.md §20): many streams in flight over a few kept connections, the payload and
/// the shared headers built once per batch, not once per device.
public protocol NotificadorEnLote: Notificador {
    /// Devices with the same key share a batch (same server, same credentials); `nil`: this
    /// one goes alone, through `notificarGol`.
    var claveDeLote: String? { get }

    /// Where the batch goes.
    func destinoDeLote() throws(FalloDeEntrega) -> DestinoH2

    /// Its request for `aviso`. `comun` keeps what every device of the batch shares (the
    /// payload, the signed tokens) once built; `rechazado` is the provider token an earlier
    /// answer of this batch refused as expired.
    func peticionDeLote(_ aviso: AvisoDeGol, comun: ComunDeLote, rechazado: String?)
        throws(FalloDeEntrega) -> PeticionH2

    /// What the answer to `peticion` means; `renovado`: it was sent with a renewed token.
    func desenlace(_ respuesta: RespuestaH2, de peticion: PeticionH2, renovado: Bool)
        -> DesenlaceDeLote
}

/// How one request of a batch ended.
public enum DesenlaceDeLote: Sendable {
    case entregada
    case fallo(FalloDeEntrega)
    /// The provider token was refused as expired: sent again once with a new one.
    case renovar(rechazado: String)
}

/// What the requests of one batch share, built by the first that needs it. One batch, one
/// thread: no lock.
public final class ComunDeLote {
    private var valores: [String: Any] = [:]

    public init() {}

    public func valor<T>(_ clave: String, _ crear: () throws(FalloDeEntrega) -> T)
        throws(FalloDeEntrega) -> T
    {
        if let hecho = valores[clave] as? T { return hecho }
        let nuevo = try crear()
        valores[clave] = nuevo
        return nuevo
    }
}

/// Sends one batch of devices of one key and says how each ended, in order.
public enum EnvioEnLote {
    public static func enviar(
        _ envios: [(any NotificadorEnLote, AvisoDeGol)], conexiones: Int, enVuelo: Int,
        espera: Double
    ) async -> [Result<Void, FalloDeEntrega>?] {
        guard let primero = envios.first?.0 else { return [] }
        let destino: DestinoH2
        do {
            destino = try primero.destinoDeLote()
        } catch {
            return envios.map { _ in .failure(error) }
        }
        if soloHTTP1.withLock({ $0.contains(destino) }) {
            return await unoAUno(envios, enVuelo: enVuelo)
        }
        var resultados = [Result<Void, FalloDeEntrega>?](repeating: nil, count: envios.count)
        let enLote = await ClienteH2.conCliente(
            destino, conexiones: conexiones, enVuelo: enVuelo, espera: espera
        ) { cliente -> [Result<Void, FalloDeEntrega>?] in
            guard let cliente else {
                return envios.map { _ in
                    Result.failure(FalloDeEntrega("sin memoria para HTTP/2", reintentable: true))
                }
            }
            // At most two rounds: the second only for answers that refused the token.
            var pendientes = Array(envios.indices)
            var rechazos: [Int: String] = [:]
            for ronda in 0..<2 where !pendientes.isEmpty {
                let comun = ComunDeLote()
                var indices: [Int] = []
                var peticiones: [PeticionH2] = []
                for i in pendientes {
                    do throws(FalloDeEntrega) {
                        peticiones.append(
                            try envios[i].0.peticionDeLote(
                                envios[i].1, comun: comun, rechazado: rechazos[i]))
                        indices.append(i)
                    } catch {
                        resultados[i] = .failure(error)
                    }
                }
                let respuestas = await cliente.enviar(peticiones)
                pendientes = []
                for (k, i) in indices.enumerated() {
                    let respuesta =
                        k < respuestas.count
                        ? respuestas[k] : RespuestaH2(codigo: 0, razon: "cancelada")
                    if respuesta.codigo == 0, respuesta.razon == "cancelada" {
                        resultados[i] = nil
                        continue
                    }
                    switch envios[i].0.desenlace(
                        respuesta, de: peticiones[k], renovado: ronda > 0)
                    {
                    case .entregada: resultados[i] = .success(())
                    case .fallo(let fallo): resultados[i] = .failure(fallo)
                    case .renovar(let rechazado):
                        rechazos[i] = rechazado
                        pendientes.append(i)
                    }
                }
            }
            // `nil`: stopped before its answer (nothing is known; the next holder sends it).
            return resultados
        }
        // A server that does not speak HTTP/2 (ALPN gave no `h2`) gets each request alone over
        // HTTP/1.1, from now on.
        let sinH2 = FalloDeEntrega(ClienteH2.sinHTTP2, reintentable: true)
        if enLote.allSatisfy({
            if case .failure(let fallo) = $0 { return fallo.motivo.hasSuffix(sinH2.motivo) }
            return false
        }) {
            soloHTTP1.withLock { _ = $0.insert(destino) }
            return await unoAUno(envios, enVuelo: enVuelo)
        }
        return enLote
    }

    private static let soloHTTP1 = Mutex<Set<DestinoH2>>([])

    private static func unoAUno(
        _ envios: [(any NotificadorEnLote, AvisoDeGol)], enVuelo: Int
    ) async -> [Result<Void, FalloDeEntrega>?] {
        await withTaskGroup(of: (Int, Result<Void, FalloDeEntrega>?).self) { grupo in
            var resultados = [Result<Void, FalloDeEntrega>?](repeating: nil, count: envios.count)
            var lanzados = 0
            for (i, (notificador, aviso)) in envios.enumerated() {
                if lanzados >= enVuelo, let (j, r) = await grupo.next() { resultados[j] = r }
                lanzados += 1
                grupo.addTask {
                    do {
                        try await notificador.notificarGol(aviso)
                        return (i, .success(()))
                    } catch let fallo as FalloDeEntrega {
                        return (i, .failure(fallo))
                    } catch {
                        return (i, nil)
                    }
                }
            }
            for await (j, r) in grupo { resultados[j] = r }
            return resultados
        }
    }
}

extension RespuestaH2 {
    init(codigo: Int, razon: String) {
        self.init(codigo: codigo, razon: razon, reintentarTras: nil)
    }
}
