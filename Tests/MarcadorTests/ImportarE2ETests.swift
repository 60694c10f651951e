import ApoyoDePruebas
import Foundation
import Testing

@Suite("marcador importar (binario)")
struct ImportarE2ETests {
    /// The openfootball files copied into the repository (CC0).
    static let datos: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Recursos/openfootball").path

    @Test func importaLosDosMundialesYReimportarNoAnadeNada() async throws {
        let escenario = Escenario()
        let primero = try await escenario.marcador("importar", Self.datos + "/worldcup-2018.json")
        #expect(primero.codigo == 0)
        #expect(
            primero.salida == """
                World Cup 2018 («worldcup-2018.json»): 64 partidos, 169 goles · nuevos 64, ya estaban 0, sin detalle de goles 0, con advertencias 0.

                """)
        let segundo = try await escenario.marcador("importar", Self.datos + "/worldcup-2026.json")
        #expect(
            segundo.salida.hasSuffix(
                "104 partidos, 308 goles · nuevos 104, ya estaban 0, sin detalle de goles 0, con advertencias 1.\n"
            ))
        #expect(
            segundo.error.contains(
                "advertencia: partido 102 (England – Argentina): el gol de Lautaro Martínez en el minuto 92 se lee como 90+2"
            ))
        let otraVez = try await escenario.marcador("importar", Self.datos + "/worldcup-2026.json")
        // Imported again, the file is described as it is (issue 42): the same goals, the same
        // warning; only «nuevos» and «ya estaban» say that nothing was added.
        #expect(
            otraVez.salida.hasSuffix(
                "104 partidos, 308 goles · nuevos 0, ya estaban 104, sin detalle de goles 0, con advertencias 1.\n"
            ), "\(otraVez.salida)")
        let lista = try await escenario.marcador(
            "partidos", "--competicion", "World Cup 2018", "--json"
        ).salida
        let partidos = try JSONSerialization.jsonObject(with: Data(lista.utf8)) as? [[String: Any]]
        #expect(partidos?.count == 64)
        let final = try #require(
            partidos?.first {
                $0["local"] as? String == "France" && $0["visitante"] as? String == "Croatia"
            })
        let id = try #require(final["id"] as? Int)
        let jugado = try await escenario.marcador("jugar", "\(id)", "--ms-por-minuto", "0")
        #expect(jugado.salida.hasSuffix("Partido terminado: France 4-2 Croatia (90 minutos).\n"))
        #expect(
            jugado.salida.contains(
                "Gol: Mandžukić (Croatia, en propia puerta), minuto 18. France 1-0 Croatia"))
    }

    @Test func simularNoGuardaNada() async throws {
        let escenario = Escenario()
        let prueba = try await escenario.marcador(
            "importar", Self.datos + "/worldcup-2018.json", "--simular")
        #expect(prueba.codigo == 0)
        #expect(prueba.salida.hasSuffix("(simulación: no se ha guardado nada)\n"))
        #expect(
            try await escenario.marcador("partidos", "--competicion", "World Cup 2018").codigo == 66
        )
    }

    @Test func unFicheroMalEscritoNoImportaNadaYDejaLaBaseComoEstaba() async throws {
        let escenario = Escenario()
        _ = try await escenario.marcador("partidos")
        let antes = escenario.bytes(escenario.db)
        var azar = Azar(para: "ruido del importador")
        // 50 MB of noise: one random megabyte, repeated (generating 50 M random bytes one by one
        // would dominate the test's time without making the input any harder).
        let mega = Data(azar.bytes(1024 * 1024))
        var ruido = Data(capacity: 50 * mega.count)
        for _ in 0..<50 { ruido.append(mega) }
        let casos: [(String, Data, String)] = [
            ("vacio.json", Data(), "el fichero está vacío"),
            ("texto.json", Data("hola".utf8), "no es JSON válido"),
            (
                "tipos.json", Data("{\"matches\": [{\"team1\": [], \"team2\": \"B\"}]}".utf8),
                "team1: una lista no es un equipo"
            ),
            (
                "abc.json",
                Data(
                    "{\"matches\": [{\"team1\": \"A\", \"team2\": \"B\"}, {\"team1\": \"C\", \"team2\": \"D\", \"goals1\": [{\"name\": \"x\", \"minute\": \"abc\"}]}]}"
                        .utf8),
                "partido 2 (C – D): goals1[0].minute: «abc» no es un minuto"
            ),
            (
                "negativo.json",
                Data(
                    "{\"matches\": [{\"team1\": \"A\", \"team2\": \"B\", \"goals2\": [{\"name\": \"x\", \"minute\": -1}]}]}"
                        .utf8),
                "goals2[0].minute: -1 no es un minuto"
            ),
            (
                "sinequipo.json", Data("{\"matches\": [{\"team1\": \"A\"}]}".utf8),
                "partido 1: team2: falta el equipo"
            ),
            ("ruido.json", ruido, "no es JSON válido"),
        ]
        for (nombre, contenido, texto) in casos {
            let ruta = escenario.carpeta + "/" + nombre
            _ = FileManager.default.createFile(atPath: ruta, contents: contenido)
            let resultado = try await escenario.marcador("importar", ruta)
            #expect(resultado.codigo == 65, "\(nombre)")
            #expect(
                resultado.error.hasPrefix("marcador: No se importa nada de «\(ruta)»: "),
                "\(nombre)")
            #expect(resultado.error.contains(texto), "\(nombre): \(resultado.error)")
            #expect(resultado.sinTrazaDeFallo)
        }
        #expect(escenario.bytes(escenario.db) == antes)
        #expect(
            try await escenario.marcador("partidos", "--json").salida.components(
                separatedBy: "\"id\""
            ).count == 4)
    }

    @Test func ficherosQueNoEstan() async throws {
        let escenario = Escenario()
        let noHay = try await escenario.marcador("importar", escenario.carpeta + "/no-hay.json")
        #expect(noHay.codigo == 66)
        #expect(noHay.error.contains("No existe el fichero"))
        // A folder stands for its .json files; one without any says so.
        let vacia = escenario.carpeta + "/vacia"
        try FileManager.default.createDirectory(atPath: vacia, withIntermediateDirectories: true)
        let carpeta = try await escenario.marcador("importar", vacia)
        #expect(carpeta.codigo == 66)
        #expect(carpeta.error == "marcador: La carpeta «\(vacia)» no tiene ficheros .json.\n")
        #expect(try await escenario.marcador("importar").codigo == 64)
    }
}
