import Aplicacion

/// A command line read: the command path (root first) with each command's declarations filled.
@MainActor
struct LineaLeida {
    /// From the root to the command to run.
    var ruta: [any Comando]
    var globales: OpcionesGlobales

    var comando: any Comando { ruta.last! }
    var nombres: [String] { ruta.dropFirst().map { type(of: $0).configuracion.nombre } }
}

/// Splits a command line into the command path, options and positionals, against the
/// declarations of every command on the path.
///
/// Global options are accepted anywhere; a command's options after that command's name (or a
/// descendant's). Options are looked up from the leaf up, so a parent's option still works
/// after a subcommand. `--` ends the options.
@MainActor
enum Analizador {
    static func analizar(_ linea: [String], raiz: any Comando.Type) throws(FalloDeLinea)
        -> LineaLeida
    {
        let (globales, declaracionesGlobales) = Recogida.declarado { OpcionesGlobales() }
        // First pass: the command path, so the options of every command on it are known.
        var ruta: [ComandoEnRuta] = [ComandoEnRuta(raiz)]
        var indicesDeComandos: Set<Int> = []
        var indice = 0
        var soloPosicionales = false
        var hayPosicional = false
        while indice < linea.count {
            let token = linea[indice]
            defer { indice += 1 }
            if !soloPosicionales && token == "--" {
                soloPosicionales = true
                continue
            }
            if !soloPosicionales && esOpcion(token) {
                if !token.contains("="),
                    let declaracion = buscar(token, en: ruta, globales: declaracionesGlobales),
                    declaracion.especificacion.tomaValor
                {
                    indice += 1
                }
                continue
            }
            guard !hayPosicional else { continue }
            let actual = type(of: ruta.last!.comando)
            if let sub = actual.configuracion.subcomandos.first(where: {
                $0.configuracion.nombre == token || $0.configuracion.alias.contains(token)
            }) {
                ruta.append(ComandoEnRuta(sub))
                indicesDeComandos.insert(indice)
                continue
            }
            if !actual.configuracion.subcomandos.isEmpty
                && ruta.last!.declaraciones.allSatisfy({
                    !isArgumento($0.especificacion)
                })
            {
                let nombres = actual.configuracion.subcomandos.filter { !$0.configuracion.oculto }
                    .map { $0.configuracion.nombre }
                var mensaje =
                    ruta.count == 1
                    ? "Comando desconocido \(citado(token))."
                    : "Subcomando desconocido \(citado(token))."
                if let parecido = Sugerencia.parecida(token, entre: nombres) {
                    mensaje += " ¿Querías decir «\(parecido)»?"
                }
                mensaje +=
                    (ruta.count == 1 ? " Comandos: " : " Subcomandos: ")
                    + nombres.joined(separator: ", ") + "."
                throw FalloDeLinea(fallo: .uso(mensaje), ruta: rutaDeNombres(ruta))
            }
            hayPosicional = true
        }
        let leida = LineaLeida(ruta: ruta.map(\.comando), globales: globales)
        // `--help` wins over any other mistake on the line: the user is asking how.
        if linea.contains("--help") || linea.contains("-h") {
            try? asignar(linea, indicesDeComandos, ruta, declaracionesGlobales)
            globales.ayudaPedida()
            return leida
        }
        do {
            try asignar(linea, indicesDeComandos, ruta, declaracionesGlobales)
            try leida.comando.validar()
        } catch let fallo as Fallo {
            throw FalloDeLinea(fallo: fallo, ruta: rutaDeNombres(ruta))
        } catch {
            throw FalloDeLinea(fallo: .uso("\(error)"), ruta: rutaDeNombres(ruta))
        }
        return leida
    }

    /// Second pass: every option to its declaration, every positional to the leaf's arguments.
    private static func asignar(
        _ linea: [String], _ indicesDeComandos: Set<Int>, _ ruta: [ComandoEnRuta],
        _ globales: [any Declaracion]
    ) throws {
        let argumentos = ruta.last!.declaraciones.filter { isArgumento($0.especificacion) }
        var posicionales: [String] = []
        var indice = 0
        var soloPosicionales = false
        while indice < linea.count {
            let token = linea[indice]
            indice += 1
            if indicesDeComandos.contains(indice - 1) { continue }
            if !soloPosicionales && token == "--" {
                soloPosicionales = true
                continue
            }
            guard !soloPosicionales && esOpcion(token) else {
                posicionales.append(token)
                continue
            }
            var nombre = token
            var valorEnLinea: String?
            if token.hasPrefix("--"), let igual = token.firstIndex(of: "=") {
                nombre = String(token[..<igual])
                valorEnLinea = String(token[token.index(after: igual)...])
            }
            guard let declaracion = buscar(nombre, en: ruta, globales: globales) else {
                let validas = (ruta.reversed().flatMap(\.declaraciones) + globales)
                    .filter { !$0.especificacion.oculta && !isArgumento($0.especificacion) }
                    .map(\.especificacion.nombre)
                var mensaje = "Opción desconocida \(citado(nombre))"
                let donde = rutaDeNombres(ruta)
                if !donde.isEmpty { mensaje += " para «\(donde.joined(separator: " "))»" }
                mensaje += "."
                if let parecida = Sugerencia.parecida(nombre, entre: validas) {
                    mensaje += " ¿Querías decir «\(parecida)»?"
                }
                throw Fallo.uso(
                    mensaje + " Opciones válidas: " + validas.joined(separator: ", ") + ".")
            }
            let especificacion = declaracion.especificacion
            if especificacion.tomaValor {
                if let valorEnLinea {
                    try declaracion.asignar(valorEnLinea)
                } else if indice < linea.count {
                    try declaracion.asignar(linea[indice])
                    indice += 1
                } else {
                    throw Fallo.uso("Falta el valor de \(especificacion.firma).")
                }
            } else {
                if valorEnLinea != nil {
                    throw Fallo.uso("La opción \(especificacion.nombre) no lleva valor.")
                }
                try declaracion.asignar(nil)
            }
        }
        for (posicion, texto) in posicionales.enumerated() {
            if let ultimo = argumentos.last, ultimo.especificacion.repetible,
                posicion >= argumentos.count - 1
            {
                try ultimo.asignar(texto)
                continue
            }
            guard posicion < argumentos.count else {
                throw Fallo.uso("Sobra el argumento \(citado(texto)).")
            }
            try argumentos[posicion].asignar(texto)
        }
        if let falta = argumentos.first(where: {
            !$0.dada && $0.especificacion.clase == .argumento(opcional: false)
        }) {
            throw Fallo.uso("Falta \(falta.especificacion.nombre): \(falta.especificacion.ayuda)")
        }
    }

    private static func isArgumento(_ especificacion: Especificacion) -> Bool {
        if case .argumento = especificacion.clase { return true }
        return false
    }

    /// A token that is not an option: plain words, `-` and negative numbers.
    static func esOpcion(_ token: String) -> Bool {
        token.hasPrefix("-") && token != "-" && Int(token) == nil && Double(token) == nil
    }

    /// The declaration of option `nombre`, from the leaf up, then the globals.
    private static func buscar(
        _ token: String, en ruta: [ComandoEnRuta], globales: [any Declaracion]
    ) -> (any Declaracion)? {
        let nombre =
            token.hasPrefix("--") ? String(token.prefix { $0 != "=" }) : token
        for comando in ruta.reversed() {
            if let declaracion = comando.declaraciones.first(where: {
                !isArgumento($0.especificacion) && $0.especificacion.nombres.contains(nombre)
            }) {
                return declaracion
            }
        }
        return globales.first { $0.especificacion.nombres.contains(nombre) }
    }

    private static func rutaDeNombres(_ ruta: [ComandoEnRuta]) -> [String] {
        ruta.dropFirst().map { type(of: $0.comando).configuracion.nombre }
    }
}

/// A command on the line's path, made, with the declarations it made.
@MainActor
private struct ComandoEnRuta {
    let comando: any Comando
    let declaraciones: [any Declaracion]

    init(_ tipo: any Comando.Type) {
        (comando, declaraciones) = Recogida.declarado { tipo.init() }
    }
}

/// A usage error together with the command it concerns, so the message points to that
/// command's own help.
struct FalloDeLinea: Error {
    let fallo: Fallo
    let ruta: [String]
}
