import Aplicacion
import Torneo

/// `marcador ajustes [CLAVE VALOR]`: shows or changes the stored settings; each key is a
/// subcommand with its own help.
struct ComandoAjustes: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "ajustes",
        resumen: "Muestra o cambia los ajustes guardados (duración, ms por minuto, silencio…).",
        detalles: "Sin subcomando muestra todos los ajustes; con uno, cambia ese ajuste.",
        subcomandos: [
            AjusteDuracion.self, AjusteMsPorMinuto.self, AjusteSilencio.self,
            AjustePlazoDeAdjuntos.self, AjusteRegistroDias.self, AjusteRegistroLineas.self,
        ])

    @Bandera("--json", ayuda: "Escribe los ajustes en JSON, para otros programas.")
    var json: Bool

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let ajustes = try contexto.nucleo().ajustes()
        if json {
            struct AjustesJSON: Encodable {
                var duracion: Int
                var msPorMinuto: Int
                var sinAvisosEnPrimerPlano: Bool
                var avisosPermitidos: Bool
                var plazoDeAdjuntos: Double
                var registroDias: Int
                var registroLineas: Int
            }
            contexto.terminal.linea(
                try documentoJSON(
                    AjustesJSON(
                        duracion: ajustes.duracion, msPorMinuto: ajustes.msPorMinuto,
                        sinAvisosEnPrimerPlano: ajustes.sinAvisosEnPrimerPlano,
                        avisosPermitidos: ajustes.avisosPermitidos ?? false,
                        plazoDeAdjuntos: ajustes.plazoDeAdjuntos,
                        registroDias: ajustes.diasDeRegistro,
                        registroLineas: ajustes.lineasDeRegistro)))
            return .ok
        }
        var tabla = Tabla(cabeceras: ["AJUSTE", "VALOR"])
        for fila in [
            ["duracion", "\(ajustes.duracion) minutos"],
            ["ms-por-minuto", "\(ajustes.msPorMinuto)"],
            ["silencio", ajustes.sinAvisosEnPrimerPlano ? "si" : "no"],
            ["avisos", ajustes.avisosPermitidos == true ? "activados" : "desactivados"],
            ["plazo-adjuntos", "\(Textos.segundos(ajustes.plazoDeAdjuntos)) s"],
            ["registro-dias", "\(ajustes.diasDeRegistro)"],
            ["registro-lineas", "\(ajustes.lineasDeRegistro)"],
        ] {
            tabla.anadir(fila)
        }
        contexto.terminal.linea(tabla.texto { contexto.terminal.resaltar($0, .negrita) })
        return .ok
    }
}

/// `marcador ajustes duracion 60|90`.
struct AjusteDuracion: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "duracion",
        resumen: "Minutos de un partido: 60 o 90 (90 es 120 en los que tuvieron prórroga).",
        detalles: "Cambiarla vuelve a empezar desde cero los partidos en juego que la siguen.")

    @Argumento("MINUTOS", ayuda: "60 o 90.")
    var minutos: Int

    func validar() throws(Fallo) { try Nucleo.comprobarDuracion(minutos) }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        // The setting and the stop requests are one transaction: a `jugar` starting at the
        // same moment either sees the new duration or is stopped and starts again.
        let relanzados = try contexto.nucleo().cambiarDuracion(minutos)
        for linea in Frases.duracion(minutos, relanzados: relanzados) {
            contexto.terminal.linea(linea)
        }
        return .ok
    }
}

/// `marcador ajustes ms-por-minuto MS`.
struct AjusteMsPorMinuto: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "ms-por-minuto",
        resumen: "Milisegundos reales por minuto de partido, de 0 a 600000 (por defecto, 250).")

    @Argumento("MS", ayuda: "De 0 (al instante) a 600000.")
    var ms: Int

    func validar() throws(Fallo) { try Nucleo.comprobarMsPorMinuto(ms) }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        try contexto.nucleo().cambiarMsPorMinuto(ms)
        contexto.terminal.linea(Frases.msPorMinuto(ms))
        return .ok
    }
}

/// `marcador ajustes silencio si|no` (the same setting as `marcador avisos silencio`).
struct AjusteSilencio: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "silencio",
        resumen: "Sin banner ni campana en la terminal que mira el partido: si o no.")

    @Argumento("SI|NO", ayuda: "«si» o «no».")
    var silencio: SiNo

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        try contexto.nucleo().cambiarSilencio(silencio.valor)
        contexto.terminal.linea(Frases.silencio(silencio.valor))
        return .ok
    }
}

/// `marcador ajustes plazo-adjuntos S`.
struct AjustePlazoDeAdjuntos: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "plazo-adjuntos",
        resumen:
            "Segundos para descargar el adjunto de un aviso, de 0.1 a 300 (por defecto, 30); pasado el plazo, el aviso sale sin él."
    )

    @Argumento("SEGUNDOS", ayuda: "De 0.1 a 300.")
    var segundos: Double

    func validar() throws(Fallo) { try Nucleo.comprobarPlazoDeAdjuntos(segundos) }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        try contexto.nucleo().cambiarPlazoDeAdjuntos(segundos)
        contexto.terminal.linea(Frases.plazoDeAdjuntos(segundos))
        return .ok
    }
}

/// `marcador ajustes registro-dias N`.
struct AjusteRegistroDias: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "registro-dias",
        resumen: "Días que el registro guarda sus líneas, de 1 a 3650 (por defecto, 30).")

    @Argumento("DIAS", ayuda: "De 1 a 3650.")
    var dias: Int

    func validar() throws(Fallo) { try Nucleo.comprobarDiasDeRegistro(dias) }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        try contexto.nucleo().cambiarDiasDeRegistro(dias)
        contexto.terminal.linea(Frases.diasDeRegistro(dias))
        return .ok
    }
}

/// `marcador ajustes registro-lineas N`.
struct AjusteRegistroLineas: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "registro-lineas",
        resumen:
            "Líneas que el registro guarda como mucho, de 100 a 100000000 (por defecto, 100000).")

    @Argumento("LINEAS", ayuda: "De 100 a 100000000.")
    var lineas: Int

    func validar() throws(Fallo) { try Nucleo.comprobarLineasDeRegistro(lineas) }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        try contexto.nucleo().cambiarLineasDeRegistro(lineas)
        contexto.terminal.linea(Frases.lineasDeRegistro(lineas))
        return .ok
    }
}
