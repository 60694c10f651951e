import Testing

@testable import Torneo

@Suite("AvisoDeGol")
struct AvisoDeGolTests {
    let rayo = Equipo("Rayo FC")
    let toros = Equipo("Toros")
    var partido: Partido { Partido(id: 1, local: rayo, visitante: toros, eventos: []) }

    @Test func cuerpoEIdentificadorComoEnLaLeccion() {
        let gol = Gol(minuto: MinutoDeJuego(35), jugador: Jugador("Luis", de: rayo), lado: .local)
        let aviso = AvisoDeGol(gol: gol, en: partido, marcador: Marcador(local: 2, visitante: 1))
        #expect(aviso.titulo == "¡Gol!")
        #expect(aviso.cuerpo == "Luis (Rayo FC), minuto 35")
        #expect(aviso.identificador == "gol-35-Luis")
        #expect(aviso.equipo == "Rayo FC")
    }

    @Test func tiempoAnadidoEnCuerpoEIdentificador() {
        let gol = Gol(
            minuto: MinutoDeJuego(90, anadido: 3), jugador: Jugador("Cheryshev", de: rayo),
            lado: .local)
        let aviso = AvisoDeGol(gol: gol, en: partido, marcador: .cero)
        #expect(aviso.cuerpo == "Cheryshev (Rayo FC), minuto 90+3")
        #expect(aviso.identificador == "gol-90+3-Cheryshev")
    }

    @Test func enPropiaPuertaNombraAlEquipoDelJugador() {
        let gol = Gol(
            minuto: MinutoDeJuego(11), jugador: Jugador("Marcelo", de: Equipo("Brasil")),
            lado: .visitante,
            enPropiaPuerta: true)
        let aviso = AvisoDeGol(gol: gol, en: partido, marcador: .cero)
        #expect(aviso.cuerpo == "Marcelo (Brasil, en propia puerta), minuto 11")
    }

    @Test func penaltiMarcadoEnElCuerpo() {
        let gol = Gol(
            minuto: MinutoDeJuego(73), jugador: Jugador("Salah", de: toros), lado: .visitante,
            penalti: true)
        let aviso = AvisoDeGol(gol: gol, en: partido, marcador: .cero)
        #expect(aviso.cuerpo == "Salah (Toros, de penalti), minuto 73")
    }

    @Test func dosGolesDelMismoMinutoNoChocan() {
        let a = AvisoDeGol(
            gol: Gol(minuto: MinutoDeJuego(10), jugador: Jugador("Ana", de: rayo), lado: .local),
            en: partido,
            marcador: .cero)
        let b = AvisoDeGol(
            gol: Gol(
                minuto: MinutoDeJuego(10), jugador: Jugador("Iván", de: toros), lado: .visitante),
            en: partido, marcador: .cero)
        #expect(a.identificador != b.identificador)
    }

    /// Two goals by one player in one minute are two notices: the second is `-2` (safety.md).
    @Test func dosGolesDelMismoJugadorEnUnMinutoSonDosAvisos() {
        let francia = Equipo("France")
        let mbappe = Jugador("Mbappé", de: francia)
        let partido = Partido(id: 9, local: francia, visitante: Equipo("Argentina"), eventos: [])
        let primero = Gol(minuto: MinutoDeJuego(80), jugador: mbappe, lado: .local)
        let avisos = AvisoDeGol.avisos(
            de: [
                (primero, Marcador(local: 1, visitante: 2)),
                (primero, Marcador(local: 2, visitante: 2)),
                (
                    Gol(minuto: MinutoDeJuego(80, anadido: 1), jugador: mbappe, lado: .local),
                    Marcador(local: 3, visitante: 2)
                ),
            ], en: partido)
        #expect(
            avisos.map(\.identificador) == ["gol-80-Mbappé", "gol-80-Mbappé-2", "gol-80+1-Mbappé"])
        #expect(
            avisos.map(\.cuerpo) == [
                "Mbappé (France), minuto 80", "Mbappé (France), minuto 80",
                "Mbappé (France), minuto 80+1",
            ])
    }
}
