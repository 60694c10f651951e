import Almacen
import Aplicacion
import ApoyoDePruebas
import Persistencia
import Synchronization
import Testing
import Torneo

/// A core over a fresh in-memory store with the seed, on a clock the test moves.
func nucleoEnMemoria(reloj: RelojManual = RelojManual()) throws -> Nucleo {
    Nucleo(tienda: TiendaSQLite(try Almacen.enMemoria()), entorno: [:], reloj: Reloj(reloj))
}

/// Records every log line in order.
final class RegistroEspia: Registro {
    private let guardadas = Mutex<[String]>([])
    var lineas: [String] { guardadas.withLock { $0 } }
    func anotar(_ linea: String, partido: Int?) { guardadas.withLock { $0.append(linea) } }
}

/// Lets the main actor run until `condicion` holds; if it never does, the test records an
/// issue instead of going on as if it had.
@MainActor
func esperarHasta(
    _ condicion: () throws -> Bool, sourceLocation: SourceLocation = #_sourceLocation
) async rethrows {
    for _ in 0..<100_000 {
        if try condicion() { return }
        await Task.yield()
    }
    Issue.record("la condición no se cumplió tras 100.000 turnos", sourceLocation: sourceLocation)
}

/// A store as it is, but for the parts a test puts in its place: its outbox, its clock.
struct TiendaCambiada: Tienda {
    let base: any Tienda
    var buzonPropio: (any Buzon)?
    var reloj: (@Sendable () -> Double)?

    init(
        base: any Tienda, buzon: (any Buzon)? = nil, ahora: (@Sendable () -> Double)? = nil
    ) {
        self.base = base
        buzonPropio = buzon
        reloj = ahora
    }

    var descripcion: String { base.descripcion }
    func ahora() -> Double { reloj?() ?? base.ahora() }
    func ficheroDeSemilla(_ nombre: String) -> [UInt8]? { nil }
    func reiniciarDatos() throws -> (antes: Int, despues: Int) { try base.reiniciarDatos() }
    var partidos: any PartidosRepositorio { base.partidos }
    var ejecuciones: any Ejecuciones { base.ejecuciones }
    var buzon: any Buzon { buzonPropio ?? base.buzon }
    var difusiones: any Difusiones { base.difusiones }
    var cambios: any Cambios { base.cambios }
    var mantenimiento: any Mantenimiento { base.mantenimiento }
    var importacion: any Importacion { base.importacion }
    var fuentes: any Fuentes { base.fuentes }
    func registro(eco: Bool) -> any Registro { base.registro(eco: false) }
    func lineasDelRegistro(partido: Int?, limite: Int?) throws -> [LineaDeRegistro] {
        try base.lineasDelRegistro(partido: partido, limite: limite)
    }
    func escuchar(
        _ canal: CanalDeNotificacion, _ alLlegar: @escaping @Sendable (String) -> Void
    ) -> (any Escucha)? { nil }
}
