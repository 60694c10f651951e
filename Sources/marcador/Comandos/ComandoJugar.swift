import Almacen
import Avisos
import Motor
import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `marcador jugar <id>`: plays a match live, like the lesson's view with `.task(id:)`.
struct ComandoJugar: Comando {
    static let nombre = "jugar"
    static let resumen = "Juega un partido minuto a minuto, con el marcador en directo."
    static let posicionales = [
        Posicional(nombre: "ID", ayuda: "El número del partido (los hay en «marcador partidos»).")
    ]
    static let opciones: [Opcion] = [
        .conValor(
            "--duracion", "MINUTOS",
            ayuda:
                "60 o 90, o 120 en un partido con prórroga (por defecto, el ajuste «duracion»; 120 si el partido tuvo prórroga)."
        ),
        .conValor(
            "--ms-por-minuto", "MS",
            ayuda:
                "Milisegundos reales por minuto de partido; 0 lo juega al instante (por defecto, 250)."
        ),
        .bandera(
            "--sin-avisos-en-primer-plano",
            ayuda:
                "Sin banner ni campana en esta terminal (los demás canales y el registro siguen avisando)."
        ),
        .bandera(
            "--reanudar",
            ayuda:
                "Sigue un partido interrumpido o cancelado desde su último minuto guardado, sin repetir goles."
        ),
    ]
    static let detalles: String? = """
        Ctrl-C cancela el partido (sale con 130; SIGTERM, con 143) y el registro anota en qué minuto.
        Otro «marcador jugar» del mismo partido lo reemplaza, y «marcador ajustes duracion N» lo
        vuelve a empezar desde cero con la nueva duración.
        """

    let id: Int
    let duracion: Int?
    let msPorMinuto: Int?
    let reanudar: Bool
    let silencio: Bool

    init(_ argumentos: Argumentos) throws(Fallo) {
        try Self.comprobarPosicionales(argumentos)
        id = try Argumentos.idDePartido(argumentos.posicionales[0])
        duracion = try argumentos.entero("--duracion")
        if let duracion, ![60, 90, 120].contains(duracion) {
            throw .uso(Self.duracionNoValida(duracion, conProrroga: true))
        }
        msPorMinuto = try argumentos.entero("--ms-por-minuto")
        if let ms = msPorMinuto, !(0...600_000).contains(ms) {
            throw .uso("El valor de --ms-por-minuto va de 0 a 600000, no \(ms).")
        }
        reanudar = argumentos.tiene("--reanudar")
        silencio = argumentos.tiene("--sin-avisos-en-primer-plano")
        if reanudar && duracion != nil {
            throw .uso("--reanudar sigue con la duración guardada: no se combina con --duracion.")
        }
    }

    static func duracionNoValida(_ duracion: Int, conProrroga: Bool) -> String {
        conProrroga
            ? "Indica una duración de 60, 90 o 120 minutos (120 solo en partidos con prórroga), no \(duracion)."
            : "Este partido no tuvo prórroga: indica una duración de 60 o 90 minutos, no \(duracion)."
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let queue = try contexto.almacen()
        let repositorio = PartidosSQLite(queue)
        let partido = try repositorio.partidoExistente(id)
        if let duracion, !partido.duracionesPermitidas.contains(duracion) {
            throw Fallo.uso(Self.duracionNoValida(duracion, conProrroga: false))
        }
        let ajustes = try preguntarPermisoSiHaceFalta(repositorio, contexto)
        if partido.eventos.isEmpty {
            contexto.terminal.linea(
                "Este partido no tiene goles en su guion: se juega sin ninguno.")
        }
        let ejecuciones = EjecucionesSQLite(queue)
        var guardada = reanudar ? try ejecucionReanudable(ejecuciones) : nil

        let control = ControlDeJugar(ejecuciones: ejecuciones)
        let senales = Senales.escuchar([SIGINT, SIGTERM, SIGUSR1])
        let vigia = Task { @MainActor in
            for await numero in senales { control.recibir(numero) }
        }
        defer { vigia.cancel() }

        if guardada == nil {
            try await reemplazarOtrasEjecuciones(ejecuciones)
        }
        let pantalla = Pantalla(terminal: contexto.terminal)
        let registro = RegistroEnPantalla(base: RegistroSQLite(queue), pantalla: pantalla)
        let enPrimerPlano = !(silencio || ajustes.sinAvisosEnPrimerPlano)
        let reparto = try RepartoEnProceso(
            queue: queue, registro: registro, entorno: contexto.entorno, pantalla: pantalla,
            conBanner: enPrimerPlano)
        defer { reparto.cerrar() }
        let ms = msPorMinuto ?? guardada?.msPorMinuto ?? ajustes.msPorMinuto
        var duracionActual =
            guardada?.duracion ?? duracion ?? partido.duracionPorDefecto(ajuste: ajustes.duracion)
        let duracionFija = duracion != nil || guardada?.duracionFija == true

        while true {
            if control.senal != nil { return control.codigoDeSalida }
            let cronica = CronicaSQLite(
                queue, partidoId: id, duracionFija: duracionFija,
                canalesPropios: enPrimerPlano ? [BuzonSQLite.canalTerminal] : [])
            let modelo = PartidoEnVivo(
                partido: partido, msPorMinuto: ms, cronica: cronica, registro: registro)
            let dibujo = DibujoDelPartido(modelo: modelo, pantalla: pantalla)
            modelo.alCambiar = { cambio in
                dibujo.dibujar(cambio)
                switch cambio {
                case .inicio: reparto.atender(ejecucion: cronica.ejecucion)
                case .gol: reparto.despertar()
                default: break
                }
            }
            control.cronica = cronica
            let aReanudar = guardada
            let tarea = Task { @MainActor in
                if let aReanudar { return try await modelo.reanudar(aReanudar) }
                return try await modelo.jugar(duracion: duracionActual)
            }
            control.tarea = tarea
            let fin = try await tarea.value
            control.tarea = nil
            let motivo =
                control.senal == nil
                ? try cronica.ejecucion.flatMap { try ejecuciones.cancelacionPedida(ejecucion: $0) }
                : nil
            if case .cancelado = fin, motivo == .duracion {
                // `.task(id:)`: the same process plays a new run; its dispatcher goes on.
                pantalla.cerrarEstado()
                duracionActual = partido.duracionPorDefecto(
                    ajuste: try repositorio.ajustes().duracion)
                guardada = nil
                pantalla.linea(
                    "La duración cambió a \(duracionActual) minutos: el partido vuelve a empezar.")
                continue
            }
            // After Ctrl-C or SIGTERM the process leaves within the tick: whatever the in-process
            // dispatcher had not delivered stays leased or queued for `avisos enviar/vigilar`.
            if control.senal == nil { await reparto.terminarPendientes() }
            pantalla.cerrarEstado()
            guard case .cancelado(let minuto) = fin else {
                pantalla.linea(
                    "Partido terminado: \(dibujo.resultado) (\(modelo.duracion) minutos).")
                return .ok
            }
            if control.senal != nil {
                pantalla.linea("Cancelado en el minuto \(minuto): \(dibujo.resultado).")
                return control.codigoDeSalida
            }
            pantalla.linea(
                "Cancelado en el minuto \(minuto): otro «marcador jugar \(id)» lo juega ahora.")
            return .ok
        }
    }

    /// Like the system dialog: the first `jugar` on a terminal asks once; without a terminal to
    /// ask on, permission stays off and nobody is asked.
    private func preguntarPermisoSiHaceFalta(_ repositorio: PartidosSQLite, _ contexto: Contexto)
        throws
        -> Ajustes
    {
        var ajustes = try repositorio.ajustes()
        guard ajustes.avisosPermitidos == nil, contexto.terminal.puedePreguntar else {
            return ajustes
        }
        contexto.terminal.escribir("¿Activar avisos de gol? [s/N] ")
        let respuesta = (readLine() ?? "").lowercased()
        ajustes.avisosPermitidos = ["s", "si", "sí", "y", "yes"].contains(respuesta)
        try repositorio.guardar(ajustes)
        contexto.terminal.linea(
            ajustes.avisosPermitidos == true
                ? "Avisos de gol: activados" : "Avisos de gol: desactivados")
        return ajustes
    }

    /// `--reanudar` continues a run whose process died or that was cancelled; anything else is
    /// refused with what to do instead.
    private func ejecucionReanudable(_ ejecuciones: EjecucionesSQLite) throws -> EjecucionGuardada {
        guard let ultima = try ejecuciones.ultima(partido: id), ultima.estado != .sinEmpezar else {
            throw Fallo.uso(
                "El partido \(id) no ha empezado: no hay nada que reanudar. Júgalo con «marcador jugar \(id)»."
            )
        }
        switch ultima.estadoDelPartido {
        case .interrumpido, .cancelado:
            return ultima
        case .enJuego:
            throw Fallo.uso(
                "El partido \(id) se está jugando en otro proceso (pid \(ultima.pid ?? 0)); "
                    + "«marcador jugar \(id)» lo reemplaza y empieza de cero.")
        default:
            throw Fallo.uso(
                "El partido \(id) ya terminó: no hay nada que reanudar. «marcador jugar \(id)» lo juega de nuevo."
            )
        }
    }

    /// `.task(id:)` across processes: another live run of this match is asked to stop (in the
    /// database, then woken with SIGUSR1) and given a moment to log its CANCELADO first.
    private func reemplazarOtrasEjecuciones(_ ejecuciones: EjecucionesSQLite) async throws {
        let otras = try ejecuciones.pedirReemplazo(partido: id)
        for otra in otras { kill(pid_t(otra.propietario.pid), SIGUSR1) }
        let limite = ContinuousClock.now + .seconds(3)
        for otra in otras {
            while ContinuousClock.now < limite {
                let estado = try ejecuciones.ejecucion(id: otra.id)
                if estado?.estado != .enJuego || estado?.propietarioVivo == false { break }
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
    }
}

/// Turns the model's changes into screen output: goal lines, the status line, notices.
@MainActor
final class DibujoDelPartido {
    let modelo: PartidoEnVivo
    let pantalla: Pantalla
    private var ultimoAvisoMostrado = "ninguno"

    init(modelo: PartidoEnVivo, pantalla: Pantalla) {
        self.modelo = modelo
        self.pantalla = pantalla
        ultimoAvisoMostrado = modelo.ultimoAviso
    }

    var resultado: String {
        "\(modelo.partido.local.nombre) \(modelo.marcador) \(modelo.partido.visitante.nombre)"
    }

    func dibujar(_ cambio: PartidoEnVivo.Cambio) {
        let terminal = pantalla.terminal
        switch cambio {
        case .gol(let aviso):
            let marcador =
                "\(modelo.partido.local.nombre) \(aviso.marcador) \(modelo.partido.visitante.nombre)"
            pantalla.linea(terminal.resaltar("Gol: \(aviso.cuerpo).", .negrita) + " \(marcador)")
        case .minuto:
            let nuevo = modelo.ultimoAviso != ultimoAvisoMostrado ? modelo.ultimoAviso : nil
            ultimoAvisoMostrado = modelo.ultimoAviso
            let estado = terminal.resaltar(modelo.estado.texto, .verde)
            pantalla.estado(
                "\(estado)  minuto \(modelo.minuto)  \(resultado)  · último aviso: \(modelo.ultimoAviso)",
                avisoNuevo: nuevo)
        case .inicio:
            ultimoAvisoMostrado = modelo.ultimoAviso
            pantalla.linea(
                "\(modelo.partido.local.nombre) – \(modelo.partido.visitante.nombre): "
                    + "\(modelo.duracion) minutos, desde el minuto \(modelo.minuto) "
                    + "(\(modelo.identificador)).")
        case .fin:
            break
        }
    }
}
