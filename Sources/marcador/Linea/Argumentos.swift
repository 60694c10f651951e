/// What the parser found on a command line, ready for a command to read.
struct Argumentos: Sendable {
    var comando: String?
    var posicionales: [String] = []
    private(set) var banderas: Set<String> = []
    private(set) var valores: [String: String] = [:]

    func tiene(_ bandera: String) -> Bool { banderas.contains(bandera) }

    func valor(_ opcion: String) -> String? { valores[opcion] }

    /// The value of `opcion` as an integer, with a usage error that names the option otherwise.
    func entero(_ opcion: String) throws(Fallo) -> Int? {
        guard let texto = valores[opcion] else { return nil }
        guard let numero = Int(texto) else {
            throw .uso("El valor de \(opcion) debe ser un número entero, no «\(texto)».")
        }
        return numero
    }

    /// Splits `linea` into command, options and positionals.
    ///
    /// Global options are accepted anywhere; the command's own options only after the command
    /// name is known, since only then do we know which are valid. `--` ends the options.
    static func analizar(
        _ linea: [String], globales: [Opcion], comandos: [String: [Opcion]]
    ) throws(Fallo) -> Argumentos {
        var resultado = Argumentos()
        resultado.comando = try buscarComando(linea, globales: globales, comandos: comandos)
        var comandoVisto = false
        var indice = 0
        var soloPosicionales = false
        func opciones() -> [Opcion] {
            globales + (resultado.comando.flatMap { comandos[$0] } ?? [])
        }
        while indice < linea.count {
            let token = linea[indice]
            indice += 1
            if soloPosicionales || esPosicional(token) {
                if comandoVisto || resultado.comando != token {
                    resultado.posicionales.append(token)
                }
                comandoVisto = true
                continue
            }
            if token == "--" {
                soloPosicionales = true
                continue
            }
            var nombre = token
            var valorEnLinea: String?
            if let igual = token.firstIndex(of: "="), token.hasPrefix("--") {
                nombre = String(token[..<igual])
                valorEnLinea = String(token[token.index(after: igual)...])
            }
            let validas = opciones()
            guard let opcion = validas.first(where: { $0.nombres.contains(nombre) }) else {
                let donde = resultado.comando.map { " para «\($0)»" } ?? ""
                let lista = validas.map(\.nombre).joined(separator: ", ")
                throw .uso("Opción desconocida «\(nombre)»\(donde). Opciones válidas: \(lista).")
            }
            if opcion.valor != nil {
                if let valorEnLinea {
                    resultado.valores[opcion.nombre] = valorEnLinea
                } else if indice < linea.count {
                    resultado.valores[opcion.nombre] = linea[indice]
                    indice += 1
                } else {
                    throw .uso("Falta el valor de \(opcion.nombre) (\(opcion.valor!)).")
                }
            } else {
                if valorEnLinea != nil {
                    throw .uso("La opción \(opcion.nombre) no lleva valor.")
                }
                resultado.banderas.insert(opcion.nombre)
            }
        }
        return resultado
    }

    /// A token that is not an option: plain words, `-` and negative numbers.
    private static func esPosicional(_ token: String) -> Bool {
        !token.hasPrefix("-") || token == "-" || Int(token) != nil
    }

    /// The first positional word, skipping global options and their values, so the command's
    /// own options are known even when they come before it (`marcador --json partidos`).
    private static func buscarComando(
        _ linea: [String], globales: [Opcion], comandos: [String: [Opcion]]
    ) throws(Fallo) -> String? {
        var indice = 0
        while indice < linea.count {
            let token = linea[indice]
            indice += 1
            if token == "--" {
                return indice < linea.count ? try conocido(linea[indice], comandos) : nil
            }
            if esPosicional(token) { return try conocido(token, comandos) }
            if !token.contains("="),
                globales.contains(where: { $0.nombres.contains(token) && $0.valor != nil })
            {
                indice += 1
            }
        }
        return nil
    }

    private static func conocido(_ token: String, _ comandos: [String: [Opcion]]) throws(Fallo)
        -> String
    {
        guard comandos[token] != nil else {
            throw .uso(
                "Comando desconocido «\(token)». Comandos: "
                    + comandos.keys.sorted().joined(separator: ", ") + ".")
        }
        return token
    }
}
