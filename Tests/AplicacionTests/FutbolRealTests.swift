import Aplicacion
import Foundation
import Importador
import Testing
import Torneo

#if canImport(Glibc)
    import Glibc
#endif

/// Real football in the core (import.md), on an in-memory store: a league season's table
/// against one computed here from the file by other means, a league phase without its
/// knockout rounds, played matches shown as played, replays as replays.
@Suite("Núcleo: fútbol de verdad")
struct FutbolRealTests {
    let nucleo: Nucleo

    init() throws {
        // Days and times in the user's zone: UTC here, whatever the machine's zone is.
        setenv("TZ", "UTC", 1)
        tzset()
        nucleo = try nucleoEnMemoria()
    }

    static let datos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Recursos/openfootball").path

    func importar(_ nombre: String) throws {
        let competicion = try Nucleo.leerPartidos(Self.datos + "/" + nombre)
        _ = try nucleo.importar(competicion, simular: false)
    }

    /// Imports an openfootball file written here, from a temporary file removed afterwards.
    func importarTexto(_ json: String) throws {
        let fichero = NSTemporaryDirectory() + "futbol-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: fichero) }
        try Data(json.utf8).write(to: URL(fileURLWithPath: fichero))
        _ = try nucleo.importar(try Nucleo.leerPartidos(fichero), simular: false)
    }

    /// The file read with JSONSerialization, not marcador's reader: results per match.
    func resultadosDelFichero(_ nombre: String) throws -> [(String, String, Int, Int)] {
        let datos = try Data(contentsOf: URL(fileURLWithPath: Self.datos + "/" + nombre))
        let raiz = try #require(try JSONSerialization.jsonObject(with: datos) as? [String: Any])
        let partidos = try #require(raiz["matches"] as? [[String: Any]])
        return partidos.compactMap { partido in
            guard let marcador = partido["score"] as? [String: Any],
                let ft = marcador["ft"] as? [Int], ft.count == 2,
                let local = partido["team1"] as? String, let visitante = partido["team2"] as? String
            else { return nil }
            return (local, visitante, ft[0], ft[1])
        }
    }

    @Test func laSerieAEnteraYSuTablaComoLaDelFichero() throws {
        try importar("serie-a-2024-25.json")
        let resultados = try resultadosDelFichero("serie-a-2024-25.json")
        // The file is a snapshot before the last matchday: 370 results, 10 fixtures.
        #expect(resultados.count == 370)
        let lista = try nucleo.partidos(FiltroDePartidos(competicion: "serie a"))
        #expect(lista.count == 380)
        let terminados = lista.filter { $0.textoDeEstado == "Terminado" }
        #expect(terminados.count == 370)
        #expect(terminados.allSatisfy { $0.oficial?.final == $0.marcadorMostrado })
        #expect(lista.filter { $0.estadoMostrado == .sinEmpezar }.count == 10)
        // competiciones (issue 42: «CON GOLES 28 … GOLES 0»): the goals are the results'; only
        // the goalless draws have their (empty) goal list complete.
        let resumen = try #require(
            try nucleo.competiciones().first { $0.nombre?.contains("Serie A") == true })
        #expect(resumen.partidos == 380 && resumen.jugados == 370)
        #expect(resumen.goles == resultados.reduce(0) { $0 + $1.2 + $1.3 })
        #expect(resumen.conGoles == resultados.filter { $0.2 == 0 && $0.3 == 0 }.count)
        // Kick-off order, whatever the ids.
        let instantes = lista.compactMap { $0.saque?.segundos }
        #expect(instantes.count == 380 && instantes == instantes.sorted())

        // The table computed here, independently: points, then difference, then goals for.
        var puntos: [String: (pj: Int, pts: Int, gf: Int, gc: Int)] = [:]
        for (local, visitante, a, b) in resultados {
            var l = puntos[local] ?? (0, 0, 0, 0)
            var v = puntos[visitante] ?? (0, 0, 0, 0)
            l.pj += 1
            v.pj += 1
            l.gf += a
            l.gc += b
            v.gf += b
            v.gc += a
            l.pts += a > b ? 3 : a == b ? 1 : 0
            v.pts += b > a ? 3 : a == b ? 1 : 0
            puntos[local] = l
            puntos[visitante] = v
        }
        let esperada = puntos.sorted { x, y in
            (x.value.pts, x.value.gf - x.value.gc, x.value.gf)
                > (y.value.pts, y.value.gf - y.value.gc, y.value.gf)
        }
        // Goal difference asked for: what this test recounts (Serie A's own rule, head-to-head
        // first, has a test of its own).
        let (nombre, formato, tablas, regla) = try nucleo.clasificacion(
            competicion: "Serie A", desempate: .goles)
        #expect(regla.elegida && regla.desempate == .goles)
        #expect(nombre == "Italian Serie A 2024/25")
        #expect(formato == .liga)
        let filas = try #require(tablas.first?.filas)
        #expect(tablas.count == 1 && tablas.first?.grupo == nil)
        #expect(filas.count == 20)
        for (fila, (equipo, cuenta)) in zip(filas, esperada) {
            #expect(fila.equipo == equipo)
            #expect(fila.puntos == cuenta.pts && fila.jugados == cuenta.pj)
            #expect(fila.diferencia == cuenta.gf - cuenta.gc && fila.aFavor == cuenta.gf)
        }
        // The champion of the file's results: Napoli, 79 points with one matchday left.
        #expect(filas.first?.equipo == "SSC Napoli")
        #expect(filas.first?.puntos == esperada.first?.value.pts)
        #expect(filas.first?.puntos == 79)
        #expect(filas.first?.ultimos.count == 5)
        // No goal lists: no scorers to count, and the core says how many lack them (the 28
        // goalless draws need none).
        let goleadores = try nucleo.goleadores(competicion: "serie a", limite: 20)
        #expect(goleadores.filas.isEmpty)
        #expect(goleadores.partidos == 380)
        #expect(goleadores.sinLista == 352)
    }

    /// A team's form reads oldest to newest by kick-off, whatever the file's order: here the
    /// file lists A's matches newest first, and two on one day by their times.
    @Test func laFormaVaEnOrdenDeSaqueNoDelFichero() throws {
        try importarTexto(
            """
            {"name": "Liga de la forma", "matches": [
              {"round": "Matchday 3", "date": "2024-09-20", "team1": "A", "team2": "B",
               "score": {"ft": [2, 0]}},
              {"round": "Matchday 2", "date": "2024-09-13", "time": "21:00", "team1": "C",
               "team2": "A", "score": {"ft": [1, 1]}},
              {"round": "Matchday 2", "date": "2024-09-13", "time": "18:00", "team1": "A",
               "team2": "D", "score": {"ft": [0, 1]}},
              {"round": "Matchday 1", "date": "2024-09-06", "team1": "B", "team2": "A",
               "score": {"ft": [0, 3]}}
            ]}
            """)
        let filas = try #require(try nucleo.clasificacion(competicion: "forma").tablas.first?.filas)
        #expect(filas.first { $0.equipo == "A" }?.ultimos == "GPEG")
    }

    @Test func unaFaseDeLigaNoCuentaLasEliminatorias() throws {
        try importarTexto(
            """
            {"name": "UEFA Champions League 2024/25", "matches": [
              {"round": "League, Matchday 1", "date": "2024-09-17", "team1": "A", "team2": "B",
               "score": {"ft": [2, 0]}},
              {"round": "League, Matchday 2", "date": "2024-10-01", "team1": "C", "team2": "A",
               "score": {"ft": [1, 1]}},
              {"round": "League, Matchday 2", "date": "2024-10-01", "team1": "B", "team2": "C",
               "score": {"ft": [0, 3]}},
              {"round": "Knockout Play-offs", "date": "2025-02-11", "team1": "B", "team2": "A",
               "score": {"ft": [4, 0]}},
              {"round": "Final", "date": "2025-05-31", "team1": "C", "team2": "B",
               "score": {"ft": [5, 0]}}
            ]}
            """)
        let (_, formato, tablas, regla) = try nucleo.clasificacion(competicion: "champions league")
        #expect(regla.desempate == .goles && regla.reglamento == "UEFA, Champions League")
        #expect(formato == .faseDeLiga)
        let filas = try #require(tablas.first?.filas)
        #expect(filas.map(\.equipo) == ["C", "A", "B"])
        #expect(filas.map(\.jugados) == [2, 2, 2])
        #expect(filas.map(\.puntos) == [4, 4, 0])
        #expect(throws: Fallo.self) {
            _ = try nucleo.clasificacion(competicion: "champions league", grupo: "A")
        }
        let enCasa = try nucleo.clasificacion(competicion: "champions league", campo: .local)
        #expect(enCasa.tablas.first?.filas.first { $0.equipo == "A" }?.jugados == 1)
    }

    /// The 2018 final imported and never played here is «Terminado» 4-2; played here, it is a
    /// replay with its own score beside the official one.
    @MainActor
    @Test func loJugadoSeVeJugadoYLaRepeticionComoRepeticion() async throws {
        try importar("worldcup-2018.json")
        let final = try #require(
            try nucleo.partidos(FiltroDePartidos(equipo: "croatia")).last)
        #expect(final.textoDeEstado == "Terminado")
        #expect(final.estadoMostrado == .terminado)
        #expect(final.marcadorMostrado == Marcador(local: 4, visitante: 2))
        #expect(final.minutoMostrado == 90)
        #expect(!final.conEjecucion)
        let competiciones = try nucleo.competiciones()
        #expect(competiciones.first { $0.nombre == "World Cup 2018" }?.jugados == 64)
        // A replay, stopped at once: its own state and score, the official result kept.
        _ = try nucleo.golAMano(partido: final.id, lado: .visitante, quitar: false)
        let repetida = try #require(
            try nucleo.partidos(FiltroDePartidos(equipo: "croatia")).last)
        #expect(repetida.conEjecucion && repetida.esRepeticion)
        #expect(repetida.textoDeEstado.hasSuffix("(repetición)"))
        #expect(repetida.marcadorMostrado == Marcador(local: 0, visitante: 1))
        #expect(repetida.oficial?.final == Marcador(local: 4, visitante: 2))
    }

    /// The 2018 file spells scorers two ways («Kane» and «Harry Kane», «Griezmann» and «Antoine
    /// Griezmann»…): each is one player, and a short list goes on through its last tie.
    @Test func cadaGoleadorCuentaUnaVezAunqueElFicheroLoEscribaDeDosManeras() throws {
        try importar("worldcup-2018.json")
        let todos = try nucleo.goleadores(competicion: "world cup 2018", limite: 1_000).filas
        let primero = try #require(todos.first)
        #expect(primero.fila.jugador == "Harry Kane" && primero.fila.goles == 6)
        #expect(primero.fila.penaltis == 3)
        let cuatro = todos.filter { $0.fila.goles == 4 }.map(\.fila.jugador).sorted()
        #expect(
            cuatro == [
                "Antoine Griezmann", "Denis Cheryshev", "Kylian Mbappé", "R. Lukaku", "Ronaldo",
            ])
        #expect(
            todos.allSatisfy {
                !["Kane", "Griezmann", "Mbappé", "Lukaku"].contains($0.fila.jugador)
            })
        // Eden and Thorgan Hazard both scored for Belgium: two players, not one.
        #expect(todos.contains { $0.fila.jugador == "Eden Hazard" && $0.fila.goles == 3 })
        let tres = try nucleo.goleadores(competicion: "world cup 2018", limite: 3).filas
        #expect(tres.count == 6)
        #expect(tres.map(\.posicion) == [1, 2, 2, 2, 2, 2])
    }

    /// Each known competition's tie-break without a flag, named: Euro 2020's Group F by UEFA's
    /// head-to-head (Germany beat Portugal 4-2: Germany 2nd), where goal difference alone would
    /// put Portugal 2nd; Serie A by Lega Serie A's; the World Cup by FIFA's goal difference.
    @Test func cadaCompeticionDesempataConSuReglamento() throws {
        try importar("euro-2020.json")
        let (_, _, grupos, regla) = try nucleo.clasificacion(competicion: "euro", grupo: "F")
        #expect(grupos.first?.filas.map(\.equipo) == ["France", "Germany", "Portugal", "Hungary"])
        #expect(regla.desempate == .enfrentamientos && !regla.elegida)
        #expect(
            regla.texto
                == "Desempate: enfrentamientos entre los empatados, luego diferencia de goles (reglamento: UEFA, Eurocopa)."
        )
        let porGoles = try nucleo.clasificacion(competicion: "euro", grupo: "F", desempate: .goles)
        #expect(
            porGoles.tablas.first?.filas.map(\.equipo) == [
                "France", "Portugal", "Germany", "Hungary",
            ])
        #expect(
            porGoles.regla.texto
                == "Desempate: diferencia de goles, goles a favor, luego enfrentamientos (elegido con --desempate)."
        )
        #expect(
            ReglaDeDesempate.de(competicion: "Italian Serie A 2024/25").desempate
                == .enfrentamientos)
        #expect(
            ReglaDeDesempate.de(competicion: "World Cup 2018").reglamento == "FIFA, Copa Mundial")
        #expect(ReglaDeDesempate.de(competicion: "Liga de mi barrio").reglamento == nil)
        #expect(ReglaDeDesempate.de(competicion: "Ligue 2").reglamento == nil)
        #expect(
            ReglaDeDesempate.de(competicion: "Liga de mi barrio").texto
                == "Desempate: diferencia de goles, goles a favor, luego enfrentamientos (regla general)."
        )
    }

    @Test func losDiasSeFiltranEnLaZonaDelUsuario() throws {
        try importar("worldcup-2018.json")
        // In UTC, 2018-06-14 18:00 UTC+3 is 15:00 that day.
        let dia = FechaDeCalendario("2018-06-14")
        let inaugural = try nucleo.partidos(FiltroDePartidos(desde: dia, hasta: dia))
        #expect(inaugural.map { "\($0.local) – \($0.visitante)" } == ["Russia – Saudi Arabia"])
        let fase = try nucleo.partidos(
            FiltroDePartidos(
                desde: FechaDeCalendario("2018-06-14"), hasta: FechaDeCalendario("2018-06-28")))
        #expect(fase.count == 48)
        let desde = try nucleo.partidos(FiltroDePartidos(desde: FechaDeCalendario("2018-07-14")))
        #expect(desde.map(\.local) == ["Belgium", "France"])
        let alReves = try nucleo.partidos(
            FiltroDePartidos(
                desde: FechaDeCalendario("2018-07-01"), hasta: FechaDeCalendario("2018-06-01")))
        #expect(alReves.isEmpty)
    }
}
