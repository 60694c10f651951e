import Testing

@testable import Torneo

@Suite("Marcador")
struct MarcadorTests {
    let partido = Ejemplo.rayoContraToros

    func gol(_ lado: Lado, propia: Bool = false) -> EventoDePartido {
        let jugador = Jugador("X", de: partido.equipo(propia ? lado.contrario : lado))
        return .gol(
            Gol(minuto: MinutoDeJuego(1), jugador: jugador, lado: lado, enPropiaPuerta: propia))
    }

    @Test func golDelLocalSumaAlLocal() {
        #expect(
            Marcador.cero.despuesDe(gol(.local), en: partido) == Marcador(local: 1, visitante: 0))
    }

    @Test func golDelVisitanteSumaAlVisitante() {
        #expect(
            Marcador(local: 2, visitante: 1).despuesDe(gol(.visitante), en: partido)
                == Marcador(local: 2, visitante: 2))
    }

    /// An own goal by a Toros player counts for Rayo FC, the side credited.
    @Test func golEnPropiaPuertaSumaAlEquipoAcreditado() {
        let evento = gol(.local, propia: true)
        guard case .gol(let detalle) = evento else {
            Issue.record("el evento debería ser un gol")
            return
        }
        #expect(detalle.jugador.equipo == partido.visitante)
        #expect(Marcador.cero.despuesDe(evento, en: partido) == Marcador(local: 1, visitante: 0))
    }

    func marcadorFinal(duracion: Int) -> Marcador {
        partido.eventos(hasta: duracion).reduce(Marcador.cero) { $0.despuesDe($1, en: partido) }
    }

    @Test func elEjemploAcabaDosAUnoEnNoventaMinutos() {
        #expect(marcadorFinal(duracion: 90) == Marcador(local: 2, visitante: 1))
        #expect(marcadorFinal(duracion: 90).description == "2-1")
    }

    @Test func elEjemploAcabaUnoAUnoEnSesentaMinutos() {
        #expect(marcadorFinal(duracion: 60) == Marcador(local: 1, visitante: 1))
    }

    @Test func sumaDeMarcadores() {
        #expect(
            Marcador(local: 1, visitante: 0) + Marcador(local: 0, visitante: 2)
                == Marcador(local: 1, visitante: 2))
    }
}
