import Almacen
import AlmacenSQL
import ApoyoDePruebas
import Persistencia
import Synchronization
import Testing
import Torneo

/// architecture.md, the store's commit signal on SQLite: this process's commits are told to its
/// observers as they commit — exactly those that wrote the channel's table, and never a
/// transaction rolled back — and another connection's commits reach a watcher through the
/// `-wal`. No clocks: a count of calls, or a wait for one with a deadline.
@Suite("Escucha de la tienda · SQLite")
struct EscuchaDeLaTiendaTests {
    /// Counts the calls an observer gets.
    final class Contador: Sendable {
        private let cuenta = Mutex(0)
        var valor: Int { cuenta.withLock { $0 } }
        func sumar() { cuenta.withLock { $0 += 1 } }
    }

    struct Roto: Error {}

    @Test func esteProcesoOyeSoloLosCommitsQueEscribenSuTabla() throws {
        let queue = try Almacen.enMemoria()
        let buzon = BuzonSQLite(queue)
        #expect(
            try queue.read { try $0.scalarInt("SELECT count(*) FROM canal WHERE activo = 1") } ?? 0
                > 0)
        let entregas = Contador()
        let cambios = Contador()
        let escucha = queue.escucharEsteProceso(.entregas) { _ in entregas.sumar() }
        let otra = queue.escucharEsteProceso(.cambios) { _ in cambios.sumar() }
        _ = try buzon.encolarPrueba(canal: nil, ahora: 1)
        #expect(entregas.valor == 1)
        #expect(cambios.valor == 0)
        // A commit of other tables only, and a read: nothing.
        try queue.write { try $0.execute("INSERT INTO registro (linea) VALUES ('una línea')") }
        // A statement that could write the table but changed no row (a claim that found
        // nothing): nothing, or a dispatcher would wake itself for ever.
        try queue.write {
            try $0.execute("UPDATE entrega SET intentos = intentos + 1 WHERE aviso_id = -1")
        }
        _ = try queue.read { try $0.scalarInt("SELECT count(*) FROM entrega") }
        #expect(entregas.valor == 1)
        // Rolled back: its rows never were; nothing is told, not even with the next commit.
        #expect(throws: Roto.self) {
            try queue.write { db in
                try db.execute("UPDATE entrega SET intentos = intentos")
                throw Roto()
            }
        }
        try queue.write { try $0.execute("INSERT INTO registro (linea) VALUES ('otra')") }
        #expect(entregas.valor == 1)
        #expect(cambios.valor == 0)
        // Stopped, it hears no more.
        escucha?.parar()
        _ = try buzon.encolarPrueba(canal: nil, ahora: 2)
        #expect(entregas.valor == 1)
        otra?.parar()
    }

    @Test func otraConexionSeOyePorElDiario() async throws {
        let carpeta = CarpetaTemporal()
        let ruta = carpeta.fichero("escucha.sqlite3")
        let oyente = try Almacen.abrir(ruta: ruta)
        let otra = try Almacen.abrir(ruta: ruta)
        let oidas = Contador()
        let escucha = oyente.escuchar(.entregas) { _ in oidas.sumar() }
        defer { escucha?.parar() }
        let soloPropias = Contador()
        let propia = oyente.escucharEsteProceso(.entregas) { _ in soloPropias.sumar() }
        defer { propia?.parar() }
        _ = try BuzonSQLite(otra).encolarPrueba(canal: nil, ahora: 1)
        #expect(await sondearQue(limite: .seconds(20)) { oidas.valor > 0 })
        #expect(soloPropias.valor == 0)
    }
}
