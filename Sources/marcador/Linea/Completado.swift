import Aplicacion

/// Shell completion scripts, written from the command tree's declarations, so a new command or
/// option completes without anyone editing a script.
@MainActor
enum Completado {
    /// One node of the tree: its path below the root and what may follow it.
    struct Nodo {
        var ruta: [String]
        var subcomandos: [String]
        var opciones: [String]
        /// Options that take a value, and the values they accept when few.
        var conValor: [String: [String]?]
        /// Values a positional accepts (`local visitante`).
        var posicionales: [String]
    }

    static func nodos(_ raiz: any ComandoDeclarado.Type) -> [Nodo] {
        var resultado: [Nodo] = []
        recorrer(raiz, [], &resultado)
        return resultado
    }

    private static func recorrer(
        _ tipo: any ComandoDeclarado.Type, _ ruta: [String], _ resultado: inout [Nodo]
    ) {
        let globales = OpcionesGlobales.declaraciones.map(\.especificacion)
        let propias = declaraciones(de: tipo).map(\.especificacion).filter { !$0.oculta }
        let opciones = (propias + globales).filter(\.esOpcion)
        var conValor: [String: [String]?] = [:]
        for especificacion in opciones where especificacion.tomaValor {
            for nombre in especificacion.nombres {
                conValor[nombre] = .some(especificacion.valoresPosibles)
            }
        }
        let subcomandos = tipo.configuracion.subcomandos.filter { !$0.configuracion.oculto }
        var posicionales: [String] = []
        for especificacion in propias where !especificacion.esOpcion {
            posicionales += especificacion.valoresPosibles ?? []
        }
        resultado.append(
            Nodo(
                ruta: ruta, subcomandos: subcomandos.map { $0.configuracion.nombre },
                opciones: opciones.flatMap(\.nombres), conValor: conValor,
                posicionales: posicionales))
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

    private static func bash(_ nodos: [Nodo]) -> String {
        var texto = """
            # Autocompletado de marcador para bash (generado por «marcador completado bash»).
            _marcador_ruta() {
                # The command path typed so far: known subcommand names, skipping options and
                # the values of options that take one.
                local ruta="" i palabra saltar=0
                for ((i = 1; i < COMP_CWORD; i++)); do
                    palabra="${COMP_WORDS[i]}"
                    if ((saltar)); then saltar=0; continue; fi
                    case "$palabra" in
                        --*=*) continue ;;
                        -*) _marcador_toma_valor "$ruta" "$palabra" && saltar=1; continue ;;
                    esac
                    if _marcador_es_sub "$ruta" "$palabra"; then
                        ruta="${ruta:+$ruta }$palabra"
                    fi
                done
                printf '%s' "$ruta"
            }
            _marcador_es_sub() {
                case "$1|$2" in

            """
        for nodo in nodos {
            for sub in nodo.subcomandos {
                texto += "        \(comillas(clave(nodo.ruta) + "|" + sub))) return 0 ;;\n"
            }
        }
        texto += """
                esac
                return 1
            }
            _marcador_toma_valor() {
                case "$1|$2" in

            """
        for nodo in nodos {
            for opcion in nodo.conValor.keys.sorted() {
                texto += "        \(comillas(clave(nodo.ruta) + "|" + opcion))) return 0 ;;\n"
            }
        }
        texto += """
                esac
                return 1
            }
            _marcador() {
                local actual="${COMP_WORDS[COMP_CWORD]}"
                local anterior="${COMP_WORDS[COMP_CWORD-1]}"
                local ruta
                ruta="$(_marcador_ruta)"
                local palabras=""
                case "$ruta|$anterior" in

            """
        for nodo in nodos {
            for (opcion, valores) in nodo.conValor.sorted(by: { $0.key < $1.key }) {
                let accion =
                    valores.map { "palabras=\(comillas($0.joined(separator: " ")))" }
                    ?? "COMPREPLY=($(compgen -f -- \"$actual\")); return"
                texto += "        \(comillas(clave(nodo.ruta) + "|" + opcion))) \(accion) ;;\n"
            }
        }
        texto += """
                    *)
                        case "$ruta" in

            """
        for nodo in nodos {
            let todas = nodo.subcomandos + nodo.posicionales + nodo.opciones
            texto +=
                "                \(comillas(clave(nodo.ruta)))) palabras=\(comillas(todas.joined(separator: " "))) ;;\n"
        }
        texto += """
                        esac
                        ;;
                esac
                COMPREPLY=($(compgen -W "$palabras" -- "$actual"))
            }
            complete -F _marcador marcador

            """
        return texto
    }

    /// zsh reuses the bash function through `bashcompinit`, so both shells complete alike.
    private static func zsh(_ nodos: [Nodo]) -> String {
        """
        #compdef marcador
        # Autocompletado de marcador para zsh (generado por «marcador completado zsh»).
        autoload -U +X bashcompinit && bashcompinit

        """ + bash(nodos)
    }

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
            for opcion in nodo.conValor.keys.sorted() {
                texto +=
                    "        case \(comillas(clave(nodo.ruta) + "|" + opcion))\n            return 0\n"
            }
        }
        texto += "    end\n    return 1\nend\ncomplete -c marcador -f\n"
        for nodo in nodos {
            let condicion = "test (__marcador_ruta) = \(comillas(clave(nodo.ruta)))"
            let todas = nodo.subcomandos + nodo.posicionales + nodo.opciones
            texto +=
                "complete -c marcador -n \(comillas(condicion)) -a \(comillas(todas.joined(separator: " ")))\n"
        }
        return texto
    }

    /// Single-quoted for the shell (names have no quotes, but be safe).
    private static func comillas(_ texto: String) -> String {
        "'" + texto.reemplazando("'", por: "'\\''") + "'"
    }
}
