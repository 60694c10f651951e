import Aplicacion
import Avisos
import Persistencia
import Torneo

/// `marcador fuentes [añadir|quitar]`: the live feeds `marcador directo` follows (directo.md).
struct ComandoFuentes: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "fuentes",
        resumen:
            "Las fuentes en directo (football-data.org o un fichero de openfootball en una URL).",
        detalles: """
            Sin subcomando las lista: nombre, formato, URL (sin claves ni ruta), cada cuánto se
            consulta, el último sondeo y cómo fue, y cuántos partidos sigue. «marcador directo»
            las consulta y avisa de cada cambio.
            """,
        subcomandos: [FuentesAnadir.self, FuentesQuitar.self])

    @Bandera("--json", ayuda: "Escribe la lista en JSON, para otros programas.")
    var json: Bool

    struct FuenteJSON: Encodable {
        var nombre: String
        var formato: String
        var url: String
        var cada: Double
        var conClave: Bool
        var ultimoSondeo: Double?
        var ultimoEstado: String?
        var fallosSeguidos: Int
        var sondeos: Int
        var partidos: Int
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let fuentes = try contexto.nucleo().fuentes()
        if json {
            contexto.terminal.linea(
                try documentoJSON(
                    fuentes.map {
                        FuenteJSON(
                            nombre: $0.configurada.nombre, formato: $0.configurada.formato,
                            url: DireccionWeb.visible($0.configurada.url),
                            cada: $0.configurada.cada, conClave: $0.configurada.clave != nil,
                            ultimoSondeo: $0.ultimoSondeo, ultimoEstado: $0.ultimoEstado,
                            fallosSeguidos: $0.fallosSeguidos, sondeos: $0.sondeos,
                            partidos: $0.partidos)
                    }))
            return .ok
        }
        guard !fuentes.isEmpty else {
            contexto.terminal.linea(
                "No hay fuentes. Añade una con «marcador fuentes añadir NOMBRE --url URL --formato football-data|openfootball»."
            )
            return .ok
        }
        let ahora = try contexto.nucleo().ahora()
        var tabla = Tabla(
            cabeceras: ["NOMBRE", "FORMATO", "URL", "CADA", "ÚLTIMO SONDEO", "ESTADO", "PARTIDOS"],
            aLaDerecha: [3, 6])
        for fuente in fuentes {
            tabla.anadir([
                fuente.configurada.nombre, fuente.configurada.formato,
                DireccionWeb.visible(fuente.configurada.url),
                "\(Textos.segundos(fuente.configurada.cada)) s",
                fuente.ultimoSondeo.map {
                    "hace \(Textos.segundos(max(0, (ahora - $0).rounded()))) s"
                }
                    ?? "nunca",
                fuente.ultimoEstado ?? "", "\(fuente.partidos)",
            ])
        }
        tabla.escribir(en: contexto.terminal) { contexto.terminal.resaltar($0, .negrita) }
        return .ok
    }
}

/// `marcador fuentes añadir NOMBRE --url URL --formato F [--clave K] [--cada S]`.
struct FuentesAnadir: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "añadir", alias: ["anadir"],
        resumen: "Añade una fuente en directo.",
        detalles: """
            football-data: la lista de partidos de la API v4 de football-data.org (por ejemplo
            https://api.football-data.org/v4/competitions/PL/matches), con la clave en --clave
            (se envía en X-Auth-Token); por defecto se consulta cada 30 s (el plan gratuito
            admite 10 peticiones por minuto). openfootball: un fichero JSON de openfootball
            servido en una URL y puesto al día según se juega; por defecto cada 60 s. La primera
            consulta de una fuente solo toma nota de cómo están sus partidos: avisa de lo que
            cambie a partir de ahí.
            """)

    @Argumento("NOMBRE", ayuda: "Cómo llamar a la fuente (sin espacios).")
    var nombre: String

    @Opcion(
        "--url", marcador: "URL", ayuda: "Dónde consultarla (http:// o https://).",
        obligatoria: true)
    var url: String?

    @Opcion(
        "--formato", marcador: "FORMATO", ayuda: "football-data u openfootball.",
        obligatoria: true, valores: Nucleo.formatosDeFuente)
    var formato: String?

    @Opcion("--clave", marcador: "CLAVE", ayuda: "La clave del proveedor (football-data).")
    var clave: String?

    @Opcion(
        "--cada", marcador: "SEGUNDOS", rango: 1...86_400, unidad: " segundos",
        ayuda: "Cada cuántos segundos consultarla, de 1 a 86400.")
    var cada: Double?

    func validar() throws(Fallo) {
        if url == nil { throw .uso("Una fuente necesita --url URL.") }
        if formato == nil {
            throw .uso("Una fuente necesita --formato football-data|openfootball.")
        }
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let fuente = try contexto.nucleo().anadirFuente(
            nombre: nombre, url: url ?? "", formato: formato ?? "", clave: clave, cada: cada)
        contexto.terminal.linea(Frases.fuenteAnadida(fuente))
        return .ok
    }
}

/// `marcador fuentes quitar NOMBRE`.
struct FuentesQuitar: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "quitar",
        resumen: "Quita una fuente (sus partidos y sus avisos se quedan).")

    @Argumento("NOMBRE", ayuda: "La fuente, como sale en «fuentes».")
    var nombre: String

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        try contexto.nucleo().quitarFuente(nombre)
        contexto.terminal.linea(Frases.fuenteQuitada(nombre))
        return .ok
    }
}
