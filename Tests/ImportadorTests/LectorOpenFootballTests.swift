import ApoyoDePruebas
import Testing
import Torneo

@testable import Importador

@Suite("LectorOpenFootball")
struct LectorOpenFootballTests {
    func leer(_ texto: String) throws -> Competicion {
        try LectorOpenFootball.leer(Array(texto.utf8), nombrePorDefecto: "prueba")
    }

    func fallo(_ texto: String) -> String? {
        do {
            _ = try leer(texto)
            return nil
        } catch {
            return (error as? FalloDeImportacion)?.mensaje
        }
    }

    @Test func mundial2018() throws {
        let competicion = try LectorOpenFootball.leer(
            try Datos.bytes("worldcup-2018.json"), nombrePorDefecto: "x")
        #expect(competicion.nombre == "World Cup 2018")
        #expect(competicion.partidos.count == 64)
        #expect(competicion.goles == 169)
        // France–Denmark 0-0 has no lists: a goalless match needs none, its script is empty.
        #expect(competicion.partidos.filter { $0.goles == nil }.count == 0)
        #expect(competicion.partidos.filter { $0.goles == [] }.count == 1)
        #expect(competicion.partidos.filter(\.tieneProrroga).count == 5)
    }

    @Test func mundial2026() throws {
        let competicion = try LectorOpenFootball.leer(
            try Datos.bytes("worldcup-2026.json"), nombrePorDefecto: "x")
        #expect(competicion.partidos.count == 104)
        #expect(competicion.goles == 308)
        let inglaterra = try #require(
            competicion.partidos.first { $0.local == "England" && $0.visitante == "Argentina" })
        #expect(!inglaterra.tieneProrroga)
        #expect(inglaterra.goles?.contains { $0.minuto == MinutoDeJuego(90, anadido: 2) } == true)
        #expect(inglaterra.avisos.count == 1)
        #expect(inglaterra.avisos[0].contains("minuto 92 se lee como 90+2"))
        let conProrroga = try #require(
            competicion.partidos.first { $0.local == "Belgium" && $0.visitante == "Senegal" })
        #expect(conProrroga.goles?.last?.minuto == MinutoDeJuego(120, anadido: 5))
    }

    /// France–Croatia, the 2018 final: Mandžukić's own goal counts for France, and he is named
    /// as Croatia's player.
    @Test func laPropiaPuertaDeMandzukic() throws {
        let competicion = try LectorOpenFootball.leer(
            try Datos.bytes("worldcup-2018.json"), nombrePorDefecto: "x")
        let final = try #require(
            competicion.partidos.first { $0.local == "France" && $0.visitante == "Croatia" })
        #expect(final.finalDelPartido == Marcador(local: 4, visitante: 2))
        let propia = try #require(final.goles?.first { $0.enPropiaPuerta })
        #expect(propia.jugador.nombre == "Mandžukić")
        #expect(propia.jugador.equipo.nombre == "Croatia")
        #expect(propia.lado == .local)
        #expect(propia.minuto == MinutoDeJuego(18))
    }

    @Test func losPenaltisDeLaTandaNoSonGoles() throws {
        let competicion = try leer(
            """
            {"name": "Copa", "matches": [{"team1": "A", "team2": "B", "score": {"ft": [1, 1], "et": [1, 1], "p": [4, 3]},
              "goals1": [{"name": "Uno", "minute": 10}], "goals2": [{"name": "Dos", "minute": "90+1"}]}]}
            """)
        let partido = try #require(competicion.partidos.first)
        #expect(partido.goles?.count == 2)
        #expect(partido.penaltis == Marcador(local: 4, visitante: 3))
        #expect(partido.tieneProrroga)
        #expect(partido.resultadoEsperado == Marcador(local: 1, visitante: 1))
        #expect(partido.avisos.isEmpty)
    }

    @Test func unResultadoQueNoCuadraEsUnAvisoNoUnError() throws {
        let competicion = try leer(
            """
            {"matches": [{"team1": "A", "team2": "B", "score": {"ft": [2, 0]}, "goals1": [{"name": "Uno", "minute": 10}]}]}
            """)
        #expect(competicion.nombre == "prueba")
        #expect(
            competicion.partidos[0].avisos == [
                "partido 1 (A – B): los goles hasta el 90 suman 1-0 pero score.ft dice 2-0"
            ])
    }

    @Test func unGolPasadoElCienSinProrrogaHaceElPartidoDeCientoVeinte() throws {
        let competicion = try leer(
            """
            {"matches": [{"team1": {"name": "A"}, "team2": "B", "goals1": [{"name": "Tarde", "minute": 105}], "goals2": []}]}
            """)
        #expect(competicion.partidos[0].tieneProrroga)
        #expect(competicion.partidos[0].avisos.count == 1)
    }

    @Test func elOrdenDeJuegoEsPorMinutoYAnadido() throws {
        let competicion = try leer(
            """
            {"matches": [{"team1": "A", "team2": "B",
              "goals1": [{"name": "c", "minute": 45, "offset": 2}, {"name": "a", "minute": 12}],
              "goals2": [{"name": "b", "minute": "45+1"}, {"name": "d", "minute": 45, "offset": 2}]}]}
            """)
        #expect(competicion.partidos[0].goles?.map(\.jugador.nombre) == ["a", "b", "c", "d"])
    }

    @Test(arguments: [
        ("", "el fichero está vacío"),
        ("   \n", "el fichero está vacío"),
        ("esto no es json", "no es JSON válido (línea 1, columna 1)"),
        (
            "{\n  \"matches\": [\n    {\"team1\": \"Perú\" \"team2\": \"B\"}]}",
            "línea 3, columna 22"
        ),
        ("{\"matches\": [", "no es JSON válido (línea 1, columna 14)"),
        ("[1, 2]", "se esperaba un objeto con «matches» o «rounds»"),
        ("{\"name\": \"x\"}", "falta la lista «matches» (o «rounds»)"),
        ("{\"matches\": [], \"rounds\": []}", "tiene «matches» y «rounds» a la vez"),
        ("{\"rounds\": {}}", "«rounds» debe ser una lista"),
        ("{\"rounds\": [{\"name\": \"J1\"}]}", "rounds[0] (J1): falta su lista «matches»"),
        ("{\"rounds\": [7]}", "rounds[0] debe ser un objeto"),
        (
            "{\"matches\": [{\"team1\": \"A\", \"team2\": \"B\", \"date\": \"2024-02-30\"}]}",
            "partido 1 (A – B): date: «2024-02-30» no es una fecha del calendario (AAAA-MM-DD)"
        ),
        (
            "{\"matches\": [{\"team1\": \"A\", \"team2\": \"B\", \"time\": \"25:00\"}]}",
            "partido 1 (A – B): time: «25:00» no es una hora (como 18:00 o 18:00 UTC+3)"
        ),
        ("{\"matches\": {}}", "«matches» debe ser una lista"),
        ("{\"matches\": [{\"team2\": \"B\"}]}", "partido 1: team1: falta el equipo"),
        (
            "{\"matches\": [{\"team1\": 7, \"team2\": \"B\"}]}",
            "partido 1: team1: 7 no es un equipo"
        ),
        (
            "{\"matches\": [{\"team1\": \"A\", \"team2\": \"A\"}]}",
            "partido 1 (A – A): team2: es el mismo equipo"
        ),
        (
            "{\"matches\": [{\"team1\": \"A\", \"team2\": \"B\", \"goals1\": [{\"name\": \"x\", \"minute\": \"abc\"}]}]}",
            "partido 1 (A – B): goals1[0].minute: «abc» no es un minuto"
        ),
        (
            "{\"matches\": [{\"team1\": \"A\", \"team2\": \"B\", \"goals2\": [{\"name\": \"x\", \"minute\": -3}]}]}",
            "partido 1 (A – B): goals2[0].minute: -3 no es un minuto"
        ),
        (
            "{\"matches\": [{\"team1\": \"A\", \"team2\": \"B\", \"goals1\": [{\"minute\": 3}]}]}",
            "goals1[0].name: falta el nombre del jugador"
        ),
        (
            "{\"matches\": [{\"team1\": \"A\", \"team2\": \"B\", \"goals1\": [{\"name\": \"x\", \"minute\": 3, \"penalty\": \"yes\"}]}]}",
            "goals1[0].penalty: debe ser true o false"
        ),
        (
            "{\"matches\": [{\"team1\": \"A\", \"team2\": \"B\", \"score\": {\"ft\": [1]}}]}",
            "score.ft: una lista no es un resultado"
        ),
        (
            "{\"matches\": [{\"team1\": \"A\", \"team2\": \"B\", \"goals1\": \"muchos\"}]}",
            "goals1: debe ser una lista"
        ),
    ])
    func rechazaLoMalEscritoDiciendoDonde(texto: String, esperado: String) {
        let mensaje = fallo(texto)
        #expect(mensaje?.contains(esperado) == true, "\(mensaje ?? "sin error")")
    }

    @Test func elSegundoPartidoMalEscritoSeNombraConSusEquipos() {
        let mensaje = fallo(
            """
            {"matches": [{"team1": "A", "team2": "B"}, {"team1": "España", "team2": "Perú",
              "goals1": [{"name": "x", "minute": 200}]}]}
            """)
        #expect(
            mensaje
                == "partido 2 (España – Perú): goals1[0].minute: 200 no es un minuto (de 1 a 130)")
    }

    @Test func ruidoAleatorioNoRompeNada() {
        var azar = Azar(para: "ruido del lector")
        for _ in 0..<200 {
            let bytes = azar.bytes(Int.random(in: 0..<300, using: &azar))
            #expect(throws: FalloDeImportacion.self) {
                _ = try LectorOpenFootball.leer(bytes, nombrePorDefecto: "x")
            }
        }
    }

    // MARK: - safety.md: limits, control characters, duplicates, added time

    /// A JSON string literal for `texto` (control characters escaped as JSON does).
    func json(_ texto: String) -> String {
        var salida = "\""
        for escalar in texto.unicodeScalars {
            switch escalar {
            case "\"": salida += "\\\""
            case "\\": salida += "\\\\"
            case let c where c.value < 0x20 || (c.value >= 0x7F && c.value <= 0x9F):
                let hex = String(c.value, radix: 16)
                salida += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: salida.unicodeScalars.append(escalar)
            }
        }
        return salida + "\""
    }

    static let hostiles: [(String, String)] = [
        ("\u{1B}[2J", "\\x1B"), ("\u{1B}]0;retitulado\u{07}", "\\x1B"),
        ("\u{1B}]52;c;ZWNobyBob2xh\u{07}", "\\x1B"), ("campana\u{07}", "\\x07"),
        ("re\rtorno", "\\x0D"), ("línea\nfalsa", "\\x0A"), ("nulo\u{00}cortado", "\\x00"),
        ("csi\u{9B}31m", "\\u009B"), ("borrar\u{7F}", "\\x7F"),
    ]

    @Test(arguments: hostiles)
    func unNombreConCaracteresDeControlSeRechaza(hostil: String, visible: String) {
        let equipo = fallo(
            "{\"matches\": [{\"team1\": \(json("Rayo" + hostil)), \"team2\": \"B\"}]}")
        #expect(
            equipo?.hasPrefix("partido 1: team1: el nombre tiene un carácter de control") == true)
        #expect(equipo?.contains(visible) == true, "\(equipo ?? "")")
        #expect(equipo.map(TextoSeguro.tieneControl) == false)
        let jugador = fallo(
            "{\"matches\": [{\"team1\": \"A\", \"team2\": \"B\", \"goals1\": [{\"name\": \(json(hostil)), \"minute\": 3}]}]}"
        )
        #expect(
            jugador?.hasPrefix(
                "partido 1 (A – B): goals1[0].name: el nombre tiene un carácter de control")
                == true)
        let competicion = fallo("{\"name\": \(json(hostil)), \"matches\": []}")
        #expect(
            competicion?.hasPrefix("«name» (la competición) tiene un carácter de control") == true)
        let estadio = fallo(
            "{\"matches\": [{\"team1\": \"A\", \"team2\": \"B\", \"ground\": \(json(hostil))}]}")
        #expect(
            estadio?.hasPrefix("partido 1 (A – B): ground: tiene un carácter de control") == true)
    }

    /// A letter under thousands of combining accents is one character of kilobytes (round 2
    /// let 40,000 through, and every table trapped): the bytes and the marks are limited too.
    @Test func losAcentosApiladosNoPasan() throws {
        let torre = "a" + String(repeating: "\u{0301}", count: 40_000)
        #expect(
            fallo("{\"name\": \"\(torre)\", \"matches\": []}")
                == "«name» (la competición) pasa de 800 bytes (tiene 80001)")
        let cuatro = "Ze" + String(repeating: "\u{0301}", count: 4) + "ta"
        #expect(
            fallo("{\"matches\": [{\"team1\": \"\(cuatro)\", \"team2\": \"B\"}]}")
                == "partido 1: team1: el nombre lleva 4 acentos o marcas sobre una misma letra (como mucho 3)"
        )
        // Real names keep theirs: Vietnamese stacks two on one letter.
        let vietnamita = "Nguy\u{0065}\u{0302}\u{0303}n Văn Toàn"
        let partido = try leer("{\"matches\": [{\"team1\": \"\(vietnamita)\", \"team2\": \"B\"}]}")
        #expect(partido.partidos.first?.local == vietnamita)
        // Bidirectional overrides and zero-width characters are control characters too.
        #expect(
            fallo("{\"matches\": [{\"team1\": \"A\\u202Eb\", \"team2\": \"B\"}]}")
                == "partido 1: team1: el nombre tiene un carácter de control (\\u202E)")
    }

    @Test func doscientosCaracteresSiDoscientosUnoNo() throws {
        let justo = String(repeating: "á", count: 200)
        let partido = try leer("{\"matches\": [{\"team1\": \"\(justo)\", \"team2\": \"B\"}]}")
        #expect(partido.partidos.first?.local == justo)
        let largo = String(repeating: "x", count: 201)
        #expect(
            fallo("{\"name\": \"\(largo)\", \"matches\": []}")
                == "«name» (la competición) pasa de 200 caracteres (tiene 201)")
        let enorme = String(repeating: "x", count: 5_000_000)
        #expect(
            fallo("{\"name\": \"\(enorme)\", \"matches\": []}")
                == "«name» (la competición) pasa de 800 bytes (tiene 5000000)")
        #expect(
            fallo(
                "{\"matches\": [{\"team1\": \"A\", \"team2\": \"B\", \"goals2\": [{\"name\": \"\(String(repeating: "y", count: 201))\", \"minute\": 4}]}]}"
            ) == "partido 1 (A – B): goals2[0].name: el nombre pasa de 200 caracteres (tiene 201)")
    }

    /// The same match twice in one file is refused, naming both positions (round 1 dropped the
    /// second one silently, and `--dry-run` counted one more than the real import).
    @Test func unPartidoRepetidoSeRechazaNombrandoAmbos() {
        #expect(
            fallo(
                """
                {"matches": [
                  {"date": "2018-06-14", "team1": "Russia", "team2": "Saudi Arabia", "score": {"ft": [5, 0]}},
                  {"date": "2018-06-15", "team1": "Egypt", "team2": "Uruguay"},
                  {"date": "2018-06-14", "team1": "Russia", "team2": "Saudi Arabia", "score": {"ft": [1, 0]}}]}
                """)
                == "los partidos 1 y 3 son el mismo (2018-06-14, Russia – Saudi Arabia)")
    }

    /// Real files write the first minute of added time after extra time as `121`.
    @Test func elMinuto121ConProrrogaEsEl120Mas1() throws {
        let competicion = try leer(
            """
            {"matches": [{"team1": "A", "team2": "B", "score": {"ft": [1, 1], "et": [2, 1]},
              "goals1": [{"name": "Uno", "minute": 10}, {"name": "Tarde", "minute": 121}],
              "goals2": [{"name": "Dos", "minute": 50}]}]}
            """)
        let partido = try #require(competicion.partidos.first)
        #expect(partido.goles?.last?.minuto == MinutoDeJuego(120, anadido: 1))
        #expect(
            partido.avisos == [
                "partido 1 (A – B): el gol de Tarde en el minuto 121 se lee como 120+1 (tiempo añadido de la prórroga)"
            ])
        #expect(partido.resultadoEsperado == Marcador(local: 2, visitante: 1))
    }

    @Test(arguments: [
        (
            "{\"name\": \"x\", \"minute\": \"90+30\", \"offset\": 30}",
            "partido 1 (A – B): goals1[0].offset: el tiempo añadido pasa de 30 minutos (90+60)"
        ),
        ("{\"name\": \"x\", \"minute\": \"90+31\"}", "goals1[0].minute: «90+31» no es un minuto"),
        (
            "{\"name\": \"x\", \"minute\": 125}",
            "partido 1 (A – B): goles: el gol de x en el minuto 125 no cabe en un partido sin prórroga"
        ),
        (
            "{\"name\": \"x\", \"minute\": 131}",
            "goals1[0].minute: 131 no es un minuto (de 1 a 130)"
        ),
    ])
    func elTiempoAnadidoTieneLimite(gol: String, esperado: String) {
        let mensaje = fallo(
            "{\"matches\": [{\"team1\": \"A\", \"team2\": \"B\", \"goals1\": [\(gol)]}]}")
        #expect(mensaje?.contains(esperado) == true, "\(mensaje ?? "sin error")")
    }

    // MARK: - The rounds layout (euro.json) and results that need reading

    @Test func laEuro2020TraeSusRondasYSusEquiposComoObjetos() throws {
        let euro = try LectorOpenFootball.leer(
            try Datos.bytes("euro-2020.json"), nombrePorDefecto: "euro")
        #expect(euro.nombre == "Euro 2021")
        #expect(euro.partidos.count == 51)
        #expect(euro.goles == 142)
        #expect(euro.partidos.first?.ronda == "Matchday 1")
        #expect(euro.partidos.last?.ronda == "Final")
        #expect(euro.partidos.last?.local == "Italy")
        #expect(euro.partidos.last?.penaltis == Marcador(local: 3, visitante: 2))
        #expect(euro.partidos.first?.grupo == "Group A")
        // Demiral's own goal is in goals2: credited to Italy, scored by a Turkey player.
        let inaugural = try #require(euro.partidos.first)
        let demiral = try #require(inaugural.goles?.first { $0.jugador.nombre == "Demiral" })
        #expect(demiral.enPropiaPuerta)
        #expect(demiral.lado == .visitante)
        #expect(demiral.jugador.equipo.nombre == "Turkey")
        #expect(euro.partidos.flatMap { $0.goles ?? [] }.filter(\.penalti).count > 0)
        // `offset`: Pašalić's 90+2 against Spain.
        let croacia = try #require(
            euro.partidos.first { $0.local == "Croatia" && $0.visitante == "Spain" })
        #expect(
            croacia.goles?.first { $0.jugador.nombre == "Pašalić" }?.minuto
                == MinutoDeJuego(90, anadido: 2))
    }

    /// euro.json writes England's four goals against Ukraine under team1: the sums are the
    /// result the other way round, so the sides are read back and the import says so.
    @Test func unasListasCambiadasDeEquipoSeLeenAlDerecho() throws {
        let euro = try LectorOpenFootball.leer(
            try Datos.bytes("euro-2020.json"), nombrePorDefecto: "euro")
        let partido = try #require(
            euro.partidos.first { $0.local == "Ukraine" && $0.visitante == "England" })
        #expect(partido.goles?.allSatisfy { $0.lado == .visitante } == true)
        #expect(partido.goles?.allSatisfy { $0.jugador.equipo.nombre == "England" } == true)
        #expect(
            partido.avisos == [
                "partido 48 (Ukraine – England): los goles de goals1 y goals2 suman 4-0 y el "
                    + "resultado es 0-4: se leen como del otro equipo"
            ])
        // A draw can never be read the other way round.
        let empate = try leer(
            """
            {"matches": [{"team1": "A", "team2": "B", "score": {"ft": [1, 1]},
              "goals1": [{"name": "x", "minute": 3}], "goals2": []}]}
            """)
        #expect(empate.partidos[0].goles?.first?.lado == .local)
    }

    @Test func unaRondaDaSuNombreASusPartidosSalvoQueTraiganElSuyo() throws {
        let competicion = try leer(
            """
            {"name": "Liga", "rounds": [
              {"name": "Jornada 1", "matches": [{"team1": {"name": "A", "code": "AAA"}, "team2": "B"}]},
              {"matches": [{"team1": "C", "team2": "D", "round": "Propia"}]},
              {"name": "Jornada 3", "matches": []}]}
            """)
        #expect(competicion.partidos.map(\.ronda) == ["Jornada 1", "Propia"])
        #expect(competicion.partidos.map(\.local) == ["A", "C"])
    }

    @Test func unCeroACeroSinListasTieneSuGuionVacio() throws {
        let competicion = try leer(
            """
            {"matches": [{"team1": "A", "team2": "B", "score": {"ft": [0, 0]}},
              {"team1": "C", "team2": "D", "score": {"ft": [1, 0]}},
              {"team1": "E", "team2": "F"}]}
            """)
        #expect(competicion.partidos.map(\.goles) == [[], nil, nil])
    }

    @Test func laLineaYLaColumnaCuentanCaracteres() {
        let bytes = Array("{\n \"ñandú\": x}".utf8)
        let posicion = bytes.firstIndex(of: UInt8(ascii: "x"))!
        #expect(LectorOpenFootball.lineaYColumna(de: posicion, en: bytes) == (2, 11))
        #expect(LectorOpenFootball.lineaYColumna(de: 0, en: bytes) == (1, 1))
    }
}
