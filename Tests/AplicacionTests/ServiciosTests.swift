import Almacen
import Aplicacion
import ApoyoDePruebas
import Avisos
import Synchronization
import Testing
import Torneo

#if canImport(Glibc)
    import Glibc
#endif

/// A service that writes down when it starts, is asked to stop and has stopped; it takes a few
/// turns of the executor to stop, so an order that did not wait for it would show.
private final class Apuntador: Servicio {
    let nombre: String
    let diario: Diario
    let falla: Bool
    let acabaSolo: Bool

    init(_ nombre: String, _ diario: Diario, falla: Bool = false, acabaSolo: Bool = false) {
        self.nombre = nombre
        self.diario = diario
        self.falla = falla
        self.acabaSolo = acabaSolo
    }

    struct Roto: Error {}

    func run() async throws {
        diario.anotar("empieza \(nombre)")
        if falla { throw Roto() }
        if acabaSolo {
            await diario.esperarTurno("acaba \(nombre)")
            diario.anotar("acaba \(nombre)")
            return
        }
        await hastaQueLoParen()
        diario.anotar("para \(nombre)")
        for _ in 0..<50 { await Task.yield() }
        diario.anotar("parado \(nombre)")
    }
}

/// What the services wrote, in order; and the moments a test lets a service go on.
private final class Diario: Sendable {
    private let lineas = Mutex<[String]>([])
    private let permisos = Mutex<Set<String>>([])
    var todas: [String] { lineas.withLock { $0 } }
    func anotar(_ linea: String) { lineas.withLock { $0.append(linea) } }
    func permitir(_ turno: String) { permisos.withLock { _ = $0.insert(turno) } }
    func esperarTurno(_ turno: String) async {
        while !Task.isCancelled && !permisos.withLock({ $0.contains(turno) }) { await Task.yield() }
    }
    func esperar(_ linea: String) async {
        while !todas.contains(linea) { await Task.yield() }
    }
}

@Suite("Grupo de servicios")
struct ServiciosTests {
    /// architecture.md, the shutdown order: a signal stops the last service added first, and
    /// each is waited for before the one before it is asked.
    @Test func unaSenalLosParaEnOrdenInversoUnoTrasOtro() async throws {
        let diario = Diario()
        let (senales, entrada) = AsyncStream<Int32>.makeStream()
        var grupo = GrupoDeServicios(senales: senales, terminan: [SIGTERM])
        for nombre in ["reparto", "sondeo", "web"] { grupo.añadir(Apuntador(nombre, diario)) }
        let grupoListo = grupo
        let corriendo = Task { try await grupoListo.run() }
        for nombre in ["reparto", "sondeo", "web"] { await diario.esperar("empieza \(nombre)") }
        entrada.yield(SIGTERM)
        #expect(try await corriendo.value == SIGTERM)
        #expect(
            diario.todas.dropFirst(3) == [
                "para web", "parado web", "para sondeo", "parado sondeo", "para reparto",
                "parado reparto",
            ])
        #expect(grupo.cierre.senal == SIGTERM)
        #expect(grupo.cierre.plazo(.milliseconds(500)) == .zero)
    }

    /// A service whose work is the group's (the match, the drain) ends it: the others stop,
    /// and no signal is reported; the grace periods stay whole.
    @Test func elQueAcabaElGrupoParaALosDemas() async throws {
        let diario = Diario()
        let (senales, _) = AsyncStream<Int32>.makeStream()
        var grupo = GrupoDeServicios(senales: senales, terminan: [SIGTERM])
        grupo.añadir(Apuntador("reparto", diario))
        grupo.añadir(Apuntador("partido", diario, acabaSolo: true), alAcabar: .acabaElGrupo)
        let grupoListo = grupo
        let corriendo = Task { try await grupoListo.run() }
        await diario.esperar("empieza reparto")
        #expect(!diario.todas.contains("para reparto"))
        diario.permitir("acaba partido")
        #expect(try await corriendo.value == nil)
        #expect(diario.todas.suffix(3) == ["acaba partido", "para reparto", "parado reparto"])
        #expect(grupo.cierre.plazo(.milliseconds(500)) == .milliseconds(500))
    }

    /// A service that throws stops the others without grace, and its error comes out of the
    /// group once they have stopped.
    @Test func unFalloParaALosDemasYSale() async throws {
        let diario = Diario()
        let (senales, _) = AsyncStream<Int32>.makeStream()
        var grupo = GrupoDeServicios(senales: senales, terminan: [SIGTERM])
        grupo.añadir(Apuntador("reparto", diario))
        grupo.añadir(Apuntador("sondeo", diario, falla: true))
        await #expect(throws: Apuntador.Roto.self) { try await grupo.run() }
        #expect(diario.todas.suffix(2) == ["para reparto", "parado reparto"])
        #expect(grupo.cierre.plazo(.milliseconds(500)) == .zero)
    }

    /// SIGUSR1 and SIGWINCH only run their action; the group goes on until a stopping signal.
    @Test func lasOtrasSenalesNoParan() async throws {
        let diario = Diario()
        let (senales, entrada) = AsyncStream<Int32>.makeStream()
        var grupo = GrupoDeServicios(senales: senales, terminan: [SIGINT]) { numero in
            diario.anotar("señal \(numero)")
        }
        grupo.añadir(Apuntador("reparto", diario))
        let grupoListo = grupo
        let corriendo = Task { try await grupoListo.run() }
        await diario.esperar("empieza reparto")
        entrada.yield(SIGUSR1)
        await diario.esperar("señal \(SIGUSR1)")
        #expect(!diario.todas.contains("para reparto"))
        entrada.yield(SIGINT)
        #expect(try await corriendo.value == SIGINT)
        #expect(diario.todas.last == "parado reparto")
    }

    /// A grace period runs to its end unless a signal comes, which cuts it at once, even while
    /// it runs (a second Ctrl-C during `jugar`'s final half second).
    @Test func unaSenalCortaLaGracia() async {
        let cierre = Cierre()
        // The caller is being stopped (cancelled): its grace is not.
        let llamante = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await cierre.conGracia { !Task.isCancelled }
        }
        #expect(await llamante.value == true)
        #expect(cierre.plazo(.milliseconds(500)) == .milliseconds(500))
        let empezada = Mutex(false)
        let cortada = Task {
            await cierre.conGracia { () async -> Bool in
                empezada.withLock { $0 = true }
                do {
                    try await Task.sleep(for: .seconds(600))
                    return true
                } catch {
                    return false
                }
            }
        }
        while !empezada.withLock({ $0 }) { await Task.yield() }
        cierre.recibir(SIGINT)
        #expect(await cortada.value == false)
        #expect(await cierre.conGracia { !Task.isCancelled } == false)
        #expect(cierre.plazo(.milliseconds(500)) == .zero)
    }
}

/// A real dispatcher as a service, over an in-memory store and a webhook on 127.0.0.1 that
/// holds its answer: stopped while the POST is in flight, it gives the delivery back.
@Suite("Servicios del núcleo")
struct ServiciosDelNucleoTests {
    @Test func pararLaVigilanciaAMitadDevuelveSusArriendos() async throws {
        let receptor = try ReceptorHTTP(
            porDefecto: ReceptorHTTP.Respuesta(codigo: 200, retenida: true))
        defer { receptor.cerrar() }
        let queue = try Almacen.enMemoria()
        let nucleo = Nucleo(tienda: TiendaSQLite(queue), entorno: [:])
        _ = try nucleo.permitirAvisos(true)
        _ = try nucleo.anadirCanal(
            .webhook, nombre: "gancho", ajustes: AjustesDeCanal(url: receptor.url))
        let (senales, entrada) = AsyncStream<Int32>.makeStream()
        var grupo = GrupoDeServicios(senales: senales, terminan: [SIGTERM])
        let reparto = try VigilanciaDeAvisos(
            Reparto(nucleo) { _ in }, configuracion: Despachador.Configuracion())
        grupo.añadir(reparto)
        let grupoListo = grupo
        let corriendo = Task { try await grupoListo.run() }
        let aviso = try nucleo.tienda.buzon.encolarPrueba(canal: "gancho", ahora: nucleo.ahora())
        #expect(await receptor.esperar(1))
        let arrendadas = "SELECT count(*) FROM entrega WHERE arrendatario IS NOT NULL"
        #expect(try queue.read { try $0.scalarInt(arrendadas) } == 1)
        entrada.yield(SIGTERM)
        #expect(try await corriendo.value == SIGTERM)
        #expect(try queue.read { try $0.scalarInt(arrendadas) } == 0)
        #expect(try nucleo.tienda.buzon.entregas(aviso: aviso).map(\.estado) == [.pendiente])
    }
}
