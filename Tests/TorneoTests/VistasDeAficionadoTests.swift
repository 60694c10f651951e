import Testing

@testable import Torneo

@Suite("Vistas de aficionado")
struct VistasDeAficionadoTests {
    @Test func laTablaOrdenaPorPuntosDiferenciaGolesYNombre() {
        let filas = Clasificacion.calcular([
            ("Uruguay", "Egipto", Marcador(local: 1, visitante: 0)),
            ("Rusia", "Arabia", Marcador(local: 5, visitante: 0)),
            ("Rusia", "Egipto", Marcador(local: 3, visitante: 1)),
            ("Uruguay", "Arabia", Marcador(local: 1, visitante: 0)),
            ("Uruguay", "Rusia", Marcador(local: 3, visitante: 0)),
            ("Arabia", "Egipto", Marcador(local: 2, visitante: 1)),
        ])
        #expect(filas.map(\.equipo) == ["Uruguay", "Rusia", "Arabia", "Egipto"])
        #expect(filas.map(\.puntos) == [9, 6, 3, 0])
        #expect(
            filas[1].aFavor == 8 && filas[1].enContra == 4 && filas[1].diferenciaConSigno == "+4")
        #expect(filas[3].diferenciaConSigno == "-4")
        // Equal points and difference: more goals for first; then the name, without accents.
        let empatados = Clasificacion.calcular(
            [
                ("Óscar", "Beta", Marcador(local: 2, visitante: 2)),
                ("Alfa", "Zeta", Marcador(local: 1, visitante: 1)),
            ], equipos: ["Nadie"])
        #expect(empatados.map(\.equipo) == ["Beta", "Óscar", "Alfa", "Zeta", "Nadie"])
    }

    @Test func losGoleadoresNoCuentanLasPropiasPuertas() {
        let a = Equipo("A")
        let b = Equipo("B")
        let partido = Partido(
            id: 1, local: a, visitante: b,
            eventos: [
                .gol(Gol(minuto: MinutoDeJuego(1), jugador: Jugador("Uno", de: a), lado: .local)),
                .gol(
                    Gol(
                        minuto: MinutoDeJuego(2), jugador: Jugador("Uno", de: a), lado: .local,
                        penalti: true)),
                .gol(
                    Gol(
                        minuto: MinutoDeJuego(3), jugador: Jugador("Dos", de: b), lado: .local,
                        enPropiaPuerta: true)),
                .gol(
                    Gol(minuto: MinutoDeJuego(4), jugador: Jugador("Dos", de: b), lado: .visitante)),
            ])
        let filas = Goleadores.contar([partido])
        #expect(
            filas == [
                Goleadores.Fila(jugador: "Uno", equipo: "A", goles: 2, penaltis: 1),
                Goleadores.Fila(jugador: "Dos", equipo: "B", goles: 1, penaltis: 0),
            ])
    }

    @Test func elResultadoOficialSeLeeComoEnLaPrensa() {
        #expect(
            ResultadoOficial(
                final: Marcador(local: 2, visitante: 2), prorroga: Marcador(local: 3, visitante: 3),
                penaltis: Marcador(local: 4, visitante: 2)
            ).texto == "3-3 tras la prórroga, 4-2 en los penaltis")
        #expect(ResultadoOficial(final: Marcador(local: 2, visitante: 1)).texto == "2-1")
        #expect(
            ResultadoOficial(
                final: Marcador(local: 1, visitante: 1), penaltis: Marcador(local: 5, visitante: 4)
            ).texto == "1-1, 5-4 en los penaltis")
        let ficha = FichaDePartido(
            partido: Ejemplo.rayoContraToros,
            oficial: ResultadoOficial(
                final: Marcador(local: 1, visitante: 1), prorroga: Marcador(local: 2, visitante: 1)),
            ultimoJugado: Marcador(local: 0, visitante: 5))
        #expect(ficha.resultado == Marcador(local: 2, visitante: 1))
    }

    @Test func losNombresSeComparanSinMayusculasAcentosNiSignos() {
        #expect(ClaveDeNombre.de("Côte d'Ivoire") == ClaveDeNombre.de("cote d ivoire"))
        #expect(ClaveDeNombre.de("CURAÇAO") == "curacao")
        #expect(ClaveDeNombre.de("Mandžukić") == "mandzukic")
        #expect(ClaveDeNombre.de("World Cup 2018") == ClaveDeNombre.de("WORLD-CUP  2018"))
        // Decomposed accents (NFD) too.
        #expect(ClaveDeNombre.de("Cigu\u{0308}en\u{0303}as") == "ciguenas")
        #expect(ClaveDeNombre.de("Ørsted Straße Łódź") == "orsted strasse lodz")
        #expect(
            ClaveDeNombre.parecidos(a: "Brasill", entre: ["Brazil", "Brasil", "Chile"]).first
                == "Brasil")
    }

    /// Plain ASCII names take a short path; an accented letter anywhere takes the general one.
    /// Both must give the same key, so every ASCII name is compared with itself plus «é».
    @Test func laClaveDeUnNombreASCIIEsLaMismaPorAmbosCaminos() {
        let ascii = (0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) }
        let nombres =
            ascii + ["  Real  Madrid--CF ", "A.B_C/d", "-inicio", "fin-", "0-9 Az", "", "  "]
        for nombre in nombres {
            #expect(ClaveDeNombre.de(nombre + " é") == ClaveDeNombre.de(nombre + " e"), "\(nombre)")
            let general = ClaveDeNombre.de(nombre + "é")
            let corta = ClaveDeNombre.de(nombre)
            #expect(
                general == corta
                    + (corta.isEmpty || nombre.last?.isLetter == true
                        || nombre.last?.isNumber == true ? "e" : " e"),
                "\(nombre)")
        }
    }

    @Test func unCanalConFiltrosSoloDejaPasarLoQueSigue() {
        let todos = FiltrosDeCanal()
        #expect(todos.dejanPasar(partido: 1, equipo: "A", competicion: nil))
        #expect(todos.dejanPasar(partido: 0, equipo: nil, competicion: nil))
        let toros = FiltrosDeCanal(equipos: ["Toros"])
        #expect(toros.dejanPasar(partido: 1, equipo: "TOROS", competicion: nil))
        #expect(!toros.dejanPasar(partido: 1, equipo: "Rayo FC", competicion: nil))
        let varios = FiltrosDeCanal(competiciones: ["World Cup 2018"], partidos: [3])
        #expect(varios.dejanPasar(partido: 3, equipo: "X", competicion: nil))
        #expect(varios.dejanPasar(partido: 9, equipo: "X", competicion: "world cup 2018"))
        #expect(!varios.dejanPasar(partido: 9, equipo: "X", competicion: "Copa"))
        #expect(varios.sumando(toros).quitando(varios) == toros)
        #expect(toros.descripcion == "equipos: Toros")
        #expect(todos.descripcion == "todo")
    }
}
