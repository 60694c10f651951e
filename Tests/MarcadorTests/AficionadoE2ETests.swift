import ApoyoDePruebas
import Foundation
import Testing

/// fans.md through the binary on the repository's own fixtures.
@Suite("Vistas de aficionado y seguimiento (binario)")
struct AficionadoE2ETests {
    static let datos: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Recursos/openfootball").path

    func json(_ texto: String) -> Any? { try? JSONSerialization.jsonObject(with: Data(texto.utf8)) }

    func conMundial2018() async throws -> Escenario {
        let escenario = Escenario()
        #expect(
            try await escenario.marcador("importar", Self.datos + "/worldcup-2018.json").codigo == 0
        )
        return escenario
    }

    @Test func laTablaDelGrupoAYLosGoleadores() async throws {
        let escenario = try await conMundial2018()
        let tabla = try await escenario.marcador(
            "clasificacion", "--competicion", "WORLD CUP 2018", "--grupo", "a")
        #expect(tabla.codigo == 0)
        #expect(
            tabla.salida == """
                World Cup 2018 · Group A
                #  EQUIPO        PJ  G  E  P  GF  GC  DG  PTS  ÚLTIMOS
                1  Uruguay        3  3  0  0   5   0  +5    9  GGG
                2  Russia         3  2  0  1   8   4  +4    6  GGP
                3  Saudi Arabia   3  1  0  2   2   7  -5    3  PPG
                4  Egypt          3  0  0  3   2   6  -4    0  PPP
                Desempate: diferencia de goles, goles a favor, luego enfrentamientos (reglamento: FIFA, Copa Mundial).

                """)
        let grupos =
            json(
                try await escenario.marcador(
                    "clasificacion", "--competicion", "world cup 2018", "--json"
                )
                .salida) as? [[String: Any]]
        #expect(grupos?.count == 8)
        let goleadores = try await escenario.marcador(
            "goleadores", "--competicion", "world-cup-2018", "--limite", "3")
        let filas = goleadores.salida.split(separator: "\n").dropFirst(2)
        #expect(filas.first?.hasPrefix("1  Harry Kane") == true, "\(goleadores.salida)")
        // «--limite 3» stops after the whole tie for second place (five players on 4).
        #expect(filas.count == 6, "\(goleadores.salida)")
        let lista =
            json(
                try await escenario.marcador(
                    "goleadores", "--competicion", "World Cup 2018", "--json", "--limite", "1000"
                )
                .salida) as? [[String: Any]]
        // «Kane» and «Harry Kane» in the file are one player: 6 goals, as in the record books.
        #expect(lista?.first?["jugador"] as? String == "Harry Kane")
        #expect(lista?.first?["goles"] as? Int == 6)
        // Own goals never count for their scorer: Mandžukić's own goal in the final is not
        // among his 3 (one written «Mandžukić», two «Mario Mandžukić»).
        #expect(
            lista?.contains {
                $0["jugador"] as? String == "Mario Mandžukić" && $0["goles"] as? Int == 3
            } == true)
        let competiciones = try await escenario.marcador("competiciones")
        #expect(
            competiciones.salida.contains(
                "World Cup 2018           64           64       64    169"),
            "\(competiciones.salida)")
    }

    /// A final decided on penalties shows the shoot-out, as text and as fields.
    @Test func laFichaDeUnPartidoConPenaltis() async throws {
        let escenario = try await conMundial2018()
        let lista =
            json(
                try await escenario.marcador("partidos", "--equipo", "russia", "--json").salida)
            as? [[String: Any]]
        let id = try #require(
            lista?.first {
                $0["visitante"] as? String == "Russia" && $0["local"] as? String == "Spain"
            }?["id"]
                as? Int)
        let ficha = try await escenario.marcador("partido", "\(id)")
        #expect(ficha.codigo == 0)
        #expect(
            ficha.salida.contains("Resultado oficial: 1-1 tras la prórroga, 3-4 en los penaltis"))
        #expect(ficha.salida.contains("Ignashevich (pp)"))
        let datos = try #require(
            json(try await escenario.marcador("partido", "\(id)", "--json").salida)
                as? [String: Any])
        let oficial = try #require(datos["resultadoOficial"] as? [String: Any])
        #expect(oficial["penaltis"] as? String == "3-4")
        #expect(oficial["prorroga"] as? String == "1-1")
        #expect(datos["ronda"] as? String == "Round of 16")
        _ = try await escenario.marcador("jugar", "\(id)", "--ms-por-minuto", "0")
        _ = try await escenario.marcador("gol-a-mano", "\(id)", "local")
        let jugada = try #require(
            json(try await escenario.marcador("partido", "\(id)", "--json").salida)
                as? [String: Any])
        let ejecuciones = try #require(jugada["ejecuciones"] as? [[String: Any]])
        #expect(ejecuciones.count == 1)
        #expect(ejecuciones[0]["estado"] as? String == "terminado")
        #expect(ejecuciones[0]["golesAMano"] as? String == "1-0")
        #expect(try await escenario.marcador("partido", "999").codigo == 66)
    }

    @Test func losNombresSeEncuentranSinAcentosYLosQueNoDicenQueHay() async throws {
        let escenario = Escenario()
        _ = try await escenario.marcador("importar", Self.datos + "/worldcup-2026.json")
        for equipo in ["curacao", "CURAÇAO", "ivory-coast", "Ivory Coast"] {
            let resultado = try await escenario.marcador("partidos", "--equipo", equipo, "--json")
            #expect(resultado.codigo == 0, "\(equipo)")
            let partidos = json(resultado.salida) as? [[String: Any]]
            #expect((partidos?.count ?? 0) >= 3, "\(equipo)")
        }
        let nada = try await escenario.marcador("partidos", "--equipo", "Brasill")
        #expect(nada.codigo == 66)
        #expect(nada.error.contains("No hay ningún equipo llamado «Brasill». ¿Quizá «Brazil»"))
        let fecha = try await escenario.marcador("partidos", "--fecha", "2026-06-11", "--json")
        #expect((json(fecha.salida) as? [[String: Any]])?.isEmpty == false)
        #expect(try await escenario.marcador("partidos", "--fecha", "11/06/2026").codigo == 64)
        // Played is played: every match with its official result is «Terminado».
        let todos = try #require(
            json(try await escenario.marcador("partidos", "--json").salida) as? [[String: Any]])
        let conResultado = todos.filter { $0["resultadoOficial"] is [String: Any] }.count
        let terminados = try #require(
            json(try await escenario.marcador("partidos", "--estado", "terminado", "--json").salida)
                as? [[String: Any]])
        #expect(terminados.count == conResultado)
        #expect(terminados.allSatisfy { $0["estadoTexto"] as? String == "Terminado" })
        #expect(try await escenario.marcador("partidos", "--estado", "acabado").codigo == 64)
    }

    /// A webhook following Toros gets Iván's and Sofía's goals only; an unfiltered one all five.
    @Test func unCanalQueSigueAToros() async throws {
        let torero = try ReceptorHTTP()
        let todo = try ReceptorHTTP()
        defer {
            torero.cerrar()
            todo.cerrar()
        }
        let escenario = Escenario()
        _ = try await escenario.marcador("avisos", "activar")
        let anadido = try await escenario.marcador(
            "avisos", "canales", "añadir", "webhook", "--nombre", "toros", "--url", torero.url,
            "--equipo", "TOROS")
        #expect(anadido.codigo == 0, "\(anadido.error)")
        _ = try await escenario.marcador(
            "avisos", "canales", "añadir", "webhook", "--nombre", "todo", "--url", todo.url)
        let canales = try await escenario.marcador("avisos", "canales").salida
        #expect(canales.contains("equipos: Toros"))
        _ = try await escenario.marcador("jugar", "1", "--ms-por-minuto", "0")
        _ = try await escenario.marcador("jugar", "2", "--ms-por-minuto", "0")
        #expect(try await escenario.marcador("avisos", "enviar").codigo == 0)
        func identificadores(_ receptor: ReceptorHTTP) -> [String] {
            receptor.peticiones.compactMap {
                (try? JSONSerialization.jsonObject(with: $0.cuerpo) as? [String: Any])?[
                    "identificador"]
                    as? String
            }
        }
        // A POST the final drain of `jugar` had to abandon (a loaded machine) goes out again
        // from `avisos enviar` under the same key: count notices, not requests.
        func distintos(_ receptor: ReceptorHTTP) -> Int {
            Set(receptor.peticiones.map { $0.cabeceras["idempotency-key"] ?? "" }).count
        }
        #expect(Set(identificadores(torero)) == ["gol-10-Iván", "gol-35-Sofía"])
        #expect(distintos(torero) == 2)
        #expect(Set(identificadores(todo)).count == 10)
        #expect(distintos(todo) == 10)
        // Following more, following less, pausing.
        #expect(
            try await escenario.marcador("avisos", "canales", "seguir", "toros", "--partido", "2")
                .salida
                == "Canal «toros» sigue: equipos: Toros · partidos: 2.\n")
        #expect(
            try await escenario.marcador("avisos", "canales", "dejar", "toros", "--equipo", "toros")
                .salida
                == "Canal «toros» sigue: partidos: 2.\n")
        #expect(
            try await escenario.marcador(
                "avisos", "canales", "seguir", "toros", "--equipo", "Nadie FC"
            ).codigo == 66)
        #expect(
            try await escenario.marcador("avisos", "canales", "desactivar", "todo").salida
                == "Canal «todo» en pausa.\n")
        _ = try await escenario.marcador("jugar", "1", "--ms-por-minuto", "0")
        _ = try await escenario.marcador("jugar", "2", "--ms-por-minuto", "0")
        _ = try await escenario.marcador("avisos", "enviar")
        #expect(distintos(todo) == 10)
        #expect(distintos(torero) == 2 + 5)
    }

    @Test func probarUnCanalDiceQuePaso() async throws {
        let bien = try ReceptorHTTP()
        let mal = try ReceptorHTTP(porDefecto: .init(codigo: 503))
        defer {
            bien.cerrar()
            mal.cerrar()
        }
        let escenario = Escenario()
        _ = try await escenario.marcador("avisos", "activar")
        _ = try await escenario.marcador(
            "avisos", "canales", "añadir", "webhook", "--nombre", "bien", "--url", bien.url)
        _ = try await escenario.marcador(
            "avisos", "canales", "añadir", "webhook", "--nombre", "mal", "--url", mal.url)
        let todos = try await escenario.marcador("avisos", "probar")
        #expect(todos.codigo == 69)
        #expect(
            todos.salida == """
                bien: entregado
                mal: no entregado (HTTP 503); se reintentará
                registro: entregado

                """)
        #expect(todos.error.contains("notificación «Prueba de marcador» enviada"))
        let primera = try #require(bien.peticiones.first)
        let documento = try #require(
            try JSONSerialization.jsonObject(with: primera.cuerpo) as? [String: Any])
        #expect(documento["titulo"] as? String == "Prueba de marcador")
        let uno = try await escenario.marcador("avisos", "probar", "--canal", "bien")
        #expect(uno.codigo == 0)
        #expect(uno.salida == "bien: entregado\n")
        #expect(bien.peticiones.count == 2)
        #expect(try await escenario.marcador("avisos", "probar", "--canal", "nadie").codigo == 66)
    }

    @Test func quitarUnGolAMano() async throws {
        let escenario = Escenario()
        #expect(
            try await escenario.marcador("gol-a-mano", "1", "local").salida
                == "Gol a mano de Rayo FC: Rayo FC 1-0 Toros.\n")
        #expect(
            try await escenario.marcador("gol-a-mano", "1", "local", "--quitar").salida
                == "Gol a mano quitado a Rayo FC: Rayo FC 0-0 Toros.\n")
        let otra = try await escenario.marcador("gol-a-mano", "1", "local", "--quitar")
        #expect(otra.codigo == 64)
        #expect(otra.error.contains("Rayo FC no tiene goles a mano que quitar en el partido 1."))
        let registro = try await escenario.marcador("registro", "--partido", "1").salida
        #expect(registro.contains("gol a mano de Rayo FC: Rayo FC 1-0 Toros"))
        #expect(registro.contains("gol a mano quitado a Rayo FC: Rayo FC 0-0 Toros"))
    }
}
