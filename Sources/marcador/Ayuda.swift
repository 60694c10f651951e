/// Help texts, generated from the declarations so they never drift from what is accepted.
@MainActor
enum Ayuda {
    static func general() -> String {
        var texto = """
            marcador \(Programa.version): partidos de fútbol minuto a minuto en la terminal, con avisos de gol.

            Uso: marcador [opciones globales] <comando> [argumentos]

            Comandos:

            """
        let ancho = Programa.comandos.map { $0.nombre.count }.max() ?? 0
        for comando in Programa.comandos {
            let relleno = String(repeating: " ", count: ancho - comando.nombre.count)
            texto += "  \(comando.nombre)\(relleno)  \(comando.resumen)\n"
        }
        texto += "\nOpciones globales (valen con cualquier comando):\n"
        texto += lista(Programa.globales)
        texto += """

            «marcador <comando> --help» explica cada comando.

            Códigos de salida: 0 bien, 64 uso incorrecto, 65 datos incorrectos, 66 no existe el
            partido o el fichero, 69 canal de avisos no disponible, 74 error de lectura/escritura o
            de la base de datos, 130 interrumpido (Ctrl-C), 143 terminado (SIGTERM).

            """
        return texto
    }

    static func de(_ comando: any Comando.Type) -> String {
        var texto = "\(comando.resumen)\n\nUso: \(comando.uso)\n"
        if !comando.posicionales.isEmpty {
            texto += "\nArgumentos:\n"
            let ancho = comando.posicionales.map(\.nombre.count).max() ?? 0
            for posicional in comando.posicionales {
                let relleno = String(repeating: " ", count: ancho - posicional.nombre.count)
                texto += "  \(posicional.nombre)\(relleno)  \(posicional.ayuda)\n"
            }
        }
        if !comando.opciones.isEmpty {
            texto += "\nOpciones:\n" + lista(comando.opciones)
        }
        if let detalles = comando.detalles {
            texto += "\n" + detalles + "\n"
        }
        texto += "\nOpciones globales:\n" + lista(Programa.globales)
        return texto
    }

    private static func lista(_ opciones: [Opcion]) -> String {
        let ancho = opciones.map(\.firma.count).max() ?? 0
        return opciones.map { opcion in
            let relleno = String(repeating: " ", count: ancho - opcion.firma.count)
            return "  \(opcion.firma)\(relleno)  \(opcion.ayuda)\n"
        }.joined()
    }
}
