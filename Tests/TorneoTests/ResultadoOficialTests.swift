import Testing

@testable import Torneo

/// «Resultado oficial» only for a match that is over (issue 42): while its feed says it is
/// being played, a followed match has a score, not a result.
@Suite("Resultado oficial")
struct ResultadoOficialTests {
    func resumen(_ directo: EstadoEnDirecto?) -> ResumenDePartido {
        var resumen = ResumenDePartido(
            id: 1, local: "Argentina", visitante: "France", competicion: nil, fecha: nil,
            hora: nil, oficial: ResultadoOficial(final: Marcador(local: 2, visitante: 0)),
            estado: .sinEmpezar, minuto: 0, goles: .cero, golesAMano: .cero, duracion: 90)
        resumen.directo = directo
        return resumen
    }

    @Test func soloCuandoElPartidoHaAcabado() {
        #expect(resumen(nil).resultadoOficial?.final == Marcador(local: 2, visitante: 0))
        #expect(resumen(.terminado).resultadoOficial != nil)
        #expect(resumen(.enJuego).resultadoOficial == nil)
        #expect(resumen(.descanso).resultadoOficial == nil)
        #expect(resumen(.enJuego).oficial != nil, "the score itself is kept")
    }
}
