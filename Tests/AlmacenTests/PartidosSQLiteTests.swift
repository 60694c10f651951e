import AlmacenSQL
import Testing
import Torneo

@testable import Almacen

@Suite("PartidosSQLite")
struct PartidosSQLiteTests {
    let repositorio: PartidosSQLite

    init() throws {
        repositorio = PartidosSQLite(try Almacen.enMemoria())
    }

    func goles(_ partido: Partido) -> [Gol] {
        partido.eventos.compactMap { evento in
            if case .gol(let gol) = evento { gol } else { nil }
        }
    }

    @Test func lasSemillasSeLeenTalCual() throws {
        let partidos = try repositorio.partidos()
        #expect(partidos.map(\.id) == [1, 2, 3])
        let uno = try #require(try repositorio.partido(id: 1))
        #expect(uno.local == Equipo("Rayo FC"))
        #expect(uno.visitante == Equipo("Toros"))
        #expect(!uno.tieneProrroga)
        let golesDeUno = goles(uno)
        #expect(golesDeUno.map(\.minuto) == [10, 10, 35, 35, 60].map { MinutoDeJuego($0) })
        #expect(golesDeUno.map(\.jugador.nombre) == ["Ana", "Iván", "Luis", "Sofía", "Marta"])
        #expect(
            golesDeUno.map(\.jugador.equipo.nombre) == [
                "Rayo FC", "Toros", "Rayo FC", "Toros", "Rayo FC",
            ])
        #expect(golesDeUno.map(\.lado) == [.local, .visitante, .local, .visitante, .local])
    }

    @Test func tiempoAnadidoPenaltiYPropiaPuertaSeConservan() throws {
        let dos = try #require(try repositorio.partido(id: 2))
        #expect(dos.local.nombre == "Águilas CF")
        #expect(dos.visitante.nombre == "Cigüeñas FC")
        let golesDeDos = goles(dos)
        #expect(golesDeDos.map(\.minuto.description) == ["23", "45+2", "45+1", "67", "90+4"])
        #expect(golesDeDos.map(\.jugador.nombre) == ["Zoë", "Íñigo", "Chloé", "Björn", "João"])
        #expect(golesDeDos[1].penalti)
        #expect(golesDeDos[3].enPropiaPuerta)
        #expect(golesDeDos[3].lado == .local)
        #expect(golesDeDos[3].jugador.equipo.nombre == "Cigüeñas FC")
        // Its red card, read back as a card (not a goal: the score stays 3-2).
        #expect(
            dos.eventos.last
                == .roja(
                    TarjetaRoja(
                        minuto: MinutoDeJuego(78), jugador: "Björn", equipo: "Cigüeñas FC",
                        lado: .visitante, dobleAmarilla: true)))
        let final = dos.eventos(hasta: 90).reduce(Marcador.cero) { $0.despuesDe($1, en: dos) }
        #expect(final == Marcador(local: 3, visitante: 2))
        let tres = try #require(try repositorio.partido(id: 3))
        #expect(tres.tieneProrroga)
        #expect(goles(tres).map(\.minuto.minuto) == [30, 88, 112])
    }

    @Test func unIdDesconocidoNoEsUnPartido() throws {
        #expect(try repositorio.partido(id: 99) == nil)
    }

    @Test func losAjustesPorDefectoYGuardados() throws {
        #expect(try repositorio.ajustes() == Ajustes())
        var ajustes = Ajustes()
        ajustes.duracion = 60
        ajustes.msPorMinuto = 0
        ajustes.sinAvisosEnPrimerPlano = true
        ajustes.avisosPermitidos = false
        try repositorio.guardar(ajustes)
        #expect(try repositorio.ajustes() == ajustes)
    }

    @Test func reiniciarLosDatosRestauraLasSemillasYConservaElRegistro() throws {
        let queue = repositorio.queue
        RegistroSQLite(queue, eco: false).anotar("una línea", partido: 1)
        try queue.write { db in try db.execute("DELETE FROM partido WHERE id = 3") }
        #expect(try repositorio.partidos().count == 2)
        try queue.read { db in try Semillas.cargar(en: db) }
        #expect(try repositorio.partidos().map(\.id) == [1, 2, 3])
        #expect(try RegistroSQLite(queue, eco: false).lineas().map(\.linea) == ["una línea"])
    }
}
