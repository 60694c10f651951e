import Foundation
import Testing

@testable import Almacen

@Suite("RegistroSQLite")
struct RegistroSQLiteTests {
    @Test func guardaLasLineasEnOrdenConSuMomentoYPartido() throws {
        let registro = RegistroSQLite(try Almacen.enMemoria(), eco: false)
        registro.anotar("primera", partido: 1)
        registro.anotar("segunda")
        registro.anotar("tercera", partido: 2)
        let todas = try registro.lineas()
        #expect(todas.map(\.linea) == ["primera", "segunda", "tercera"])
        #expect(todas.allSatisfy { $0.momento.hasSuffix("Z") && $0.momento.count == 24 })
        #expect(try registro.lineas(partido: 2).map(\.linea) == ["tercera"])
        #expect(try registro.lineas(limite: 2).map(\.linea) == ["segunda", "tercera"])
    }
}

@Suite("Retención")
struct RetencionTests {
    /// The log keeps its last `registro-lineas` lines and its last `registro-dias` days.
    @Test func elRegistroGuardaSoloLoQueSeLePide() throws {
        let queue = try Almacen.enMemoria()
        let repositorio = PartidosSQLite(queue)
        var ajustes = try repositorio.ajustes()
        ajustes.lineasDeRegistro = 100
        ajustes.diasDeRegistro = 30
        try repositorio.guardar(ajustes)
        let registro = RegistroSQLite(queue, eco: false)
        registro.anotar(lineas: (1...150).map { ("línea \($0)", nil) })
        try queue.write { db in
            try db.execute(
                "INSERT INTO registro (momento, linea) VALUES ('2020-01-01T00:00:00.000Z', 'vieja')"
            )
        }
        let poda = try MantenimientoSQLite(queue).podar(ahora: 1_893_456_000)  // 2030
        #expect(poda.lineasDeRegistro == 151)
        #expect(try registro.lineas().isEmpty)  // all older than 30 days in 2030
        registro.anotar(lineas: (1...150).map { ("nueva \($0)", nil) })
        try MantenimientoSQLite(queue).podar(ahora: segundosUnixDePrueba())
        let quedan = try registro.lineas()
        #expect(quedan.count == 100)
        #expect(quedan.first?.linea == "nueva 51")
        #expect(quedan.last?.linea == "nueva 150")
    }

    /// A settled notice is pruned after its time-to-live plus a margin; its deliveries still
    /// count in the totals. Dead letters stay; a pending delivery nobody took within the
    /// time-to-live expires (delivery.md: never pending forever) and is then pruned too.
    @Test func losAvisosEntregadosSePodanYSiguenContando() throws {
        let queue = try Almacen.enMemoria()
        try queue.write { db in
            try db.executeScript(
                """
                INSERT INTO ejecucion (id, partido_id, codigo, duracion, estado) VALUES (1, 1, 'a', 90, 'terminado');
                INSERT INTO aviso (id, ejecucion_id, partido_id, identificador, titulo, cuerpo, minuto,
                    jugador, equipo, marcador_local, marcador_visitante, creado) VALUES
                    (1, 1, 1, 'gol-1-A', 't', 'c', 1, 'A', 'R', 1, 0, 1000),
                    (2, 1, 1, 'gol-2-A', 't', 'c', 2, 'A', 'R', 2, 0, 1000),
                    (3, 1, 1, 'gol-3-A', 't', 'c', 3, 'A', 'R', 3, 0, 1000),
                    (4, 1, 1, 'gol-4-A', 't', 'c', 4, 'A', 'R', 4, 0, 9000);
                INSERT INTO entrega (aviso_id, canal, ejecucion_id, estado, proximo_intento) VALUES
                    (1, 'registro', 1, 'entregada', 0), (1, 'w', 1, 'caducada', 0),
                    (2, 'registro', 1, 'fallida', 0), (3, 'registro', 1, 'pendiente', 0),
                    (4, 'registro', 1, 'entregada', 0);
                """)
        }
        let buzon = BuzonSQLite(queue)
        let antes = try buzon.recuento()
        let poda = try MantenimientoSQLite(queue).podar(
            ahora: 10_000, caducidad: 600, margen: 3_600)
        #expect(poda.caducadas == 1)
        #expect(poda.avisos == 2)
        var esperado = antes
        esperado[.pendiente, default: 0] -= 1
        esperado[.caducada, default: 0] += 1
        #expect(try buzon.recuento() == esperado)
        #expect(try queue.read { try $0.scalarInt("SELECT count(*) FROM aviso") } == 2)
        #expect(
            try queue.read {
                try $0.scalarInt("SELECT count(*) FROM entrega WHERE estado = 'pendiente'")
            } == 0)
    }
}

func segundosUnixDePrueba() -> Double { Date().timeIntervalSince1970 }
