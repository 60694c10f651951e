import Almacen
import Motor
import Sistema
import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `marcador ajustes [CLAVE VALOR]`: shows or changes the stored settings.
struct ComandoAjustes: Comando {
    static let nombre = "ajustes"
    static let resumen =
        "Muestra o cambia los ajustes guardados (duración, ms por minuto, silencio)."
    static let posicionales = [
        Posicional(nombre: "CLAVE", ayuda: "duracion, ms-por-minuto o silencio.", opcional: true),
        Posicional(nombre: "VALOR", ayuda: "El valor nuevo.", opcional: true),
    ]
    static let opciones: [Opcion] = [
        .bandera("--json", ayuda: "Escribe los ajustes en JSON, para otros programas.")
    ]
    static let detalles: String? = """
        Claves:
          duracion 60|90        Minutos de un partido (90 es 120 en los que tuvieron prórroga).
                                Cambiarla vuelve a empezar los partidos en juego que la siguen.
          ms-por-minuto N       Milisegundos reales por minuto de partido (0 a 600000).
          silencio si|no        Sin banner ni campana en la terminal que mira el partido.
          plazo-adjuntos S      Segundos para descargar el adjunto de un aviso (por defecto, 30);
                                pasado el plazo, el aviso sale sin él.
          registro-dias N       Días que el registro guarda sus líneas (por defecto, 30).
          registro-lineas N     Líneas que el registro guarda como mucho (por defecto, 100000).
        """

    enum Cambio {
        case duracion(Int)
        case msPorMinuto(Int)
        case silencio(Bool)
        case plazoDeAdjuntos(Double)
        case diasDeRegistro(Int)
        case lineasDeRegistro(Int)
    }

    let cambio: Cambio?

    init(_ argumentos: Argumentos) throws(Fallo) {
        try Self.comprobarPosicionales(argumentos)
        let posicionales = argumentos.posicionales
        guard let clave = posicionales.first else {
            cambio = nil
            return
        }
        guard posicionales.count == 2 else {
            throw .uso("Falta el valor de «\(clave)». Uso: marcador ajustes CLAVE VALOR")
        }
        let valor = posicionales[1]
        switch clave {
        case "duracion":
            guard let minutos = Int(valor), Duracion.ajustables.contains(minutos) else {
                throw .uso(Duracion.ajusteNoValido(TextoSeguro.limpio(valor)))
            }
            cambio = .duracion(minutos)
        case "ms-por-minuto":
            guard let ms = Int(valor), (0...600_000).contains(ms) else {
                throw .uso("ms-por-minuto va de 0 a 600000, no «\(valor)».")
            }
            cambio = .msPorMinuto(ms)
        case "silencio":
            guard valor == "si" || valor == "sí" || valor == "no" else {
                throw .uso("Indica «si» o «no» para silencio, no «\(valor)».")
            }
            cambio = .silencio(valor != "no")
        case "plazo-adjuntos":
            guard let segundos = Double(valor), segundos > 0, segundos <= 300 else {
                throw .uso("plazo-adjuntos va de 0 a 300 segundos, no «\(valor)».")
            }
            cambio = .plazoDeAdjuntos(segundos)
        case "registro-dias":
            guard let dias = Int(valor), (1...3650).contains(dias) else {
                throw .uso("registro-dias va de 1 a 3650, no «\(valor)».")
            }
            cambio = .diasDeRegistro(dias)
        case "registro-lineas":
            guard let lineas = Int(valor), (100...100_000_000).contains(lineas) else {
                throw .uso("registro-lineas va de 100 a 100000000, no «\(valor)».")
            }
            cambio = .lineasDeRegistro(lineas)
        default:
            throw .uso(
                "Ajuste desconocido «\(clave)». Ajustes: duracion, ms-por-minuto, silencio, "
                    + "plazo-adjuntos, registro-dias, registro-lineas.")
        }
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let queue = try contexto.almacen()
        let repositorio = PartidosSQLite(queue)
        var ajustes = try repositorio.ajustes()
        guard let cambio else {
            mostrar(ajustes, contexto)
            return .ok
        }
        switch cambio {
        case .duracion(let minutos):
            // The setting and the stop requests are one transaction: a `jugar` starting at
            // the same moment either sees the new duration or is stopped and starts again.
            let afectadas = try ControlDeEjecuciones.cambiarDuracion(
                minutos, en: EjecucionesSQLite(queue), propietario: .actual,
                despertar: { $0.propietario.despertar() })
            contexto.terminal.linea("Duración: \(minutos) minutos.")
            if afectadas > 0 {
                contexto.terminal.linea(
                    afectadas == 1
                        ? "Un partido en juego vuelve a empezar con la nueva duración."
                        : "\(afectadas) partidos en juego vuelven a empezar con la nueva duración."
                )
            }
        case .msPorMinuto(let ms):
            ajustes.msPorMinuto = ms
            try repositorio.guardar(ajustes)
            contexto.terminal.linea("Milisegundos por minuto: \(ms).")
        case .silencio(let silencio):
            ajustes.sinAvisosEnPrimerPlano = silencio
            try repositorio.guardar(ajustes)
            contexto.terminal.linea(
                silencio ? "Silencio: sí (sin banner ni campana en la terminal)." : "Silencio: no.")
        case .plazoDeAdjuntos(let segundos):
            ajustes.plazoDeAdjuntos = segundos
            try repositorio.guardar(ajustes)
            contexto.terminal.linea("Plazo de los adjuntos: \(formatoDeSegundos(segundos)) s.")
        case .diasDeRegistro(let dias):
            ajustes.diasDeRegistro = dias
            try repositorio.guardar(ajustes)
            try MantenimientoSQLite(queue).podar(ahora: segundosUnix())
            contexto.terminal.linea("El registro guarda \(Textos.cuenta(dias, "día", "días")).")
        case .lineasDeRegistro(let lineas):
            ajustes.lineasDeRegistro = lineas
            try repositorio.guardar(ajustes)
            try MantenimientoSQLite(queue).podar(ahora: segundosUnix())
            contexto.terminal.linea(
                "El registro guarda \(Textos.cuenta(lineas, "línea", "líneas")) como mucho.")
        }
        return .ok
    }

    private func mostrar(_ ajustes: Ajustes, _ contexto: Contexto) {
        if contexto.json {
            struct AjustesJSON: Encodable {
                var duracion: Int
                var msPorMinuto: Int
                var sinAvisosEnPrimerPlano: Bool
                var avisosPermitidos: Bool
                var plazoDeAdjuntos: Double
                var registroDias: Int
                var registroLineas: Int
            }
            let documento = try? documentoJSON(
                AjustesJSON(
                    duracion: ajustes.duracion, msPorMinuto: ajustes.msPorMinuto,
                    sinAvisosEnPrimerPlano: ajustes.sinAvisosEnPrimerPlano,
                    avisosPermitidos: ajustes.avisosPermitidos ?? false,
                    plazoDeAdjuntos: ajustes.plazoDeAdjuntos, registroDias: ajustes.diasDeRegistro,
                    registroLineas: ajustes.lineasDeRegistro))
            contexto.terminal.linea(documento ?? "{}")
            return
        }
        var tabla = Tabla(cabeceras: ["AJUSTE", "VALOR"])
        tabla.filas = [
            ["duracion", "\(ajustes.duracion) minutos"],
            ["ms-por-minuto", "\(ajustes.msPorMinuto)"],
            ["silencio", ajustes.sinAvisosEnPrimerPlano ? "si" : "no"],
            ["avisos", ajustes.avisosPermitidos == true ? "activados" : "desactivados"],
            ["plazo-adjuntos", "\(formatoDeSegundos(ajustes.plazoDeAdjuntos)) s"],
            ["registro-dias", "\(ajustes.diasDeRegistro)"],
            ["registro-lineas", "\(ajustes.lineasDeRegistro)"],
        ]
        contexto.terminal.linea(tabla.texto { contexto.terminal.resaltar($0, .negrita) })
    }
}

/// `30` rather than `30.0`.
func formatoDeSegundos(_ segundos: Double) -> String {
    segundos == segundos.rounded() ? String(Int(segundos)) : String(segundos)
}
