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

    /// Rows as a store sums them (one per stored spelling): folded per player, and cut after
    /// the first `limite` with whoever has as many goals as the last.
    @Test func losGoleadoresSeFundenYSeCortanSinPartirUnEmpate() {
        let filas = [
            Goleadores.Fila(jugador: "Kane", equipo: "England", goles: 2, penaltis: 1),
            Goleadores.Fila(jugador: "Harry Kane", equipo: "England", goles: 4, penaltis: 2),
            Goleadores.Fila(jugador: "Lukaku", equipo: "Belgium", goles: 4),
            Goleadores.Fila(
                jugador: "Cristiano Ronaldo", equipo: "Portugal", goles: 4, penaltis: 1),
            Goleadores.Fila(jugador: "Denis Cheryshev", equipo: "Russia", goles: 4),
            Goleadores.Fila(jugador: "Yerry Mina", equipo: "Colombia", goles: 3),
        ]
        let todas = Goleadores.fundir(filas)
        #expect(
            todas.first
                == Goleadores.Fila(jugador: "Harry Kane", equipo: "England", goles: 6, penaltis: 3))
        #expect(
            todas.map(\.jugador) == [
                "Harry Kane", "Denis Cheryshev", "Lukaku", "Cristiano Ronaldo", "Yerry Mina",
            ])
        #expect(Goleadores.fundir(filas, primeros: 2) == Array(todas.prefix(4)))
        #expect(Goleadores.fundir(filas, primeros: 5) == todas)
        #expect(Goleadores.fundir(filas, primeros: 50) == todas)
        #expect(Goleadores.fundir([], primeros: 3).isEmpty)
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

/// The tie-breaks of import.md, the last five and the home and away tables.
@Suite("Clasificación: desempates, forma y campo")
struct ClasificacionTests {
    func r(_ local: String, _ visitante: String, _ a: Int, _ b: Int) -> Clasificacion.Resultado {
        Clasificacion.Resultado(
            local: local, visitante: visitante, marcador: Marcador(local: a, visitante: b))
    }

    /// A and B level on 7 points; B has the better goal difference (+5 to +1), A beat B and
    /// drew the return match. By default the difference decides; with `enfrentamientos` the
    /// matches between them do.
    var empatadosAPuntos: [Clasificacion.Resultado] {
        [
            r("A", "B", 1, 0), r("B", "A", 0, 0), r("A", "C", 1, 0), r("C", "A", 1, 0),
            r("B", "C", 5, 0), r("C", "B", 0, 1),
        ]
    }

    @Test func porDefectoLaDiferenciaDeGolesVaAntesQueElEnfrentamiento() {
        let filas = Clasificacion.calcular(empatadosAPuntos)
        #expect(filas.map(\.equipo) == ["B", "A", "C"])
        #expect(filas.map(\.puntos) == [7, 7, 3])
        #expect(filas.map(\.diferencia) == [5, 1, -6])
    }

    @Test func conEnfrentamientosElDirectoVaPrimero() {
        let filas = Clasificacion.calcular(empatadosAPuntos, desempate: .enfrentamientos)
        #expect(filas.map(\.equipo) == ["A", "B", "C"])
        #expect(filas.map(\.puntos) == [7, 7, 3])
    }

    /// Level on points, difference and goals for: the head-to-head points decide, even by
    /// default, before the name.
    @Test func todoIgualDecideElEnfrentamientoYLuegoElNombre() {
        let filas = Clasificacion.calcular([
            r("Zeta", "Alfa", 2, 1), r("Alfa", "Otro", 2, 0), r("Zeta", "Otro", 1, 1),
            r("Otro", "Alfa", 0, 0),
        ])
        let zeta = filas.first { $0.equipo == "Zeta" }!
        let alfa = filas.first { $0.equipo == "Alfa" }!
        #expect(zeta.puntos == alfa.puntos && zeta.diferencia == alfa.diferencia)
        #expect(zeta.aFavor == alfa.aFavor)
        #expect(filas.map(\.equipo).prefix(2) == ["Zeta", "Alfa"])
        let sinEnfrentamiento = Clasificacion.calcular([
            r("Zeta", "Otro", 1, 0), r("Alfa", "Otro", 1, 0),
        ])
        #expect(sinEnfrentamiento.map(\.equipo) == ["Alfa", "Zeta", "Otro"])
    }

    @Test func losUltimosCincoVanDelMasAntiguoAlMasReciente() {
        let resultados = [
            r("A", "B", 1, 0), r("C", "A", 2, 2), r("A", "D", 0, 3), r("E", "A", 0, 1),
            r("A", "F", 1, 0), r("G", "A", 1, 0),
        ]
        let a = Clasificacion.calcular(resultados).first { $0.equipo == "A" }!
        #expect(a.forma == [.ganado, .empatado, .perdido, .ganado, .ganado, .perdido])
        #expect(a.ultimos == "EPGGP")
        #expect(Clasificacion.calcular(resultados).first { $0.equipo == "B" }!.ultimos == "P")
    }

    @Test func lasTablasDeCasaYDeFuera() {
        let resultados = [r("A", "B", 3, 0), r("B", "A", 2, 1), r("C", "A", 0, 0)]
        let enCasa = Clasificacion.calcular(resultados, campo: .local)
        #expect(enCasa.first { $0.equipo == "A" }?.jugados == 1)
        #expect(enCasa.first { $0.equipo == "A" }?.puntos == 3)
        #expect(enCasa.first { $0.equipo == "C" }?.jugados == 1)
        #expect(enCasa.count == 3)
        let fuera = Clasificacion.calcular(resultados, campo: .visitante)
        #expect(fuera.first { $0.equipo == "A" }?.jugados == 2)
        #expect(fuera.first { $0.equipo == "A" }?.puntos == 1)
        #expect(fuera.first { $0.equipo == "C" }?.jugados == 0)
    }
}
