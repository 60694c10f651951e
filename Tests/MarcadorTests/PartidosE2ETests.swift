import Almacen
import Foundation
import Testing

@Suite("marcador partidos (binario)")
struct PartidosE2ETests {
    @Test func unaBaseNuevaListaLosTresPartidosDeEjemplo() async throws {
        let escenario = Escenario()
        let resultado = try await escenario.marcador("partidos")
        #expect(resultado.codigo == 0)
        #expect(resultado.error == "")
        #expect(
            resultado.salida == """
                ID  LOCAL               VISITANTE    ESTADO       MINUTO  MARCADOR  DURACIÓN
                 1  Rayo FC             Toros        Sin empezar       0  0-0             90
                 2  Águilas CF          Cigüeñas FC  Sin empezar       0  0-0             90
                 3  Dragones del Norte  Halcones     Sin empezar       0  0-0            120

                """)
    }

    @Test func elJSONSeLeeYCoincideConLaTabla() async throws {
        let escenario = Escenario()
        let json = try await escenario.marcador("partidos", "--json")
        #expect(json.codigo == 0)
        let lista = try #require(
            try JSONSerialization.jsonObject(with: Data(json.salida.utf8)) as? [[String: Any]])
        let tabla = try await escenario.marcador("partidos").salida.split(separator: "\n")
            .dropFirst()
        #expect(lista.count == tabla.count)
        for (objeto, fila) in zip(lista, tabla) {
            let esperado = [
                "\(objeto["id"]!)", "\(objeto["local"]!)", "\(objeto["visitante"]!)",
                "\(objeto["estadoTexto"]!)", "\(objeto["minuto"]!)", "\(objeto["marcador"]!)",
                "\(objeto["duracion"]!)",
            ]
            let celdas = fila.split(separator: "  ", omittingEmptySubsequences: true).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            #expect(celdas == esperado)
        }
    }

    /// 6,000 matches (a listing bigger than the table's pieces and its output buffer), with
    /// accented, decomposed and crafted names: every line matches a layout computed here, column
    /// widths counted in characters, control characters shown escaped.
    @Test func unaListaGrandeSaleAlineadaYEntera() async throws {
        let escenario = Escenario()
        try await escenario.marcador("partidos")
        let nombres = [
            "Ñandú FC", "Mbappe\u{301} Unidos", "Malo\u{1B}[2J", "A", "Equipo con nombre largo",
        ]
        do {
            let db = try Database(path: escenario.db)
            try db.transaction {
                for (i, nombre) in nombres.enumerated() {
                    try db.execute("INSERT INTO equipo (id, nombre) VALUES (?, ?)", 100 + i, nombre)
                }
                for i in 0..<5_997 {
                    try db.execute(
                        "INSERT INTO partido (local_id, visitante_id) VALUES (?, ?)",
                        100 + i % 5, 100 + (i + 1) % 5)
                }
            }
        }
        let resultado = try await escenario.marcador("partidos")
        #expect(resultado.codigo == 0)
        let lineas = resultado.salida.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lineas.count == 6_000 + 2)
        #expect(lineas.last == "")
        let json = try await escenario.marcador("partidos", "--json")
        let lista = try #require(
            try JSONSerialization.jsonObject(with: Data(json.salida.utf8)) as? [[String: Any]])
        #expect(lista.count == 6_000)
        func visible(_ texto: String) -> String {
            texto.replacingOccurrences(of: "\u{1B}", with: "\\x1B")
        }
        let filas = lista.map { objeto in
            [
                "\(objeto["id"]!)", visible("\(objeto["local"]!)"),
                visible("\(objeto["visitante"]!)"), "\(objeto["estadoTexto"]!)",
                "\(objeto["minuto"]!)", "\(objeto["marcador"]!)", "\(objeto["duracion"]!)",
            ]
        }
        let cabeceras = ["ID", "LOCAL", "VISITANTE", "ESTADO", "MINUTO", "MARCADOR", "DURACIÓN"]
        let anchos = cabeceras.indices.map { c in
            ([cabeceras[c]] + filas.map { $0[c] }).map(\.count).max()!
        }
        func linea(_ celdas: [String]) -> String {
            var texto = celdas.enumerated().map { c, celda in
                let relleno = String(repeating: " ", count: anchos[c] - celda.count)
                return [0, 4, 6].contains(c) ? relleno + celda : celda + relleno
            }.joined(separator: "  ")
            while texto.hasSuffix(" ") { texto.removeLast() }
            return texto
        }
        #expect(String(lineas[0]) == linea(cabeceras))
        var distintas = 0
        for (fila, impresa) in zip(filas, lineas.dropFirst()) where linea(fila) != String(impresa) {
            distintas += 1
            if distintas < 3 { Issue.record("«\(impresa)» ≠ «\(linea(fila))»") }
        }
        #expect(distintas == 0)
        #expect(!resultado.salida.contains("\u{1B}"))
    }

    @Test func reiniciarDatosRestauraLasSemillas() async throws {
        let escenario = Escenario()
        try await escenario.marcador("partidos")
        do {
            let db = try Database(path: escenario.db)
            try db.execute("PRAGMA foreign_keys = ON")
            try db.execute("DELETE FROM partido WHERE id = 2")
            try db.execute("UPDATE equipo SET nombre = 'Otro' WHERE id = 1")
        }
        let cambiada = try await escenario.marcador("partidos", "--json").salida
        #expect(!cambiada.contains("Águilas CF"))
        #expect(cambiada.contains("Otro"))
        let reiniciada = try await escenario.marcador("--reiniciar-datos", "partidos")
        #expect(reiniciada.codigo == 0)
        #expect(reiniciada.salida.contains("Águilas CF"))
        #expect(reiniciada.salida.contains("Rayo FC"))
        #expect(!reiniciada.salida.contains("Otro"))
        // What it removed is said, with the count (issue 42): on stderr beside a command.
        #expect(
            reiniciada.error
                == "marcador: Datos reiniciados en «\(escenario.db)»: 2 partidos quitados (con sus equipos, ejecuciones y avisos); quedan 3 partidos de ejemplo.\n"
        )
        #expect(
            try await escenario.marcador(
                "importar", FutbolRealE2ETests.datos + "/worldcup-2018.json"
            ).codigo == 0)
        let sola = try await escenario.marcador("--reiniciar-datos")
        #expect(
            sola.salida
                == "Datos reiniciados en «\(escenario.db)»: 67 partidos quitados (con sus equipos, ejecuciones y avisos); quedan 3 partidos de ejemplo.\n"
        )
    }

    @Test func marcadorDBYXDGEligenLaBase() async throws {
        let escenario = Escenario()
        let porEntorno = escenario.carpeta + "/entorno.sqlite3"
        #expect(
            try await escenario.marcadorSinDB(["partidos"], entorno: ["MARCADOR_DB": porEntorno])
                .codigo
                == 0)
        #expect(FileManager.default.fileExists(atPath: porEntorno))
        let xdg = escenario.carpeta + "/datos"
        #expect(
            try await escenario.marcadorSinDB(["partidos"], entorno: ["XDG_DATA_HOME": xdg]).codigo
                == 0)
        #expect(FileManager.default.fileExists(atPath: xdg + "/marcador/marcador.sqlite3"))
        #expect(try await escenario.marcadorSinDB(["partidos"]).codigo == 0)
        #expect(
            FileManager.default.fileExists(
                atPath: escenario.carpeta + "/.local/share/marcador/marcador.sqlite3"))
    }

    @Test func filtraPorCompeticion() async throws {
        let escenario = Escenario()
        let resultado = try await escenario.marcador("partidos", "--competicion", "Mundial")
        #expect(resultado.codigo == 66)
        #expect(
            resultado.error
                == "marcador: No hay ninguna competición llamada «Mundial». Todavía no hay competiciones.\n"
        )
    }
}
