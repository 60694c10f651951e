import Aplicacion

/// Help texts, written from the declarations so they never drift from what is accepted.
@MainActor
enum Ayuda {
    /// The help of the command at `ruta` (names below the root).
    /// The version the root's help names.
    static var version = ""

    static func de(_ ruta: [any ComandoDeclarado.Type]) -> String {
        let tipo = ruta.last!
        let configuracion = tipo.configuracion
        let propias = declaraciones(de: tipo).map(\.especificacion).filter { !$0.oculta }
        let argumentos = propias.filter { !$0.esOpcion }
        let opciones = propias.filter(\.esOpcion)
        let subcomandos = configuracion.subcomandos.filter { !$0.configuracion.oculto }
        let esRaiz = ruta.count == 1
        var texto = parrafos((esRaiz ? "marcador \(version): " : "") + configuracion.resumen)
        texto +=
            "\nUso: "
            + partir(uso(ruta), ancho: columnas - 5).joined(separator: "\n     ") + "\n"
        if !argumentos.isEmpty {
            texto += "\nArgumentos:\n" + lista(argumentos.map { ($0.firma, $0.ayuda) })
        }
        if !opciones.isEmpty {
            texto += "\nOpciones:\n" + lista(opciones.map { ($0.firma, $0.ayuda) })
        }
        if !subcomandos.isEmpty {
            texto += "\n" + (esRaiz ? "Comandos" : "Subcomandos") + ":\n"
            texto += lista(subcomandos.map { ($0.configuracion.nombre, $0.configuracion.resumen) })
        }
        if let detalles = configuracion.detalles {
            texto += "\n" + parrafos(detalles)
        }
        let globales = OpcionesGlobales.declaraciones.map(\.especificacion)
        texto += "\nOpciones globales (valen con cualquier comando):\n"
        texto += lista(globales.map { ($0.firma, $0.ayuda) })
        if !subcomandos.isEmpty {
            let nombre = (["marcador"] + ruta.dropFirst().map { $0.configuracion.nombre })
                .joined(separator: " ")
            texto +=
                "\n«\(nombre) <\(esRaiz ? "comando" : "subcomando")> --help» explica cada uno.\n"
        }
        if esRaiz {
            texto +=
                "\n"
                + parrafos(
                    """
                    Códigos de salida: 0 bien, 64 uso incorrecto, 65 datos incorrectos, 66 no existe el \
                    partido o el fichero, 69 canal de avisos no disponible, 74 error de lectura o \
                    escritura o de la base de datos, 129 terminal cerrada, 130 interrumpido (Ctrl-C), \
                    143 terminado (SIGTERM).
                    """)
        }
        return texto
    }

    /// `marcador jugar ID [--duracion MINUTOS] [--ms-por-minuto MS] …`
    static func uso(_ ruta: [any ComandoDeclarado.Type]) -> String {
        let tipo = ruta.last!
        var partes = ["marcador"] + ruta.dropFirst().map { $0.configuracion.nombre }
        let propias = declaraciones(de: tipo).map(\.especificacion).filter { !$0.oculta }
        for especificacion in propias {
            switch especificacion.clase {
            case .argumento(let opcional):
                partes.append(opcional ? "[\(especificacion.nombre)]" : especificacion.nombre)
            case .opcion(let marcador) where especificacion.obligatoria:
                partes.append("\(especificacion.nombre) \(marcador)")
            case .opcion(let marcador):
                partes.append(
                    "[\(especificacion.nombre) \(marcador)]" + (especificacion.repetible ? "…" : "")
                )
            case .bandera:
                partes.append("[\(especificacion.nombre)]")
            }
        }
        if !tipo.configuracion.subcomandos.isEmpty {
            partes.append(ruta.count == 1 ? "<comando>" : "[<subcomando>]")
        }
        return partes.joined(separator: " ")
    }

    /// Help is wrapped to 80 columns, the description column aligned.
    static let columnas = 80

    private static func lista(_ filas: [(String, String)]) -> String {
        let ancho = min(filas.map(\.0.count).max() ?? 0, 26)
        return filas.map { firma, ayuda in
            let sangria = 2 + ancho + 2
            var texto = "  " + firma
            if firma.count > ancho {
                texto += "\n" + String(repeating: " ", count: sangria)
            } else {
                texto += String(repeating: " ", count: ancho - firma.count + 2)
            }
            let lineas = partir(ayuda, ancho: columnas - sangria)
            return texto + lineas.joined(separator: "\n" + String(repeating: " ", count: sangria))
                + "\n"
        }.joined()
    }

    /// Running text re-wrapped to `columnas`; lines that start with spaces are kept as written
    /// (lists, examples).
    static func parrafos(_ texto: String) -> String {
        var salida = ""
        var parrafo = ""
        func cerrar() {
            if !parrafo.isEmpty {
                salida += partir(parrafo, ancho: columnas).joined(separator: "\n") + "\n"
                parrafo = ""
            }
        }
        for linea in texto.split(separator: "\n", omittingEmptySubsequences: false) {
            if linea.hasPrefix(" ") || linea.isEmpty {
                cerrar()
                salida += linea + "\n"
            } else {
                parrafo += (parrafo.isEmpty ? "" : " ") + linea
            }
        }
        cerrar()
        return salida
    }

    /// Words in lines of at most `ancho` characters (a longer word gets a line of its own).
    static func partir(_ texto: String, ancho: Int) -> [String] {
        var lineas: [String] = []
        var actual = ""
        for palabra in texto.split(separator: " ") {
            if !actual.isEmpty && actual.count + 1 + palabra.count > ancho {
                lineas.append(actual)
                actual = ""
            }
            actual += (actual.isEmpty ? "" : " ") + palabra
        }
        if !actual.isEmpty || lineas.isEmpty { lineas.append(actual) }
        return lineas
    }
}

extension Especificacion {
    var esOpcion: Bool {
        if case .argumento = clase { return false }
        return true
    }
}
