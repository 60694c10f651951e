import Almacen
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// safety.md through the binary: hostile names never reach a terminal raw, files are private,
/// careless input loses nothing, real files import whole.
@Suite("Seguridad de lo que se muestra y se guarda (binario)")
struct SeguridadE2ETests {
    static let hayScript = FileManager.default.isExecutableFile(atPath: "/usr/bin/script")

    /// Bytes that data must never put on a terminal: C0 but newline, DEL, and C1 (U+0080–U+009F).
    static func controlesCrudos(_ texto: String, permitir: Set<UInt32> = [10]) -> [UInt32] {
        texto.unicodeScalars.map(\.value).filter {
            ($0 < 0x20 && !permitir.contains($0)) || ($0 >= 0x7F && $0 <= 0x9F)
        }
    }

    func escribir(_ texto: String, en escenario: Escenario, _ nombre: String) -> String {
        let ruta = escenario.carpeta + "/" + nombre
        _ = FileManager.default.createFile(atPath: ruta, contents: Data(texto.utf8))
        return ruta
    }

    func volcado(_ escenario: Escenario) throws -> String {
        let queue = try DatabaseQueue(Database(path: escenario.db))
        return try queue.read { db in
            try [
                "equipo", "jugador", "partido", "evento", "ejecucion", "aviso", "entrega", "ajuste",
            ]
            .map { tabla in
                try db.rows("SELECT * FROM \(tabla) ORDER BY 1") { fila in
                    (0..<fila.columnCount).map { "\(fila.value($0))" }.joined(separator: "|")
                }.joined(separator: "\n")
            }.joined(separator: "\n--\n")
        }
    }

    @Test func unFicheroConNombresHostilesSeRechazaEntero() async throws {
        let escenario = Escenario()
        _ = try await escenario.marcador("partidos")
        let antes = try volcado(escenario)
        let ruta = escribir(
            """
            {"name": "Copa \\u001b]0;retitulado\\u0007", "matches": [{"team1": "A", "team2": "B"}]}
            """, en: escenario, "hostil.json")
        let resultado = try await escenario.marcador("importar", ruta)
        #expect(resultado.codigo == 65)
        #expect(
            resultado.error.contains(
                "«name» (la competición) tiene un carácter de control (\\x1B)"))
        #expect(Self.controlesCrudos(resultado.error + resultado.salida).isEmpty)
        let equipo = escribir(
            """
            {"name": "Copa", "matches": [{"team1": "A", "team2": "B"},
              {"team1": "C\\u009b2J", "team2": "D", "goals1": [{"name": "x", "minute": 1}]}]}
            """, en: escenario, "hostil2.json")
        let otro = try await escenario.marcador("importar", equipo)
        #expect(otro.codigo == 65)
        #expect(
            otro.error.contains(
                "partido 2: team1: el nombre tiene un carácter de control (\\u009B)"))
        #expect(try volcado(escenario) == antes)
    }

    /// Names are limited in bytes and in combining marks, not only in characters: a letter
    /// with 40,000 accents, a 10 MB name and bidi overrides never get in (round 2: the first
    /// made every table trap, the second gave a 94 MB database).
    @Test func unNombreEnormeOApiladoNoSeImporta() async throws {
        let escenario = Escenario()
        _ = try await escenario.marcador("partidos")
        let antes = try volcado(escenario)
        let apilado = "A" + String(repeating: "\u{0301}", count: 40)
        let enorme = String(repeating: "x", count: 10_000_000)
        for (nombre, motivo) in [
            (apilado, "lleva 40 acentos o marcas sobre una misma letra"),
            (apilado + String(repeating: "\u{0301}", count: 40_000), "pasa de 800 bytes"),
            (enorme, "pasa de 800 bytes"), ("Ana\u{202E}FC", "\\u202E"),
        ] {
            let documento: [String: Any] = [
                "name": "Copa",
                "matches": [
                    ["team1": "A", "team2": "B", "goals1": [["name": nombre, "minute": 1]]]
                ],
            ]
            let datos = try JSONSerialization.data(withJSONObject: documento)
            let ruta = escenario.carpeta + "/crafted.json"
            #expect(FileManager.default.createFile(atPath: ruta, contents: datos))
            let resultado = try await escenario.marcador("importar", ruta)
            #expect(resultado.codigo == 65, "\(motivo)")
            #expect(resultado.error.contains(motivo), "\(resultado.error.prefix(300))")
            #expect(resultado.error.utf8.count < 2_000, "\(motivo)")
            #expect(resultado.sinTrazaDeFallo)
        }
        #expect(try volcado(escenario) == antes)
    }

    /// A database edited by another tool holds cells no import would let in (16–64 KiB, 40,000
    /// accents, bidi overrides): every table still renders, without a trap or a NUL byte, each
    /// cell cut to fit.
    @Test func lasTablasAguantanCualquierCelda() async throws {
        let escenario = Escenario()
        _ = try await escenario.marcador("avisos", "activar")
        let queue = try Almacen.abrir(ruta: escenario.db)
        let apilado = "A" + String(repeating: "\u{0301}", count: 40_000)
        try queue.write { db in
            try db.execute("UPDATE equipo SET nombre = ? WHERE id = 1", apilado)
            try db.execute(
                "UPDATE jugador SET nombre = ? WHERE id = 3", String(repeating: "ñ", count: 32_768))
            try db.execute(
                "UPDATE partido SET competicion = ? WHERE id = 1",
                "Copa\u{202E}\u{200B}" + String(repeating: "é", count: 20_000))
        }
        _ = try await escenario.marcador("jugar", "1", "--ms-por-minuto", "0")
        let copa = "Copa\u{202E}\u{200B}" + String(repeating: "é", count: 20_000)
        for argumentos in [
            ["partidos"], ["avisos"], ["registro"], ["goleadores", "--competicion", copa],
        ] {
            let resultado = try await escenario.marcadorSinDB(["--db", escenario.db] + argumentos)
            #expect(resultado.codigo == 0, "\(argumentos): \(resultado.error.prefix(300))")
            #expect(resultado.sinTrazaDeFallo, "\(argumentos)")
            #expect(!resultado.salida.utf8.contains(0), "\(argumentos)")
            #expect(!resultado.salida.contains("\u{202E}"), "\(argumentos)")
            #expect(resultado.salida.utf8.count < 200_000, "\(argumentos)")
        }
        // The match's own page shows the names whole (escaped), whatever their size.
        let ficha = try await escenario.marcador("partido", "1")
        #expect(ficha.codigo == 0)
        #expect(ficha.sinTrazaDeFallo)
        #expect(!ficha.salida.utf8.contains(0))
        #expect(ficha.salida.contains("\\u202E\\u200B"))
    }

    /// A database written before the import checks (or by hand) may hold hostile names: every
    /// command still shows them escaped, piped or on a terminal.
    @Test func ningunaSalidaLlevaControlesDeLosDatos() async throws {
        let escenario = Escenario()
        _ = try await escenario.marcador("avisos", "activar")
        let queue = try Almacen.abrir(ruta: escenario.db)
        try queue.write { db in
            try db.execute(
                "UPDATE equipo SET nombre = ? WHERE id = 1", "Rayo\u{1B}]0;pwn\u{07}FC\u{1B}[2J")
            try db.execute(
                "UPDATE jugador SET nombre = ? WHERE id = 3", "Lu\u{1B}]52;c;eA==\u{07}is\nfalsa")
            try db.execute("UPDATE partido SET competicion = ? WHERE id = 1", "Copa\u{9B}31m\r")
        }
        var salidas: [String] = []
        for argumentos in [
            ["jugar", "1", "--ms-por-minuto", "0"], ["partidos"], ["partidos", "--json"],
            ["registro"], ["registro", "--json"], ["avisos"], ["avisos", "--json"],
            ["partidos", "--competicion", "Copa\u{9B}31m\r"],
        ] {
            let resultado = try await escenario.marcadorSinDB(["--db", escenario.db] + argumentos)
            #expect(resultado.codigo == 0, "\(argumentos)")
            salidas.append(resultado.salida + resultado.error)
            #expect(
                Self.controlesCrudos(resultado.salida + resultado.error).isEmpty, "\(argumentos)")
        }
        let todo = salidas.joined()
        #expect(todo.contains("Rayo\\x1B]0;pwn\\x07FC\\x1B[2J"))
        #expect(todo.contains("Lu\\x1B]52;c;eA==\\x07is\\x0Afalsa"))
        if Self.hayScript {
            // On a terminal our own escape codes are there (status line, colour, bell), but
            // never one from the data.
            let orden = "\(Binario.ruta) --db \(escenario.db) jugar 1 --ms-por-minuto 1"
            let terminal = await
                (try Proceso(
                    ["-qec", orden, "/dev/null"], carpeta: escenario.carpeta,
                    ejecutable: "/usr/bin/script")).esperar()
            #expect(terminal.codigo == 0)
            #expect(!terminal.salida.contains("\u{1B}]"))
            #expect(!terminal.salida.contains("\u{1B}[2J"))
            #expect(!terminal.salida.contains("\u{9B}"))
            #expect(terminal.salida.contains("Rayo\\x1B]0;pwn\\x07FC"))
        }
    }

    /// Whatever wrote the database (issue 41): bidi and zero-width characters printed raw in
    /// `partidos --json`, and a 1 MB name made `jugar` print 12 MB. Every output shows names
    /// escaped and cut to the import's 200 characters.
    @Test func unaBaseEscritaPorOtraHerramientaSeMuestraSegura() async throws {
        let escenario = Escenario()
        _ = try await escenario.marcador("avisos", "activar")
        let enorme = String(repeating: "L", count: 1_000_000)
        let queue = try Almacen.abrir(ruta: escenario.db)
        try queue.write { db in
            try db.execute("UPDATE equipo SET nombre = ? WHERE id = 1", "Rayo\u{202E}\u{200B} FC")
            try db.execute("UPDATE jugador SET nombre = ? WHERE id = 3", enorme + "\u{2066}")
        }
        let formato: Set<UInt32> = [0x202E, 0x200B, 0x2066]
        var total = 0
        for argumentos in [
            ["jugar", "1", "--ms-por-minuto", "0"], ["partidos"], ["partidos", "--json"],
            ["partido", "1"], ["partido", "1", "--json"], ["registro"], ["avisos", "--json"],
        ] {
            let resultado = try await escenario.marcadorSinDB(["--db", escenario.db] + argumentos)
            #expect(resultado.codigo == 0, "\(argumentos)")
            let todo = resultado.salida + resultado.error
            total += todo.utf8.count
            #expect(
                !todo.unicodeScalars.contains { formato.contains($0.value) }, "\(argumentos)")
            #expect(todo.utf8.count < 20_000, "\(argumentos): \(todo.utf8.count) bytes")
            if argumentos == ["partidos"] {
                #expect(todo.contains("Rayo\\u202E\\u200B FC"), "\(argumentos)")
            }
        }
        let registro = try await escenario.marcador("registro").salida
        #expect(registro.contains(String(repeating: "L", count: 199) + "…, minuto 35"))
        #expect(total < 100_000)
    }

    /// The desktop gets the same safe texts: a real notification daemon (dunst, read with
    /// dbus-monitor) is never handed a raw control character from the data.
    @Test(.enabled(if: Escritorio.falta == nil, Comment(rawValue: Escritorio.falta ?? "")))
    func elEscritorioNoRecibeControlesDeLaBase() async throws {
        let escenario = Escenario()
        _ = try await escenario.marcador("avisos", "activar")
        let queue = try Almacen.abrir(ruta: escenario.db)
        try queue.write { db in
            try db.execute(
                "UPDATE jugador SET nombre = ? WHERE id = 3", "Lu\u{1B}[2J\u{202E}is\u{7}")
        }
        let monitor = escenario.carpeta + "/monitor.txt"
        let b = "\(Binario.ruta) --db \(escenario.db)"
        let guion = """
            dbus-monitor "interface=org.freedesktop.Notifications,member=Notify" > \(monitor) 2>&1 &
            esperar() { for i in $(seq 200); do eval "$1" && return; sleep 0.1; done; }
            esperar 'grep -q NameAcquired \(monitor)'
            \(b) avisos canales añadir escritorio && \(b) jugar 1 --ms-por-minuto 0
            \(b) avisos enviar
            esperar 'grep -q "minuto 35" \(monitor)'
            """
        let proceso = try Escritorio.proceso(["sh", "-c", guion], carpeta: escenario.carpeta)
        let resultado = await proceso.esperar(limite: 60)
        #expect(resultado.codigo == 0, "\(resultado.error)")
        let visto = (try? String(contentsOfFile: monitor, encoding: .utf8)) ?? ""
        // notify-send reads backslashes in the body as escapes of its own and drops them: the
        // escaped characters arrive as plain text.
        #expect(visto.contains("x1B[2Ju202Eisx07 (Rayo FC), minuto 35"), "\(visto)")
        #expect(!visto.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
    }

    @Test func losFicherosQueCreaSonPrivados() async throws {
        let escenario = Escenario()
        let apns = escenario.carpeta + "/apns"
        try FileManager.default.createDirectory(atPath: apns, withIntermediateDirectories: false)
        // Even under umask 000, which would leave 0666 files.
        let orden = """
            umask 000 && M=\(Binario.ruta) && \
            $M --db \(escenario.db) avisos activar >/dev/null && \
            $M --db \(escenario.db) avisos canales añadir apns --directorio \(apns) >/dev/null && \
            $M --db \(escenario.db) jugar 1 --ms-por-minuto 0 >/dev/null 2>&1 && \
            stat -c '%a %n' \(escenario.db) \(escenario.db)-wal \(escenario.db)-shm \(apns)/*
            """
        let resultado = await
            (try Proceso(
                ["-c", orden], carpeta: escenario.carpeta, ejecutable: "/bin/sh")).esperar()
        let modos = resultado.salida.split(separator: "\n").map { $0.prefix(3) }
        #expect(modos.count == 8, "\(resultado.salida)\(resultado.error)")
        #expect(modos.allSatisfy { $0 == "600" }, "\(resultado.salida)")
        // The seed's attachment lives in the binary: nothing beside the database.
        #expect(!FileManager.default.fileExists(atPath: escenario.carpeta + "/marcador-semillas"))
    }

    @Test func unaBaseQueEsUnEnlaceSimbolicoNoSeAbre() async throws {
        let escenario = Escenario()
        let victima = escenario.carpeta + "/victima"
        _ = FileManager.default.createFile(atPath: victima, contents: Data("intacto".utf8))
        try FileManager.default.createSymbolicLink(
            atPath: escenario.db, withDestinationPath: victima)
        let resultado = try await escenario.marcador("partidos")
        #expect(resultado.codigo == 74)
        #expect(resultado.error.contains("enlace simbólico"))
        #expect(try String(contentsOfFile: victima, encoding: .utf8) == "intacto")
    }

    @Test func sinHomeSePideDb() async throws {
        let escenario = Escenario()
        let resultado = try await Proceso(
            ["partidos"], entorno: ["HOME": ""], carpeta: escenario.carpeta
        ).esperar()
        #expect(resultado.codigo == 64)
        #expect(resultado.error.contains("No hay HOME ni XDG_DATA_HOME"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/.local/share/marcador"))
        let vacia = try await escenario.marcadorSinDB(["--db", "", "gol-a-mano", "1", "local"])
        #expect(vacia.codigo == 64)
        #expect(vacia.error.contains("--db necesita una ruta"))
    }

    /// `--reiniciar-datos` with a command that would fail leaves everything as it was.
    @Test func reiniciarConUnComandoQueFallaNoTocaNada() async throws {
        let escenario = Escenario()
        _ = try await escenario.marcador("jugar", "1", "--ms-por-minuto", "0")
        _ = try await escenario.marcador("gol-a-mano", "2", "local")
        let antes = try volcado(escenario)
        let casos: [([String], Int32)] = [
            (["--reiniciar-datos", "jugar", "99"], 66),
            (["--reiniciar-datos", "jugar", "1", "--reanudar"], 64),
            (["--reiniciar-datos", "jugar", "1", "--duracion", "120"], 64),
            (["--reiniciar-datos", "gol-a-mano", "42", "local"], 66),
            (["--reiniciar-datos", "registro", "--partido", "77"], 66),
            (["--reiniciar-datos", "jugar", "uno"], 64),
        ]
        for (argumentos, codigo) in casos {
            let resultado = try await escenario.marcadorSinDB(["--db", escenario.db] + argumentos)
            #expect(resultado.codigo == codigo, "\(argumentos): \(resultado.error)")
            #expect(try volcado(escenario) == antes, "\(argumentos)")
        }
        let bien = try await escenario.marcador("--reiniciar-datos", "partidos")
        #expect(bien.codigo == 0)
        #expect(try volcado(escenario) != antes)
    }

    @Test func unCanalConUnNombreQueExisteNoSeReemplazaSinPedirlo() async throws {
        let escenario = Escenario()
        let otra = try await escenario.marcador(
            "avisos", "canales", "añadir", "webhook", "--nombre", "registro", "--url",
            "http://127.0.0.1:9/x")
        #expect(otra.codigo == 64)
        #expect(otra.error.contains("Ya hay un canal llamado «registro»"))
        #expect(otra.error.contains("--reemplazar"))
        let lista = try await escenario.marcador("avisos", "canales")
        #expect(lista.salida.contains("registro  registro"))
        for (url, motivo) in [
            ("http://[::1", "no tiene un nombre de servidor válido"),
            ("http://h.es:99999/x", "el puerto debe ser un número de 1 a 65535"),
            ("http://SECRETO@/x", "no tiene un nombre de servidor válido"),
        ] {
            let mal = try await escenario.marcador(
                "avisos", "canales", "añadir", "webhook", "--url", url)
            #expect(mal.codigo == 64, "\(url)")
            #expect(mal.error.contains(motivo), "\(url): \(mal.error)")
            #expect(!mal.error.contains("SECRETO"))
        }
        let reemplazo = try await escenario.marcador(
            "avisos", "canales", "añadir", "registro", "--nombre", "registro", "--reemplazar")
        #expect(reemplazo.codigo == 0)
        #expect(reemplazo.salida == "Canal «registro» (registro) guardado.\n")
    }

    /// Real files write the first minute of added time after extra time as `121`: it imports
    /// with one warning, shows as 120+1 and replays to `score.et`.
    @Test func unMinuto121SeImportaYSeJuegaHastaElResultado() async throws {
        let escenario = Escenario()
        let ruta = escribir(
            """
            {"name": "Copa 121", "matches": [{"date": "2022-12-18", "team1": "Argentina", "team2": "France",
              "score": {"ft": [2, 2], "et": [3, 3], "p": [4, 2]},
              "goals1": [{"name": "Messi", "minute": 23, "penalty": true}, {"name": "Di María", "minute": 36},
                         {"name": "Messi", "minute": 108}],
              "goals2": [{"name": "Mbappé", "minute": 80, "penalty": true}, {"name": "Mbappé", "minute": 81},
                         {"name": "Mbappé", "minute": 121, "penalty": true}]}]}
            """, en: escenario, "final.json")
        let importado = try await escenario.marcador("importar", ruta)
        #expect(importado.codigo == 0)
        #expect(
            importado.error
                == "advertencia: partido 1 (Argentina – France): el gol de Mbappé en el minuto 121 se lee como 120+1 (tiempo añadido de la prórroga)\n"
        )
        #expect(
            importado.salida.hasPrefix("Copa 121 («final.json»): 1 partido, 6 goles · nuevos 1,"))
        let jugado = try await escenario.marcador("jugar", "4", "--ms-por-minuto", "0")
        #expect(jugado.codigo == 0)
        #expect(jugado.salida.contains("Gol: Mbappé (France, de penalti), minuto 120+1."))
        #expect(jugado.salida.hasSuffix("Partido terminado: Argentina 3-3 France (120 minutos).\n"))
    }

    /// One player, two goals in one minute: two notices, two identifiers.
    @Test func dosGolesDeUnJugadorEnUnMinutoSonDosAvisos() async throws {
        let escenario = Escenario()
        let ruta = escribir(
            """
            {"name": "Doblete", "matches": [{"date": "2022-01-01", "team1": "France", "team2": "Peru",
              "goals1": [{"name": "Mbappé", "minute": 80}, {"name": "Mbappé", "minute": 80}]}]}
            """, en: escenario, "doblete.json")
        #expect(try await escenario.marcador("importar", ruta).codigo == 0)
        _ = try await escenario.marcador("avisos", "activar")
        let jugado = try await escenario.marcador("jugar", "4", "--ms-por-minuto", "0")
        #expect(jugado.error.contains("notificación «¡Gol!» enviada: Mbappé, minuto 80 (France)\n"))
        let avisos = try await escenario.marcador("avisos", "--json").salida
        #expect(avisos.contains("\"identificador\" : \"gol-80-Mbappé\""))
        #expect(avisos.contains("\"identificador\" : \"gol-80-Mbappé-2\""))
    }
}
