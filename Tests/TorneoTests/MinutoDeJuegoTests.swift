import Testing

@testable import Torneo

@Suite("MinutoDeJuego")
struct MinutoDeJuegoTests {
    @Test(arguments: [
        ("35", MinutoDeJuego(35)), ("90+3", MinutoDeJuego(90, anadido: 3)),
        ("120+1", MinutoDeJuego(120, anadido: 1)), (" 45+2 ", MinutoDeJuego(45, anadido: 2)),
    ])
    func leeMinutosValidos(texto: String, esperado: MinutoDeJuego) {
        #expect(MinutoDeJuego(texto: texto) == esperado)
    }

    @Test(arguments: ["abc", "-1", "", "90+", "+3", "90+-1", "1+2+3", "9 0"])
    func rechazaMinutosMalFormados(texto: String) {
        #expect(MinutoDeJuego(texto: texto) == nil)
    }

    @Test func seEscribeComoEnElFutbol() {
        #expect(MinutoDeJuego(90, anadido: 3).description == "90+3")
        #expect(MinutoDeJuego(35).description == "35")
    }

    @Test func elTiempoAnadidoVaDespuesDelMinutoYAntesDelSiguiente() {
        #expect(MinutoDeJuego(45) < MinutoDeJuego(45, anadido: 1))
        #expect(MinutoDeJuego(45, anadido: 1) < MinutoDeJuego(45, anadido: 2))
        #expect(MinutoDeJuego(45, anadido: 9) < MinutoDeJuego(46))
    }

    /// Goals of 45+N are played at minute 45, ordered by offset whatever the script order.
    @Test func losEventosSeJueganPorMinutoYAnadido() {
        let a = Equipo("A")
        let b = Equipo("B")
        func gol(_ minuto: Int, _ anadido: Int, _ nombre: String) -> EventoDePartido {
            .gol(
                Gol(
                    minuto: MinutoDeJuego(minuto, anadido: anadido),
                    jugador: Jugador(nombre, de: a), lado: .local))
        }
        let partido = Partido(
            id: 9, local: a, visitante: b,
            eventos: [
                gol(90, 4, "d"), gol(45, 2, "b"), gol(45, 1, "a"), gol(60, 0, "c"), gol(91, 0, "e"),
            ])
        let nombres = partido.eventos(hasta: 90).map { evento -> String in
            guard case .gol(let g) = evento else { return "" }
            return g.jugador.nombre
        }
        #expect(nombres == ["a", "b", "c", "d"])
    }
}
