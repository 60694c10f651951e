import Aplicacion

/// Shell completion scripts, written from the command tree's declarations, so a new command or
/// option completes without anyone editing a script.
@MainActor
enum Completado {
    /// What an option's value or a positional completes to.
    enum Valores: Equatable {
        /// One of these words (`local visitante`, `bash zsh fish`).
        case lista([String])
        /// A path: the shell's own file-name completion.
        case ficheros
        /// Anything (a name, a URL, a number): nothing to offer.
        case libre
    }

    /// One node of the tree: its path below the root and what may follow it.
    struct Nodo {
        var ruta: [String]
        var subcomandos: [String]
        /// Flags, then options, by every spelling.
        var banderas: [String]
        /// Options that take a value, with what the value completes to.
        var conValor: [(nombres: [String], valores: Valores)]
        /// Words a positional accepts (`local visitante`).
        var posicionales: [String]
        /// Whether a positional is a path (`importar FICHERO`).
        var posicionalFichero: Bool

        var opciones: [String] { banderas + conValor.flatMap(\.nombres) }
    }

    static func nodos(_ raiz: any ComandoDeclarado.Type) -> [Nodo] {
        var resultado: [Nodo] = []
        recorrer(raiz, [], &resultado)
        return resultado
    }

    /// Whether values written `marcador` (`FICHERO`, `RUTA`, `DIR`) are paths.
    static func esRuta(_ marcador: String) -> Bool {
        ["FICHERO", "RUTA", "DIR", "CARPETA"].contains { marcador.uppercased().hasPrefix($0) }
    }

    private static func recorrer(
        _ tipo: any ComandoDeclarado.Type, _ ruta: [String], _ resultado: inout [Nodo]
    ) {
        let globales = OpcionesGlobales.declaraciones.map(\.especificacion)
        let propias = declaraciones(de: tipo).map(\.especificacion).filter { !$0.oculta }
        let opciones = (propias + globales).filter(\.esOpcion)
        var conValor: [(nombres: [String], valores: Valores)] = []
        var banderas: [String] = []
        for especificacion in opciones {
            guard case .opcion(let marcador) = especificacion.clase else {
                banderas += especificacion.nombres
                continue
            }
            let valores: Valores =
                especificacion.valoresPosibles.map { .lista($0) }
                ?? (esRuta(marcador) ? .ficheros : .libre)
            conValor.append((especificacion.nombres, valores))
        }
        let subcomandos = tipo.configuracion.subcomandos.filter { !$0.configuracion.oculto }
        var posicionales: [String] = []
        var posicionalFichero = false
        for especificacion in propias where !especificacion.esOpcion {
            posicionales += especificacion.valoresPosibles ?? []
            if esRuta(especificacion.nombre) { posicionalFichero = true }
        }
        resultado.append(
            Nodo(
                ruta: ruta, subcomandos: subcomandos.map { $0.configuracion.nombre },
                banderas: banderas, conValor: conValor, posicionales: posicionales,
                posicionalFichero: posicionalFichero))
        for sub in subcomandos {
            recorrer(sub, ruta + [sub.configuracion.nombre], &resultado)
        }
    }

    static func script(para shell: Shell, raiz: any ComandoDeclarado.Type) -> String {
        switch shell {
        case .bash: bash(nodos(raiz))
        case .zsh: zsh(nodos(raiz))
        case .fish: fish(nodos(raiz))
        }
    }

    /// The path key a shell function builds while walking the words: `avisos canales`.
    private static func clave(_ ruta: [String]) -> String { ruta.joined(separator: " ") }

    /// `case` branches (bash and zsh share the syntax) saying which subcommand names and which
    /// options taking a value each path has: what walking the typed words needs.
    private static func tablas(_ nodos: [Nodo], prefijo: String) -> String {
        var texto = "\(prefijo)_es_sub() {\n    case \"$1|$2\" in\n"
        for nodo in nodos {
            for sub in nodo.subcomandos {
                texto += "        \(comillas(clave(nodo.ruta) + "|" + sub))) return 0 ;;\n"
            }
        }
        texto += "    esac\n    return 1\n}\n\(prefijo)_toma_valor() {\n    case \"$1|$2\" in\n"
        for nodo in nodos {
            for nombre in nodo.conValor.flatMap(\.nombres).sorted() {
                texto += "        \(comillas(clave(nodo.ruta) + "|" + nombre))) return 0 ;;\n"
            }
        }
        return texto + "    esac\n    return 1\n}\n"
    }

    /// The words to offer at a path, after a word: `palabras` and whether files go too
    /// (`ficheros=1`), or nothing at all for a free value (`libre=1`).
    private static func casos(_ nodos: [Nodo]) -> String {
        var texto = "    case \"$ruta|$anterior\" in\n"
        for nodo in nodos {
            for (nombres, valores) in nodo.conValor {
                let accion: String
                switch valores {
                case .lista(let palabras):
                    accion = "palabras=\(comillas(palabras.joined(separator: " ")))"
                case .ficheros: accion = "ficheros=1"
                case .libre: accion = "libre=1"
                }
                for nombre in nombres {
                    texto += "        \(comillas(clave(nodo.ruta) + "|" + nombre))) \(accion) ;;\n"
                }
            }
        }
        texto += "        *)\n            case \"$ruta\" in\n"
        for nodo in nodos {
            let todas = nodo.subcomandos + nodo.posicionales + nodo.opciones
            texto +=
                "                \(comillas(clave(nodo.ruta)))) palabras=\(comillas(todas.joined(separator: " ")))"
                + (nodo.posicionalFichero ? "; ficheros=1" : "") + " ;;\n"
        }
        return texto + "            esac\n            ;;\n    esac\n"
    }

    /// One word of the walk, in the syntax bash and zsh share: an option (and its value,
    /// skipped) or, when it names one, a subcommand that extends the path.
    private static let paso = """
        if ((saltar)); then saltar=0; continue; fi
                case "$palabra" in
                    --*=*) continue ;;
                    -*) _marcador_toma_valor "$ruta" "$palabra" && saltar=1; continue ;;
                esac
                if _marcador_es_sub "$ruta" "$palabra"; then ruta="${ruta:+$ruta }$palabra"; fi
        """

    private static func bash(_ nodos: [Nodo]) -> String {
        """
        # Autocompletado de marcador para bash (generado por «marcador completado bash»).
        _marcador_ruta() {
            # The command path typed so far: known subcommand names, skipping options and
            # the values of options that take one.
            local ruta="" i palabra saltar=0
            for ((i = 1; i < COMP_CWORD; i++)); do
                palabra="${COMP_WORDS[i]}"
                \(paso)
            done
            printf '%s' "$ruta"
        }

        """ + tablas(nodos, prefijo: "_marcador") + """
            _marcador() {
                local actual="${COMP_WORDS[COMP_CWORD]}"
                local anterior="${COMP_WORDS[COMP_CWORD-1]}"
                local ruta palabras="" ficheros=0 libre=0
                ruta="$(_marcador_ruta)"

            """ + casos(nodos) + """
                    ((libre)) && { COMPREPLY=(); return; }
                    COMPREPLY=($(compgen -W "$palabras" -- "$actual"))
                    if ((ficheros)); then
                        # File names, with a slash after folders and spaces kept.
                        compopt -o filenames 2>/dev/null
                        local IFS=$'\n'
                        COMPREPLY+=($(compgen -f -- "$actual"))
                    fi
                }
                complete -F _marcador marcador

                """
    }

    /// A completion function zsh autoloads from its `fpath` (`_marcador`, `#compdef`): the same
    /// walk as bash's in zsh's own terms; files through `_files`. `_marcador_candidatos` prints
    /// what would be offered (one word a line, `::ficheros` for files), so it can be checked.
    private static func zsh(_ nodos: [Nodo]) -> String {
        """
        #compdef marcador
        # Autocompletado de marcador para zsh (generado por «marcador completado zsh»). Va en
        # una carpeta de $fpath como _marcador: `make install PREFIX=~/.local` lo deja en
        # ~/.local/share/zsh/site-functions, que zsh no mira salvo que ~/.zshrc diga, antes de
        # compinit: fpath=(~/.local/share/zsh/site-functions $fpath)

        """ + tablas(nodos, prefijo: "_marcador") + """
            _marcador_candidatos() {
                # $@: the words before the cursor, the command's own name first.
                local ruta="" palabra anterior="${@[-1]}" palabras="" ficheros=0 libre=0
                local -i i saltar=0
                for ((i = 2; i <= $#; i++)); do
                    palabra="${@[i]}"
                    \(paso)
                done
                (($# == 1)) && anterior=""

            """ + casos(nodos) + """
                    ((libre)) && return 0
                    ((${#${=palabras}})) && print -rl -- ${=palabras}
                    ((ficheros)) && print -r -- '::ficheros'
                    return 0
                }
                _marcador() {
                    local -a candidatos
                    candidatos=("${(@f)$(_marcador_candidatos "${(@)words[1,CURRENT-1]}")}")
                    local -i ficheros=${candidatos[(I)::ficheros]}
                    candidatos=(${candidatos:#::ficheros})
                    (($#candidatos)) && compadd -a candidatos
                    ((ficheros)) && _files
                    return 0
                }
                _marcador "$@"

                """
    }

    /// fish's own completions: subcommands and positionals where the path allows them, every
    /// option with `-l`/`-s` and what its value completes to (`-a` words, `-F` files).
    private static func fish(_ nodos: [Nodo]) -> String {
        var texto = """
            # Autocompletado de marcador para fish (generado por «marcador completado fish»).
            function __marcador_ruta
                set -l palabras (commandline -opc)
                set -e palabras[1]
                set -l ruta ""
                set -l saltar 0
                for palabra in $palabras
                    if test $saltar = 1
                        set saltar 0
                        continue
                    end
                    switch $palabra
                        case '--*=*'
                            continue
                        case '-*'
                            if __marcador_toma_valor "$ruta" $palabra
                                set saltar 1
                            end
                            continue
                    end
                    if __marcador_es_sub "$ruta" $palabra
                        set ruta (string trim -- "$ruta $palabra")
                    end
                end
                echo $ruta
            end
            function __marcador_es_sub
                switch "$argv[1]|$argv[2]"

            """
        for nodo in nodos {
            for sub in nodo.subcomandos {
                texto +=
                    "        case \(comillas(clave(nodo.ruta) + "|" + sub))\n            return 0\n"
            }
        }
        texto += """
                end
                return 1
            end
            function __marcador_toma_valor
                switch "$argv[1]|$argv[2]"

            """
        for nodo in nodos {
            for nombre in nodo.conValor.flatMap(\.nombres).sorted() {
                texto +=
                    "        case \(comillas(clave(nodo.ruta) + "|" + nombre))\n            return 0\n"
            }
        }
        texto += "    end\n    return 1\nend\ncomplete -c marcador -f\n"
        for nodo in nodos {
            let condicion = comillas("test (__marcador_ruta) = \(comillas(clave(nodo.ruta)))")
            let linea = "complete -c marcador -n \(condicion)"
            let palabras = nodo.subcomandos + nodo.posicionales
            if !palabras.isEmpty {
                texto += "\(linea) -a \(comillas(palabras.joined(separator: " ")))\n"
            }
            if nodo.posicionalFichero { texto += "\(linea) -F\n" }
            for bandera in nodo.banderas { texto += "\(linea) \(fishNombre(bandera))\n" }
            for (nombres, valores) in nodo.conValor {
                let opcion = nombres.map(fishNombre).joined(separator: " ")
                switch valores {
                case .lista(let lista):
                    texto += "\(linea) \(opcion) -x -a \(comillas(lista.joined(separator: " ")))\n"
                case .ficheros: texto += "\(linea) \(opcion) -r -F\n"
                case .libre: texto += "\(linea) \(opcion) -x\n"
                }
            }
        }
        return texto
    }

    /// `--json` → `-l json`, `-j` → `-s j`.
    private static func fishNombre(_ nombre: String) -> String {
        nombre.hasPrefix("--") ? "-l " + nombre.dropFirst(2) : "-s " + nombre.dropFirst()
    }

    /// Single-quoted for the shell (names have no quotes, but be safe).
    private static func comillas(_ texto: String) -> String {
        "'" + texto.reemplazando("'", por: "'\\''") + "'"
    }
}
