import Aplicacion

/// The root of the command tree: `marcador` alone prints the help.
struct ComandoRaiz: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "marcador",
        resumen: "partidos de fútbol minuto a minuto en la terminal, con avisos de gol.",
        subcomandos: [
            ComandoPartidos.self,
            ComandoPartido.self,
            ComandoJugar.self,
            ComandoGolAMano.self,
            ComandoServir.self,
            ComandoAjustes.self,
            ComandoAvisos.self,
            ComandoFuentes.self,
            ComandoDispositivos.self,
            ComandoEmpuje.self,
            ComandoDirecto.self,
            ComandoImportar.self,
            ComandoCompeticiones.self,
            ComandoClasificacion.self,
            ComandoGoleadores.self,
            ComandoRegistro.self,
            ComandoCompletado.self,
            ComandoAyuda.self,
            ComandoManual.self,
        ])

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        contexto.terminal.escribir(Ayuda.de([Self.self]))
        return .ok
    }
}

/// `marcador help [COMANDO…]`: the same text as `--help`.
struct ComandoAyuda: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "help", alias: ["ayuda"],
        resumen: "Muestra la ayuda de marcador o de un comando (como --help).")

    @ArgumentosRestantes("COMANDO", ayuda: "El comando (y subcomandos) del que ver la ayuda.")
    var palabras: [String]

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        contexto.terminal.escribir(Ayuda.de(try Self.ruta(palabras)))
        return .ok
    }

    /// The command types named by `palabras`, from the root.
    static func ruta(_ palabras: [String]) throws -> [any ComandoDeclarado.Type] {
        var ruta: [any ComandoDeclarado.Type] = [ComandoRaiz.self]
        for palabra in palabras {
            let configuracion = ruta[ruta.count - 1].configuracion
            guard let sub = Self.subcomando(palabra, de: configuracion) else {
                let nombres = configuracion.subcomandos.map(Self.nombre)
                var mensaje = "No hay ningún comando \(citado(palabra))."
                if let parecido = Sugerencia.parecida(palabra, entre: nombres) {
                    mensaje += " ¿Querías decir «\(parecido)»?"
                }
                throw Fallo.uso(mensaje + " Hay: " + nombres.joined(separator: ", ") + ".")
            }
            ruta.append(sub)
        }
        return ruta
    }

    static func nombre(_ tipo: any ComandoDeclarado.Type) -> String { tipo.configuracion.nombre }

    static func subcomando(_ palabra: String, de configuracion: ConfiguracionDeComando)
        -> (any ComandoDeclarado.Type)?
    {
        for tipo in configuracion.subcomandos {
            let propia = tipo.configuracion
            if propia.nombre == palabra || propia.alias.contains(palabra) { return tipo }
        }
        return nil
    }
}

/// `marcador completado bash|zsh|fish`: the completion script, from the declarations.
struct ComandoCompletado: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "completado",
        resumen: "Escribe el script de autocompletado para bash, zsh o fish.",
        detalles: """
            Para usarlo (o «make install», que los instala con el programa):
              bash  marcador completado bash > /etc/bash_completion.d/marcador
              zsh   marcador completado zsh > ~/.zfunc/_marcador  (~/.zfunc en $fpath)
              fish  marcador completado fish > ~/.config/fish/completions/marcador.fish
            """)

    @Argumento("SHELL", ayuda: "bash, zsh o fish.")
    var shell: Shell

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        contexto.terminal.escribir(Completado.script(para: shell, raiz: ComandoRaiz.self))
        return .ok
    }
}

/// The man page (troff), for `make install`: written from the same declarations.
struct ComandoManual: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "manual", resumen: "Escribe la página de manual (troff) de marcador.",
        oculto: true)

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        contexto.terminal.escribir(Manual.pagina(raiz: ComandoRaiz.self, version: Programa.version))
        return .ok
    }
}
