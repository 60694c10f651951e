import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The command layer as a user meets it: help for every node of the tree, `--json` on every
/// listing, completions that a shell accepts, a status line that fits the terminal.
@Suite("Árbol de comandos (binario)")
struct ArbolDeComandosE2ETests {
    static let hayScript = FileManager.default.isExecutableFile(atPath: "/usr/bin/script")

    /// Every command path, read from the binary's own help (so a new command is walked too).
    func arbol(_ escenario: Escenario) async throws -> [[String]] {
        var pendientes: [[String]] = [[]]
        var todos: [[String]] = []
        while let ruta = pendientes.popLast() {
            todos.append(ruta)
            let ayuda = try await escenario.marcadorSinDB(ruta + ["--help"]).salida
            guard let inicio = ayuda.range(of: ruta.isEmpty ? "\nComandos:\n" : "\nSubcomandos:\n")
            else { continue }
            for linea in ayuda[inicio.upperBound...].split(
                separator: "\n", omittingEmptySubsequences: false)
            {
                if linea.hasPrefix("   ") { continue }  // a wrapped description
                guard linea.hasPrefix("  "), let nombre = linea.split(separator: " ").first else {
                    break
                }
                pendientes.append(ruta + [String(nombre)])
            }
        }
        return todos
    }

    @Test func cadaComandoYSubcomandoTieneSuAyuda() async throws {
        let escenario = Escenario()
        let rutas = try await arbol(escenario)
        #expect(rutas.count >= 30, "\(rutas)")
        #expect(rutas.contains(["avisos", "canales", "añadir", "webhook"]))
        #expect(rutas.contains(["ajustes", "duracion"]))
        var usos = Set<String>()
        for ruta in rutas {
            let ayuda = try await escenario.marcadorSinDB(ruta + ["--help"])
            #expect(ayuda.codigo == 0, "\(ruta)")
            let uso = "Uso: " + (["marcador"] + ruta).joined(separator: " ")
            #expect(ayuda.salida.contains(uso), "\(ruta)")
            #expect(ayuda.salida.contains("Opciones globales"), "\(ruta)")
            usos.insert(ayuda.salida)
            // `help <ruta>` says the same thing.
            let otra = try await escenario.marcadorSinDB(["help"] + ruta)
            #expect(otra.salida == ayuda.salida, "\(ruta)")
            // …and every line of it fits 80 columns but the usage of long commands.
            for linea in ayuda.salida.split(separator: "\n") where !linea.hasPrefix("Uso:") {
                #expect(linea.count <= 80, "\(ruta): \(linea)")
            }
        }
        #expect(usos.count == rutas.count)  // no node prints another node's help
        #expect(!FileManager.default.fileExists(atPath: escenario.db))
    }

    @Test func losErroresSenalanLaAyudaDeSuSubcomandoYSugieren() async throws {
        let escenario = Escenario()
        let tipo = try await escenario.marcador(
            "avisos", "canales", "añadir", "webhok", "--url", "x")
        #expect(tipo.codigo == 64)
        #expect(
            tipo.error
                == "marcador: Subcomando desconocido «webhok». ¿Querías decir «webhook»? Subcomandos: registro, escritorio, webhook, apns, navegador.\nPrueba «marcador avisos canales añadir --help».\n"
        )
        let opcion = try await escenario.marcador("jugar", "1", "--duracoin", "60")
        #expect(opcion.error.contains("¿Querías decir «--duracion»?"))
        #expect(opcion.error.hasSuffix("Prueba «marcador jugar --help».\n"))
        let comando = try await escenario.marcador("jugra")
        #expect(comando.error.contains("¿Querías decir «jugar»?"))
        let ayuda = try await escenario.marcador("help", "avisoss")
        #expect(ayuda.codigo == 64)
        #expect(ayuda.error.contains("¿Querías decir «avisos»?"))
        #expect(try await escenario.marcador("-V").salida.hasPrefix("marcador 0."))
    }

    /// One test runs every listing with `--json` and parses what it printed.
    @Test func todosLosListadosHablanJSON() async throws {
        let escenario = Escenario()
        _ = try await escenario.marcador("jugar", "1", "--ms-por-minuto", "0")
        for listado in [
            ["partidos"], ["ajustes"], ["avisos"], ["avisos", "canales"], ["registro"],
        ] {
            let resultado = try await escenario.marcadorSinDB(
                ["--db", escenario.db] + listado + ["--json"])
            #expect(resultado.codigo == 0, "\(listado)")
            #expect(
                (try? JSONSerialization.jsonObject(with: Data(resultado.salida.utf8))) != nil,
                "\(listado): \(resultado.salida.prefix(80))")
        }
    }

    @Test func elCompletadoDeBashFuncionaYBashLoAcepta() async throws {
        let escenario = Escenario()
        let script = try await escenario.marcadorSinDB(["completado", "bash"]).salida
        let ruta = escenario.carpeta + "/marcador.bash"
        _ = FileManager.default.createFile(atPath: ruta, contents: Data(script.utf8))
        let sintaxis = try await Proceso(
            ["-n", ruta], carpeta: escenario.carpeta, ejecutable: "/bin/bash"
        ).esperar()
        #expect(sintaxis.codigo == 0, "\(sintaxis.error)")
        func completar(_ palabras: [String]) async throws -> [String] {
            let lista = palabras.map { "'\($0)'" }.joined(separator: " ")
            let orden = """
                source \(ruta); COMP_WORDS=(\(lista)); COMP_CWORD=\(palabras.count - 1); _marcador; \
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            return try await Proceso(
                ["-c", orden], carpeta: escenario.carpeta, ejecutable: "/bin/bash"
            ).esperar().salida.split(separator: "\n").map(String.init)
        }
        #expect(try await completar(["marcador", "avisos", "ca"]) == ["canales"])
        #expect(try await completar(["marcador", "av"]) == ["avisos"])
        #expect(
            try await completar(["marcador", "avisos", "canales", "añadir", "w"]) == ["webhook"])
        #expect(try await completar(["marcador", "gol-a-mano", "1", "vi"]) == ["visitante"])
        #expect(
            try await completar(["marcador", "--db", "x", "jugar", "1", "--ms"]) == [
                "--ms-por-minuto"
            ])
        #expect(try await completar(["marcador", "ajustes", "silencio", ""]).contains("si"))
        // Paths complete as file names (issue 41: `importar <TAB>` offered none).
        try FileManager.default.createDirectory(
            atPath: escenario.carpeta + "/datos/sub", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(
            atPath: escenario.carpeta + "/datos/mundial.json", contents: Data())
        let datos = escenario.carpeta + "/datos/"
        #expect(
            try await completar(["marcador", "importar", datos + "m"]) == [datos + "mundial.json"])
        #expect(try await completar(["marcador", "--db", datos + "s"]) == [datos + "sub"])
        #expect(
            try await completar(["marcador", "fuentes", "añadir", "x", "--formato", "o"]) == [
                "openfootball"
            ])
        // A free value (a URL) offers nothing, not the folder's files.
        #expect(
            try await completar([
                "marcador", "avisos", "canales", "añadir", "webhook", "--url", "d",
            ])
            .isEmpty)
    }

    static let hayZsh = FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh")
    static let hayFish = FileManager.default.isExecutableFile(atPath: "/usr/bin/fish")

    /// zsh, interactive in a pseudo-terminal (`zpty`), with `_marcador` where `make install
    /// PREFIX=…` puts it and that folder in `fpath` as the README says (issue 41: zsh got no
    /// completion at all): each line as a user would type it, TAB, and what the line became.
    @Test(.enabled(if: hayZsh, "falta zsh (Debian: zsh)"))
    func zshCompletaDesdeSuFpath() async throws {
        let escenario = Escenario()
        let carpeta = escenario.carpeta + "/share/zsh/site-functions"
        try FileManager.default.createDirectory(
            atPath: carpeta, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: escenario.carpeta + "/datos/sub", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(
            atPath: escenario.carpeta + "/datos/mundial.json", contents: Data())
        let script = try await escenario.marcadorSinDB(["completado", "zsh"]).salida
        _ = FileManager.default.createFile(
            atPath: carpeta + "/_marcador", contents: Data(script.utf8))
        let volcado = escenario.carpeta + "/linea"
        let lineas = [
            "marcador compl", "marcador importar datos/m", "marcador ajustes silencio s",
            "marcador --db datos/s", "marcador fuentes añadir x --formato foot",
        ]
        var guion = """
            zmodload zsh/zpty
            zpty z 'zsh -f -i'
            zpty -w z 'fpath=(\(carpeta) $fpath); autoload -Uz compinit; compinit -u -d \(escenario.carpeta)/zcompdump; cd \(escenario.carpeta)'
            zpty -w z 'volcar() { print -r -- "$BUFFER" > \(volcado) }; zle -N volcar; bindkey "^X" volcar'
            # Keys typed before the line editor runs meet the terminal's cooked mode (where ^U
            # erases what came before): the first probe waits for the shell to have read all of
            # the above, under a loaded machine compinit alone can take seconds.
            zpty -w z 'print listo > \(volcado)'
            for i in {1..600}; do [[ -s \(volcado) ]] && break; sleep 0.1; done
            probar() {
              rm -f \(volcado)
              zpty -w -n z "$1"$'\\t'
              zpty -w -n z $'\\x18'
              for i in {1..600}; do [[ -s \(volcado) ]] && break; sleep 0.1; done
              print -r -- "$(cat \(volcado) 2>/dev/null)"
              zpty -w -n z $'\\x15'
            }

            """
        for linea in lineas { guion += "probar '\(linea)'\n" }
        guion += "zpty -d z\n"
        let resultado = await
            (try Proceso(
                ["-f", "-c", guion], carpeta: escenario.carpeta, ejecutable: "/usr/bin/zsh"
            )).esperar(limite: 240)
        #expect(
            resultado.salida.split(separator: "\n").map(String.init) == [
                "marcador completado ", "marcador importar datos/mundial.json ",
                "marcador ajustes silencio si ", "marcador --db datos/sub/",
                "marcador fuentes añadir x --formato football-data ",
            ], "\(resultado.error)")
    }

    /// fish's own completion engine (`complete -C`) on the script: subcommands, file names for
    /// paths, and option values (issue 41: fish completed no option value, no file).
    @Test(.enabled(if: hayFish, "falta fish (Debian: fish)"))
    func fishCompletaNombresDeFicheroYValores() async throws {
        let escenario = Escenario()
        let script = try await escenario.marcadorSinDB(["completado", "fish"]).salida
        let ruta = escenario.carpeta + "/marcador.fish"
        _ = FileManager.default.createFile(atPath: ruta, contents: Data(script.utf8))
        try FileManager.default.createDirectory(
            atPath: escenario.carpeta + "/datos/sub", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(
            atPath: escenario.carpeta + "/datos/mundial.json", contents: Data())
        func completar(_ linea: String) async throws -> [String] {
            let resultado = try await Proceso(
                ["-c", "source \(ruta); complete -C '\(linea)'"], carpeta: escenario.carpeta,
                ejecutable: "/usr/bin/fish"
            ).esperar()
            #expect(resultado.codigo == 0, "\(resultado.error)")
            return resultado.salida.split(separator: "\n").map {
                String($0.prefix { $0 != "\t" })
            }
        }
        #expect(try await completar("marcador compl") == ["completado"])
        let datos = escenario.carpeta + "/datos/"
        #expect(
            try await completar("marcador importar \(datos)") == [
                datos + "mundial.json", datos + "sub/",
            ])
        #expect(try await completar("marcador --db \(datos)s") == [datos + "sub/"])
        #expect(try await completar("marcador ajustes silencio ") == ["no", "si"])
        #expect(
            try await completar("marcador fuentes añadir x --formato ") == [
                "football-data", "openfootball",
            ])
        #expect(
            try await completar("marcador avisos canales añadir webhook --avisar g") == ["goles"])
        #expect(try await completar("marcador jugar 1 --ms").contains("--ms-por-minuto"))
    }

    @Test func laPaginaDeManualNombraCadaComando() async throws {
        let manual = try await Escenario().marcadorSinDB(["manual"]).salida
        #expect(manual.hasPrefix(".TH MARCADOR 1"))
        for comando in ["partidos", "jugar", "avisos canales añadir webhook", "ajustes duracion"] {
            #expect(
                manual.contains(".B marcador \(comando.replacingOccurrences(of: "-", with: "\\-"))")
            )
        }
    }

    /// A minimal terminal: the rows the output leaves on screen, and whether anything went past
    /// `columnas` (which a real terminal would wrap into a new line).
    static func pantalla(_ salida: String, columnas: Int) -> (filas: [String], desbordes: Int) {
        var filas = [""]
        var columna = 0
        var desbordes = 0
        var escalares = Array(salida.unicodeScalars)[...]
        while let escalar = escalares.popFirst() {
            switch escalar {
            case "\n":
                filas.append("")
                columna = 0
            case "\r":
                columna = 0
            case "\u{1B}":
                // CSI: parameters then a final letter; `2K` clears the row.
                guard escalares.first == "[" else { continue }
                escalares.removeFirst()
                var parametros = ""
                while let siguiente = escalares.popFirst() {
                    if siguiente.properties.isAlphabetic {
                        if siguiente == "K" && parametros == "2" { filas[filas.count - 1] = "" }
                        break
                    }
                    parametros.unicodeScalars.append(siguiente)
                }
            case "\u{07}":
                break
            default:
                var fila = Array(filas[filas.count - 1])
                while fila.count < columna { fila.append(" ") }
                if columna < fila.count {
                    fila[columna] = Character(escalar)
                } else {
                    fila.append(Character(escalar))
                }
                filas[filas.count - 1] = String(fila)
                columna += 1
                if columna > columnas { desbordes += 1 }
            }
        }
        return (filas, desbordes)
    }

    @Test(.enabled(if: hayScript, "falta script (util-linux)"), arguments: ["stty", "COLUMNS"])
    func laLineaDeEstadoCabeEnOchentaColumnas(como: String) async throws {
        let escenario = Escenario()
        _ = try await escenario.marcador("avisos", "desactivar")
        let jugar = "\(Binario.ruta) --db \(escenario.db) jugar 3 --ms-por-minuto 20"
        let orden = como == "stty" ? "stty cols 80 rows 24; \(jugar)" : jugar
        let resultado = await
            (try Proceso(
                ["-qec", orden, "/dev/null"], entorno: como == "stty" ? [:] : ["COLUMNS": "80"],
                carpeta: escenario.carpeta, ejecutable: "/usr/bin/script")).esperar()
        #expect(resultado.codigo == 0)
        let (filas, desbordes) = Self.pantalla(resultado.salida, columnas: 80)
        #expect(desbordes == 0)
        let estados = filas.filter {
            $0.range(
                of: #"^(En juego|Partido terminado|Cancelado en el minuto \d+)  minuto \d+"#,
                options: .regularExpression) != nil
        }
        #expect(estados.count == 1, "\(filas.joined(separator: "\n"))")
        #expect(estados.first?.hasPrefix("Partido terminado  minuto 120") == true)
        #expect(filas.contains("Partido terminado: Dragones del Norte 2-1 Halcones (120 minutos)."))
    }

    /// Closing the terminal cancels like Ctrl-C: CANCELADO in the log and exit 129.
    @Test func cerrarLaTerminalCancela() async throws {
        let escenario = Escenario()
        // Slow enough that a loaded machine cannot finish the match before the signal lands.
        let jugar = try escenario.lanzar("jugar", "1", "--ms-por-minuto", "200")
        #expect(await jugar.esperarTexto("desde el minuto 0", enSalida: true))
        jugar.senal(SIGHUP)
        let resultado = await jugar.esperar()
        #expect(resultado.codigo == 129)
        #expect(resultado.error.contains("partido CANCELADO en el minuto"))
        let partidos = try await escenario.marcador("partidos").salida
        #expect(partidos.contains("Cancelado en el minuto"))
    }
}
