import Aplicacion
import Avisos
import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `marcador avisos canales`: lists the channels; its subcommands change them.
struct AvisosCanales: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "canales",
        resumen: "Lista los canales de avisos (y los añade, quita, pausa o reanuda).",
        subcomandos: [
            CanalesAnadir.self, CanalesQuitar.self, CanalesActivar.self, CanalesDesactivar.self,
            CanalesSeguir.self, CanalesDejar.self,
        ])

    @Bandera("--json", ayuda: "Escribe la lista en JSON, para otros programas.")
    var json: Bool

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let canales = try contexto.nucleo().canales()
        if json {
            contexto.terminal.linea(try documentoJSON(canales))
        } else {
            contexto.terminal.linea(tablaDeCanales(canales, contexto.terminal))
        }
        return .ok
    }
}

/// `marcador avisos canales añadir TIPO …`: one subcommand per channel type, each with its
/// own options.
struct CanalesAnadir: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "añadir", alias: ["anadir"],
        resumen: "Añade un canal: registro, escritorio, webhook, apns o navegador.",
        subcomandos: [
            AnadirRegistro.self, AnadirEscritorio.self, AnadirWebhook.self, AnadirAPNs.self,
            AnadirNavegador.self,
        ])

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        throw Fallo.uso("Falta el tipo de canal: \(TipoDeCanal.lista).")
    }
}

/// What every `añadir` accepts.
struct OpcionesDeCanalNuevo: GrupoDeOpciones {
    @Opcion("--nombre", marcador: "NOMBRE", ayuda: "Nombre del canal nuevo (por defecto, su tipo).")
    var nombre: String?

    @Bandera("--reemplazar", ayuda: "Sustituye al canal que ya tenga ese nombre.")
    var reemplazar: Bool

    var filtro = OpcionesDeFiltro()

    @Opcion(
        "--antes",
        ayuda:
            "Cuánto antes del saque llega el recordatorio «Empieza pronto» (clase recordatorio): 90s, 15m, 2h (por defecto, 15m)."
    )
    var antes: Antelacion?

    /// Stores the channel (the core checks its name, what it follows and that it works here).
    @MainActor
    func guardar(_ tipo: TipoDeCanal, _ ajustes: AjustesDeCanal, en contexto: Contexto) throws
        -> CodigoDeSalida
    {
        let guardado = try contexto.nucleo().anadirCanal(
            tipo, nombre: nombre, ajustes: ajustes, seguimiento: filtro.seguimiento.leido,
            reemplazar: reemplazar, avisar: filtro.avisar?.clases,
            horasTranquilas: filtro.horasTranquilas, retraso: filtro.retraso ?? 0, antes: antes)
        contexto.terminal.linea(Frases.canalGuardado(guardado, tipo, reemplazado: reemplazar))
        return .ok
    }
}

/// What a channel or a device follows and how its notices come (§10, §15): the same options
/// for `avisos canales añadir` and `dispositivos añadir`.
struct OpcionesDeFiltro: GrupoDeOpciones {
    var seguimiento = OpcionesDeSeguimiento()

    @Opcion(
        "--avisar",
        ayuda:
            "Qué avisos recibe: goles, anulados, rojas, alineaciones, inicio, descanso, final y recordatorio, separados por comas (por defecto, goles,anulados)."
    )
    var avisar: ClasesElegidas?

    @Opcion(
        "--horas-tranquilas",
        ayuda:
            "Horas (en tu zona) en que los avisos llegan sin sonido ni ventana, donde el canal lo permite: 23:00-08:00."
    )
    var horasTranquilas: HorasTranquilas?

    @Opcion(
        "--retraso", marcador: "SEGUNDOS", rango: 0...3600, unidad: " segundos",
        ayuda:
            "Segundos que esperan sus avisos tras el momento del partido, para no adelantarse a una retransmisión que va con retraso (de 0 a 3600; por defecto, 0)."
    )
    var retraso: Double?
}

/// A delivery's time limit, for the channels that can hang.
struct OpcionDeLimite: GrupoDeOpciones {
    @Opcion(
        "--limite", marcador: "SEGUNDOS", rango: 0.1...300, unidad: " segundos",
        ayuda: "Tiempo máximo de una entrega, de 0.1 a 300 segundos (por defecto, 10).")
    var limite: Double?
}

struct AnadirRegistro: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "registro",
        resumen: "Un canal que escribe «notificación «¡Gol!» enviada: …» en el registro.")

    var comunes = OpcionesDeCanalNuevo()

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        try comunes.guardar(.registro, AjustesDeCanal(), en: contexto)
    }
}

struct AnadirNavegador: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "navegador",
        resumen: "Notificaciones en las páginas abiertas de «marcador servir».",
        detalles: """
            Cada aviso queda anotado en la base y «marcador servir» lo lleva a las páginas
            abiertas, que lo muestran como notificación del sistema si tienen permiso (o como un
            aviso dentro de la página, con el modo silencio y la página a la vista).
            """)

    var comunes = OpcionesDeCanalNuevo()

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        try comunes.guardar(.navegador, AjustesDeCanal(), en: contexto)
    }
}

struct AnadirEscritorio: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "escritorio",
        resumen: "Notificaciones de escritorio (notify-send y una sesión de D-Bus).")

    var comunes = OpcionesDeCanalNuevo()
    var limite = OpcionDeLimite()

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        try comunes.guardar(.escritorio, AjustesDeCanal(limite: limite.limite), en: contexto)
    }
}

struct AnadirWebhook: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "webhook",
        resumen: "Un POST con un documento JSON por aviso (o al estilo de ntfy).")

    @Opcion(
        "--url", marcador: "URL", ayuda: "URL del webhook (http:// o https://).",
        obligatoria: true)
    var url: String?

    @Bandera("--ntfy", ayuda: "El servidor habla como ntfy (título y adjunto en cabeceras).")
    var ntfy: Bool

    var comunes = OpcionesDeCanalNuevo()
    var limite = OpcionDeLimite()

    func validar() throws(Fallo) { try Nucleo.comprobarURLDeWebhook(url) }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        try comunes.guardar(
            .webhook, AjustesDeCanal(url: url, limite: limite.limite, ntfy: ntfy ? true : nil),
            en: contexto)
    }
}

struct AnadirAPNs: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "apns",
        resumen: "Un fichero .apns por aviso (lo que aceptan APNs y «xcrun simctl push»).")

    @Opcion(
        "--directorio", marcador: "DIR", ayuda: "Carpeta donde dejar los ficheros .apns.",
        obligatoria: true)
    var directorio: String?

    @Opcion("--bundle", marcador: "ID", ayuda: "«Simulator Target Bundle» de los ficheros.")
    var bundle: String?

    var comunes = OpcionesDeCanalNuevo()

    func validar() throws(Fallo) {
        if directorio == nil { throw .uso("Un canal apns necesita --directorio DIR.") }
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let directorio = self.directorio ?? ""
        let absoluto =
            directorio.hasPrefix("/") ? directorio : Self.directorioActual() + "/" + directorio
        return try comunes.guardar(
            .apns, AjustesDeCanal(directorio: absoluto, bundle: bundle), en: contexto)
    }

    private static func directorioActual() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        return getcwd(&buffer, buffer.count).map { String(cString: $0) } ?? "."
    }
}

/// `marcador avisos canales quitar NOMBRE`.
struct CanalesQuitar: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "quitar", resumen: "Quita un canal (sus entregas pendientes se descartan).")

    @Argumento("NOMBRE", ayuda: "El nombre del canal.")
    var nombre: String

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        try contexto.nucleo().quitarCanal(nombre)
        contexto.terminal.linea(Frases.canalQuitado(nombre))
        return .ok
    }
}

/// `marcador avisos canales activar NOMBRE`.
struct CanalesActivar: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "activar", resumen: "Reanuda un canal en pausa.")

    @Argumento("NOMBRE", ayuda: "El nombre del canal.")
    var nombre: String

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        try contexto.nucleo().activarCanal(nombre, activo: true)
        contexto.terminal.linea(Frases.canalActivo(nombre, true))
        return .ok
    }
}

/// `marcador avisos canales desactivar NOMBRE`: a pause, not a removal.
struct CanalesDesactivar: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "desactivar",
        resumen: "Pone un canal en pausa sin borrarlo: no recibe avisos nuevos hasta reanudarlo.")

    @Argumento("NOMBRE", ayuda: "El nombre del canal.")
    var nombre: String

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        try contexto.nucleo().activarCanal(nombre, activo: false)
        contexto.terminal.linea(Frases.canalActivo(nombre, false))
        return .ok
    }
}

/// What a channel follows, given on the command line (each option repeatable).
struct OpcionesDeSeguimiento: GrupoDeOpciones {
    @Opciones(
        "--equipo", marcador: "NOMBRE", ayuda: "Solo los goles de los partidos de ese equipo.")
    var equipos: [String]

    @Opciones(
        "--competicion", marcador: "NOMBRE", ayuda: "Solo los goles de esa competición.")
    var competiciones: [String]

    @Opciones("--partido", marcador: "ID", ayuda: "Solo los goles de ese partido.")
    var partidos: [IdDePartido]

    /// Nothing to follow was given.
    @MainActor
    var ninguno: Bool { equipos.isEmpty && competiciones.isEmpty && partidos.isEmpty }

    /// What was given, for the core to find among the stored names.
    @MainActor
    var leido: Seguimiento {
        Seguimiento(equipos: equipos, competiciones: competiciones, partidos: partidos.map(\.valor))
    }
}

/// `marcador avisos canales seguir NOMBRE --equipo …`: the channel follows more.
struct CanalesSeguir: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "seguir",
        resumen:
            "Hace que un canal siga también esos equipos, competiciones o partidos (y solo lo que siga)."
    )

    @Argumento("NOMBRE", ayuda: "El nombre del canal.")
    var nombre: String

    var seguimiento = OpcionesDeSeguimiento()

    func validar() throws(Fallo) {
        if seguimiento.ninguno {
            throw .uso("Indica qué seguir: --equipo, --competicion o --partido.")
        }
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let filtros = try contexto.nucleo().cambiarSeguimiento(nombre, seguimiento.leido)
        contexto.terminal.linea(Frases.seguimiento(nombre, filtros))
        return .ok
    }
}

/// `marcador avisos canales dejar NOMBRE --equipo …`: the channel stops following those.
struct CanalesDejar: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "dejar",
        resumen:
            "Hace que un canal deje de seguir esos equipos, competiciones o partidos (sin ninguno, lo recibe todo)."
    )

    @Argumento("NOMBRE", ayuda: "El nombre del canal.")
    var nombre: String

    var seguimiento = OpcionesDeSeguimiento()

    @Bandera("--todo", ayuda: "Deja de seguir todo lo que seguía: recibirá todos los goles.")
    var todo: Bool

    func validar() throws(Fallo) {
        if !todo && seguimiento.ninguno {
            throw .uso("Indica qué dejar de seguir: --equipo, --competicion, --partido o --todo.")
        }
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let filtros = try contexto.nucleo().cambiarSeguimiento(
            nombre, seguimiento.leido, quitar: true, todo: todo)
        contexto.terminal.linea(Frases.seguimiento(nombre, filtros))
        return .ok
    }
}
