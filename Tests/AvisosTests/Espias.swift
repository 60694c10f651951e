import Avisos
import Persistencia
import Synchronization
import Testing
import Torneo

/// The lesson's spy: records each notice in order; readable from outside, appended only by
/// itself. It can also be told to fail its next calls, to test retries.
final class NotificadorEspia: Notificador {
    let canal: String
    private let recibidos = Mutex<[AvisoDeGol]>([])
    private let fallosPendientes: Mutex<[FalloDeEntrega]>
    private let llamadas = Mutex(0)

    /// By default it stands in for the `registro` channel, the one a fresh database has enabled.
    init(canal: String = "registro", fallos: [FalloDeEntrega] = []) {
        self.canal = canal
        fallosPendientes = Mutex(fallos)
    }

    /// Notices delivered (not counting failed calls), in order.
    var avisos: [AvisoDeGol] { recibidos.withLock { $0 } }
    /// Every call, failed ones included.
    var intentos: Int { llamadas.withLock { $0 } }

    func notificarGol(_ aviso: AvisoDeGol) async throws {
        llamadas.withLock { $0 += 1 }
        if let fallo = fallosPendientes.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            throw fallo
        }
        recibidos.withLock { $0.append(aviso) }
    }
}

/// A spy that always fails the same way.
struct NotificadorRoto: Notificador {
    let canal: String
    let fallo: FalloDeEntrega

    func notificarGol(_ aviso: AvisoDeGol) async throws { throw fallo }
}

/// Records log lines in order.
final class RegistroEspia: Registro {
    private let guardadas = Mutex<[String]>([])
    var lineas: [String] { guardadas.withLock { $0 } }
    func anotar(_ linea: String, partido: Int?) { guardadas.withLock { $0.append(linea) } }
}

/// A wall clock the test moves by hand.
final class RelojDePared: Sendable {
    private let segundos = Mutex(1_000_000.0)
    var ahora: Double { segundos.withLock { $0 } }
    func avanzar(_ s: Double) { segundos.withLock { $0 += s } }
}

/// A channel that never answers: each call waits until its task is cancelled, like a webhook
/// whose server accepted the connection and went silent.
final class NotificadorColgado: Notificador {
    let canal: String
    private let llamadas = Mutex<[String]>([])

    init(canal: String) { self.canal = canal }

    /// Identifiers it was handed (none of them ever delivered).
    var recibidos: [String] { llamadas.withLock { $0 } }

    func notificarGol(_ aviso: AvisoDeGol) async throws {
        llamadas.withLock { $0.append(aviso.identificador) }
        try await Task.sleep(for: .seconds(3_600))
        throw FalloDeEntrega("imposible", reintentable: true)
    }
}

/// A channel that takes `segundos` per notice, then accepts it.
final class NotificadorLento: Notificador {
    let canal: String
    let segundos: Double
    private let entregados = Mutex<[String]>([])

    init(canal: String, segundos: Double) {
        self.canal = canal
        self.segundos = segundos
    }

    var avisos: [String] { entregados.withLock { $0 } }

    func notificarGol(_ aviso: AvisoDeGol) async throws {
        try await Task.sleep(for: .milliseconds(Int(segundos * 1000)))
        entregados.withLock { $0.append(aviso.identificador) }
    }
}

/// Polls `condicion` (real time, for tests with real servers and real waits) and records an
/// issue if it never holds.
@MainActor
func esperarQue(
    _ limite: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation,
    _ condicion: () throws -> Bool
) async rethrows {
    // `rethrows` with a polling loop: the condition is the only thing that throws.
    let fin = ContinuousClock.now + limite
    while ContinuousClock.now < fin {
        if try condicion() { return }
        try? await Task.sleep(for: .milliseconds(5))
    }
    if try condicion() { return }
    Issue.record("la condición no se cumplió a tiempo", sourceLocation: sourceLocation)
}

/// A channel that answers at once, as the log does: it records each call's notices and can
/// fail once, worth retrying, at a given call and position, attempting nothing after it.
final class InmediatoEspia: Notificador {
    let canal = "registro"
    let esInmediato = true
    private let recibidas = Mutex<[[String]]>([])
    private let entregados = Mutex<[String]>([])
    private let falloEn: (llamada: Int, posicion: Int)?

    init(falloEn: (llamada: Int, posicion: Int)? = nil) { self.falloEn = falloEn }

    /// Each call's notices, by identifier, attempted or not.
    var llamadas: [[String]] { recibidas.withLock { $0 } }
    /// Notices delivered, in order.
    var avisos: [String] { entregados.withLock { $0 } }

    func notificarGol(_ aviso: AvisoDeGol) async throws {
        if let fallo = try await notificarGoles([aviso]).first, let fallo { throw fallo }
    }

    func notificarGoles(_ avisos: [AvisoDeGol]) async throws -> [FalloDeEntrega?] {
        let llamada = recibidas.withLock {
            $0.append(avisos.map(\.identificador))
            return $0.count
        }
        var fallos: [FalloDeEntrega?] = []
        for (posicion, aviso) in avisos.enumerated() {
            if let falloEn, falloEn == (llamada, posicion) {
                fallos.append(FalloDeEntrega("HTTP 503", reintentable: true))
                break
            }
            entregados.withLock { $0.append(aviso.identificador) }
            fallos.append(nil)
        }
        return fallos
    }
}
