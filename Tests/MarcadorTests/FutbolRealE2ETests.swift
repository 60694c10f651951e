import Foundation
import Testing

/// Real football through the binary (import.md): both layouts and several files in one
/// `importar`, played matches shown as played with their dates in the user's zone, league
/// tables, and files refused with the position of what is wrong.
@Suite("Fútbol de verdad (binario)")
struct FutbolRealE2ETests {
    static let datos = ImportarE2ETests.datos

    func json(_ texto: String) -> Any? { try? JSONSerialization.jsonObject(with: Data(texto.utf8)) }

    @Test func variosFicherosYUnaCarpetaEnUnaSolaOrden() async throws {
        let escenario = Escenario()
        let carpeta = escenario.carpeta + "/datos"
        try FileManager.default.createDirectory(atPath: carpeta, withIntermediateDirectories: true)
        for nombre in ["euro-2020.json", "serie-a-2024-25.json"] {
            try FileManager.default.copyItem(
                atPath: Self.datos + "/" + nombre, toPath: carpeta + "/" + nombre)
        }
        // A bad file in the folder: refused alone, with its reason, after the others.
        let malo = carpeta + "/zz-fecha.json"
        try Data(
            #"{"name": "Mala", "matches": [{"team1": "A", "team2": "B", "date": "2024-02-30"}]}"#
                .utf8
        ).write(to: URL(fileURLWithPath: malo))
        let resultado = try await escenario.marcador(
            "importar", carpeta, Self.datos + "/worldcup-2018.json")
        #expect(resultado.codigo == 65)
        #expect(
            resultado.salida == """
                Euro 2021 («euro-2020.json»): 51 partidos, 142 goles · nuevos 51, ya estaban 0, sin detalle de goles 0, con advertencias 1.
                Italian Serie A 2024/25 («serie-a-2024-25.json»): 380 partidos, 0 goles · nuevos 380, ya estaban 0, sin detalle de goles 352, con advertencias 0.
                World Cup 2018 («worldcup-2018.json»): 64 partidos, 169 goles · nuevos 64, ya estaban 0, sin detalle de goles 0, con advertencias 0.
                4 ficheros: 3 importados, 1 sin importar.

                """)
        #expect(
            resultado.error.contains(
                "marcador: No se importa nada de «\(malo)»: partido 1 (A – B): date: «2024-02-30» no es una fecha del calendario (AAAA-MM-DD).\n"
            ))
        let otraVez = try await escenario.marcador("importar", Self.datos + "/serie-a-2024-25.json")
        #expect(
            otraVez.salida
                == "Italian Serie A 2024/25 («serie-a-2024-25.json»): 380 partidos, 0 goles · nuevos 0, ya estaban 380, sin detalle de goles 352, con advertencias 0.\n"
        )
        let competiciones = try await escenario.marcador("competiciones")
        #expect(!competiciones.salida.contains("Mala"))
        #expect(
            competiciones.salida.contains(
                "Italian Serie A 2024/25       380           28      370    942"))
        #expect(
            competiciones.salida.contains(
                "Euro 2021                      51           51       51    142"))
    }

    @Test func unJSONRotoDiceLineaYColumna() async throws {
        let escenario = Escenario()
        _ = try await escenario.marcador("partidos")
        let ruta = escenario.carpeta + "/roto.json"
        try Data(
            "{\n  \"name\": \"Copa\",\n  \"matches\": [{\"team1\": \"A\",, \"team2\": \"B\"}]\n}\n"
                .utf8
        )
        .write(to: URL(fileURLWithPath: ruta))
        let resultado = try await escenario.marcador("importar", ruta)
        #expect(resultado.codigo == 65)
        #expect(
            resultado.error
                == "marcador: No se importa nada de «\(ruta)»: no es JSON válido (línea 3, columna 29).\n"
        )
        #expect(resultado.salida.isEmpty)
    }

    @Test func loJugadoSaleTerminadoConSuFechaEnLaZonaDelUsuario() async throws {
        let escenario = Escenario()
        _ = try await escenario.marcador("importar", Self.datos + "/worldcup-2018.json")
        let utc = try await escenario.marcador(
            "partidos", "--fecha", "2018-06-14", entorno: ["TZ": "UTC"])
        #expect(
            utc.salida == """
                ID  FECHA             LOCAL   VISITANTE     ESTADO     MINUTO  MARCADOR  RESULTADO  DURACIÓN
                 4  2018-06-14 15:00  Russia  Saudi Arabia  Terminado      90  5-0       5-0              90

                """)
        // Another zone moves the shown time, and the day a match falls on.
        let madrid = try await escenario.marcador(
            "partidos", "--fecha", "2018-06-14", entorno: ["TZ": "Europe/Madrid"])
        #expect(madrid.salida.contains(" 4  2018-06-14 17:00  Russia"))
        let tokio = try await escenario.marcador(
            "partidos", "--desde", "2018-06-16", "--hasta", "2018-06-16", "--json",
            entorno: ["TZ": "Asia/Tokyo"])
        let deTokio = try #require(json(tokio.salida) as? [[String: Any]])
        // 2018-06-15 18:00 UTC+3 (Morocco – Iran) is already midnight of the 16th in Tokyo.
        #expect(deTokio.first?["local"] as? String == "Morocco")
        #expect(deTokio.first?["inicio"] as? String == "2018-06-16 00:00")
        #expect(deTokio.first?["fecha"] as? String == "2018-06-15")
        #expect(deTokio.first?["hora"] as? String == "18:00 UTC+3")
        // Days and ranges: the knockout rounds, in kick-off order.
        let eliminatorias = try #require(
            json(
                try await escenario.marcador(
                    "partidos", "--desde", "2018-06-30", "--hasta", "2018-07-15", "--json",
                    entorno: ["TZ": "UTC"]
                ).salida) as? [[String: Any]])
        #expect(eliminatorias.count == 16)
        #expect(eliminatorias.last?["local"] as? String == "France")
        let final = try #require(eliminatorias.last)
        #expect(final["estado"] as? String == "terminado")
        #expect(final["estadoTexto"] as? String == "Terminado")
        #expect(final["marcador"] as? String == "4-2")
        #expect((final["resultadoOficial"] as? [String: Any])?["final"] as? String == "4-2")
        #expect(final["ejecucion"] == nil || final["ejecucion"] is NSNull)
        // The card keeps the venue's offset and shows the user's time beside it.
        let id = try #require(final["id"] as? Int)
        let ficha = try await escenario.marcador("partido", "\(id)", entorno: ["TZ": "UTC"])
        #expect(
            ficha.salida.contains(
                "2018-07-15 18:00 UTC+3 (2018-07-15 15:00 en tu zona) · Luzhniki Stadium, Moscow\n"
                    + "Estado: Terminado · France 4-2 Croatia (90 minutos)\n"))
        #expect(ficha.salida.contains("No se ha repetido aquí."))
        // Played again here: a replay beside the official result.
        _ = try await escenario.marcador("jugar", "\(id)", "--ms-por-minuto", "0")
        let repetida = try await escenario.marcador(
            "partidos", "--fecha", "2018-07-15", entorno: ["TZ": "UTC"])
        #expect(
            repetida.salida.contains(
                "France  Croatia    Partido terminado (repetición)      90  4-2       4-2"))
        let comoJSON = try #require(
            (json(
                try await escenario.marcador(
                    "partidos", "--fecha", "2018-07-15", "--json", entorno: ["TZ": "UTC"]
                ).salida) as? [[String: Any]])?.first)
        let ejecucion = try #require(comoJSON["ejecucion"] as? [String: Any])
        #expect(ejecucion["repeticion"] as? Bool == true)
        #expect(ejecucion["estado"] as? String == "terminado")
        #expect(try await escenario.marcador("partidos", "--fecha", "2018-02-30").codigo == 64)
        #expect(
            try await escenario.marcador(
                "partidos", "--fecha", "2018-06-14", "--desde", "2018-06-01"
            )
            .codigo == 64)
    }

    /// `hoy`, `mañana` and `ayer` are days of the user's zone, read from the clock (here a
    /// fake one: the World Cup's opening day); a range the wrong way round is refused (issue 42).
    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime"),
            "falta faketime (Debian: faketime)"))
    func hoyMananaYAyer() async throws {
        let escenario = Escenario()
        _ = try await escenario.marcador("importar", Self.datos + "/worldcup-2018.json")
        func partidos(_ argumentos: String..., hora: String = "2018-06-14 12:00:00") async throws
            -> Resultado
        {
            try await escenario.marcadorSinDB(
                ["--db", escenario.db, "partidos"] + argumentos, entorno: ["TZ": "UTC"],
                ejecutable: "/usr/bin/faketime", prefijo: [hora, Binario.ruta])
        }
        let hoy = try await partidos("--fecha", "hoy")
        #expect(hoy.codigo == 0, "\(hoy.error)")
        #expect(hoy.salida.contains(" 4  2018-06-14 15:00  Russia  Saudi Arabia"), "\(hoy.salida)")
        #expect(hoy.salida.split(separator: "\n").count == 2)
        let manana = try await partidos("--fecha", "Mañana")
        #expect(manana.salida.split(separator: "\n").count == 4, "\(manana.salida)")
        #expect(try await partidos("--fecha", "manana").salida == manana.salida)
        #expect(
            try await partidos("--fecha", "ayer").salida
                == "No hay partidos con esas condiciones.\n")
        #expect(
            try await partidos("--desde", "ayer", "--hasta", "mañana").salida.split(
                separator: "\n"
            ).count == 5)
        // In Tokyo «hoy» is the 15th, and the opening match (15:00 UTC on the 14th) falls on it
        // at midnight.
        let tokio = try await escenario.marcadorSinDB(
            ["--db", escenario.db, "partidos", "--fecha", "hoy", "--json"],
            entorno: ["TZ": "Asia/Tokyo"], ejecutable: "/usr/bin/faketime",
            prefijo: ["2018-06-15 07:00:00", Binario.ruta])
        let deTokio = try #require(json(tokio.salida) as? [[String: Any]])
        #expect(deTokio.first?["local"] as? String == "Russia", "\(tokio.salida)")
        #expect(deTokio.first?["inicio"] as? String == "2018-06-15 00:00")
        let alReves = try await partidos("--desde", "mañana", "--hasta", "hoy")
        #expect(alReves.codigo == 64)
        #expect(
            alReves.error
                == "marcador: --desde (2018-06-15) va después de --hasta (2018-06-14): entre ambos no hay ningún día. ¿Están al revés?\n"
                + "Prueba «marcador partidos --help».\n"
        )
        let otra = try await partidos("--fecha", "pasado")
        #expect(otra.codigo == 64)
        #expect(
            otra.error.contains(
                "--fecha es un día del calendario como 2018-06-14, o hoy, mañana o ayer; no «pasado»."
            ))
    }

    /// `ajustes duracion` chooses how long scripted matches and replays are played; a match
    /// played for real lasted what it lasted (issue 42: the 2018 final showed «60»).
    @Test func elAjusteDeDuracionNoReescribeLoJugado() async throws {
        let escenario = Escenario()
        _ = try await escenario.marcador("importar", Self.datos + "/worldcup-2018.json")
        #expect(try await escenario.marcador("ajustes", "duracion", "60").codigo == 0)
        let lista = try #require(
            json(
                try await escenario.marcador(
                    "partidos", "--desde", "2018-07-01", "--hasta", "2018-07-01", "--json",
                    entorno: ["TZ": "UTC"]
                ).salida) as? [[String: Any]])
        // Spain – Russia went to extra time and penalties; Croatia – Denmark too.
        #expect(lista.map { $0["duracion"] as? Int } == [120, 120], "\(lista)")
        let final = try await escenario.marcador(
            "partidos", "--fecha", "2018-07-15", entorno: ["TZ": "UTC"])
        #expect(
            final.salida.contains("Terminado      90  4-2       4-2              90"),
            "\(final.salida)")
        // A scripted match follows the setting.
        let guion = try await escenario.marcador("partidos", "--json")
        let uno = try #require(
            (json(guion.salida) as? [[String: Any]])?.first { $0["id"] as? Int == 1 })
        #expect(uno["duracion"] as? Int == 60)
    }

    @Test func laTablaDeUnaLigaYSusVariantes() async throws {
        let escenario = Escenario()
        _ = try await escenario.marcador("importar", Self.datos + "/serie-a-2024-25.json")
        let tabla = try await escenario.marcador("clasificacion", "--competicion", "serie a")
        #expect(tabla.codigo == 0)
        let lineas = tabla.salida.split(separator: "\n")
        #expect(lineas.first == "Italian Serie A 2024/25")
        #expect(
            lineas[1] == " #  EQUIPO                    PJ   G   E   P  GF  GC   DG  PTS  ÚLTIMOS")
        #expect(
            lineas[2] == " 1  SSC Napoli                37  23  10   4  57  27  +30   79  GGGEE")
        // 20 rows; under them the matches the file has no result for yet (the last matchday),
        // and the rule used: Serie A's own, without a flag (issue 42).
        #expect(lineas.count == 24)
        #expect(lineas[22] == "(10 partidos sin resultado todavía: no cuentan.)")
        #expect(
            lineas.last
                == "Desempate: enfrentamientos entre los empatados, luego diferencia de goles (reglamento: Lega Serie A)."
        )
        let enCasa = try await escenario.marcador(
            "clasificacion", "--competicion", "serie a", "--local", "--json")
        let casa = try #require((json(enCasa.salida) as? [[String: Any]])?.first)
        #expect(casa["formato"] as? String == "liga")
        #expect(casa["campo"] as? String == "local")
        #expect(casa["sinResultado"] as? Int == 10)
        let filas = try #require(casa["filas"] as? [[String: Any]])
        #expect(filas.count == 20)
        #expect(filas.allSatisfy { ($0["jugados"] as? Int ?? 0) <= 19 })
        #expect(filas.first?["ultimos"] as? String != nil)
        let directo = try await escenario.marcador(
            "clasificacion", "--competicion", "serie a", "--desempate", "enfrentamientos")
        #expect(directo.codigo == 0)
        #expect(directo.salida.hasSuffix("(elegido con --desempate).\n"))
        #expect(
            try await escenario.marcador(
                "clasificacion", "--competicion", "serie a", "--local", "--visitante"
            ).codigo == 64)
        #expect(
            try await escenario.marcador(
                "clasificacion", "--competicion", "serie a", "--desempate", "moneda"
            ).codigo == 64)
        let grupo = try await escenario.marcador(
            "clasificacion", "--competicion", "serie a", "--grupo", "A")
        #expect(grupo.codigo == 66)
        #expect(grupo.error.contains("no tiene grupos"))
        let goleadores = try await escenario.marcador("goleadores", "--competicion", "serie a")
        #expect(goleadores.codigo == 0)
        #expect(
            goleadores.salida
                == "«Italian Serie A 2024/25» no trae listas de goles (352 de sus 380 partidos solo dan el resultado): no hay goleadores que contar.\n"
        )
    }
}
