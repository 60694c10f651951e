import Almacen
import Aplicacion
import Avisos
import Motor
import Persistencia
import Sistema
import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `marcador jugar <id>`: plays a match live, like the lesson's view with `.task(id:)`.
struct ComandoJugar: Comando {
    static let largaDuracion = true

    static let configuracion = ConfiguracionDeComando(
        nombre: "jugar",
        resumen: "Juega un partido minuto a minuto, con el marcador en directo.",
        detalles: """
            Ctrl-C cancela el partido (sale con 130; SIGTERM, con 143; cerrar la terminal, con 129)
            y el registro anota en qué minuto. Otro «marcador jugar» del mismo partido lo reemplaza,
            y «marcador ajustes duracion N» lo vuelve a empezar desde cero con la nueva duración.
            Al acabar espera como mucho medio segundo a los avisos en camino y dice qué queda para
            «marcador avisos enviar».
            """)

    @Argumento("ID", ayuda: "El número del partido (los hay en «marcador partidos»).")
    var partidoLeido: IdDePartido

    @Opcion(
        "--duracion", marcador: "MINUTOS",
        ayuda:
            "60 o 90, o 120 en un partido con prórroga (por defecto, el ajuste «duracion»; 120 si el partido tuvo prórroga)."
    )
    var duracion: Int?

    @Opcion(
        "--ms-por-minuto", marcador: "MS", rango: 0...600_000,
        ayuda:
            "Milisegundos reales por minuto de partido, de 0 (al instante) a 600000 (por defecto, el ajuste «ms-por-minuto»; con --reanudar, el ritmo que llevaba)."
    )
    var msPorMinuto: Int?

    @Bandera(
        "--sin-avisos-en-primer-plano",
        ayuda:
            "Sin banner ni campana en esta terminal (los demás canales y el registro siguen avisando)."
    )
    var silencio: Bool

    @Bandera(
        "--reanudar",
        ayuda:
            "Sigue un partido interrumpido o cancelado desde su último minuto guardado, sin repetir goles."
    )
    var reanudar: Bool

    var id: Int { partidoLeido.valor }

    func validar() throws(Fallo) {
        if let duracion, !Duracion.todas.contains(duracion) {
            throw .uso(Duracion.noValida(String(duracion), conProrroga: nil))
        }
        if reanudar && duracion != nil {
            throw .uso("--reanudar sigue con la duración guardada: no se combina con --duracion.")
        }
    }

    /// The match, the duration and the run to resume, checked on the data as the reset will
    /// leave them; nothing is played.
    func validarTrasReinicio(en ensayo: Contexto) async throws {
        let juegos = Juegos(
            nucleo: try ensayo.nucleo(), registro: try ensayo.nucleo().registro(eco: false))
        _ = try juegos.comprobar(peticion(canalesPropios: []))
    }

    private func peticion(canalesPropios: [String]) -> PeticionDeJuego {
        PeticionDeJuego(
            partido: id, duracion: duracion, msPorMinuto: msPorMinuto, reanudar: reanudar,
            canalesPropios: canalesPropios)
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let nucleo = try contexto.nucleo()
        let pantalla = Pantalla(terminal: contexto.terminal)
        var registro = RegistroEnPantalla(base: nucleo.registro(), pantalla: pantalla)
        let juegos = Juegos(nucleo: nucleo, registro: registro)
        let (partido, _) = try juegos.comprobar(peticion(canalesPropios: []))
        let ajustes = try preguntarPermisoSiHaceFalta(nucleo, contexto)
        if partido.eventos.isEmpty {
            contexto.terminal.linea(
                "Este partido no tiene goles en su guion: se juega sin ninguno.")
        }
        try nucleo.podarSiToca()
        let enPrimerPlano = !(silencio || ajustes.sinAvisosEnPrimerPlano)
        // On a terminal, one line per goal: the banner where it shows, else the goal line; the
        // log's «notificación … enviada» stays in `marcador registro`. Piped output keeps all
        // three (scripts and the lessons' console read them).
        let unaLineaPorGol =
            enPrimerPlano && ajustes.avisosPermitidos == true && pantalla.terminal.esInteractiva
        registro.mostrarAvisos = !(pantalla.terminal.esInteractiva && isatty(2) == 1)
        var propios: [CanalActivo] = []
        if enPrimerPlano {
            let terminal = pantalla.terminal
            propios.append(
                CanalActivo(
                    notificador: CanalTerminal(
                        conCampana: terminal.esInteractiva, enmarcado: terminal.esInteractiva
                    ) { texto in pantalla.linea(texto) }))
        }
        let cierre = Cierre()
        let reparto = try RepartoEnProceso(
            Reparto(nucleo) { fallo in
                pantalla.linea(
                    "Canal \(TextoSeguro.limpio(fallo.canal)) no disponible aquí "
                        + "(\(fallo.motivo)): sus avisos esperan a «marcador avisos vigilar» donde funcione."
                )
            }, propios: propios, registro: registro, cierre: cierre)
        let dibujo = DibujoDelPartido(pantalla: pantalla, golesEnBanner: unaLineaPorGol)
        let juego = JuegoDeUnPartido(
            juegos, peticion(canalesPropios: enPrimerPlano ? [TipoDeCanal.nombreTerminal] : []),
            alEmpezar: { _, ejecucion in reparto.atender(ejecucion: ejecucion) },
            alCambiar: { modelo, cambio in dibujo.dibujar(modelo, cambio) },
            alRelanzar: { minutos in
                pantalla.cerrarEstado()
                pantalla.linea(
                    "La duración cambió a \(minutos) minutos: el partido vuelve a empezar.")
            })
        // A stop request from another host arrives as a notification (signals do not cross
        // machines); on one host SIGUSR1 does the same.
        let escucha = nucleo.tienda.escuchar(.parar) { _ in
            Task { @MainActor in juegos.revisarParadas() }
        }
        defer { escucha?.parar() }
        var grupo = GrupoDeServicios.delProceso(
            cierre: cierre,
            otras: [
                SIGUSR1: { Task { @MainActor in juegos.revisarParadas() } },
                SIGWINCH: { Task { @MainActor in pantalla.redibujar() } },
            ])
        // The dispatcher first, the match last: stopped first, the match writes its end
        // (CANCELADO) before the dispatcher gives back what it did not deliver.
        grupo.añadir(reparto)
        grupo.añadir(juego, alAcabar: .acabaElGrupo)
        let senal = try await grupo.run()
        for (canal, cuantos) in reparto.pendientes.sorted(by: { $0.key < $1.key }) {
            registro.anotar(
                Textos.cuenta(cuantos, "aviso pendiente", "avisos pendientes")
                    + " para «\(TextoSeguro.limpio(canal))»: `marcador avisos enviar`",
                partido: id)
        }
        pantalla.cerrarEstado()
        let resultado = dibujo.resultado
        let porSenal = senal.map(CodigoDeSalida.porSenal)
        switch juego.desenlace ?? .cancelado(enElMinuto: 0) {
        case .terminado:
            pantalla.linea("Partido terminado: \(resultado) (\(dibujo.duracion) minutos).")
            return porSenal ?? .ok
        case .cancelado(let minuto):
            pantalla.linea("Cancelado en el minuto \(minuto): \(resultado).")
            return porSenal ?? .interrumpido
        case .reemplazado(let minuto):
            pantalla.linea(
                "Cancelado en el minuto \(minuto): otro «marcador jugar \(id)» lo juega ahora.")
            return porSenal ?? .ok
        case .perdido(let minuto):
            pantalla.linea(
                "Detenido en el minuto \(minuto): otro proceso ha retomado esta ejecución y la "
                    + "juega ahora.")
            return porSenal ?? .ok
        }
    }

    /// Like the system dialog: the first `jugar` on a terminal asks once; without a terminal to
    /// ask on, permission stays off and nobody is asked.
    private func preguntarPermisoSiHaceFalta(_ nucleo: Nucleo, _ contexto: Contexto) throws
        -> Ajustes
    {
        let ajustes = try nucleo.ajustes()
        guard ajustes.avisosPermitidos == nil, contexto.terminal.puedePreguntar else {
            return ajustes
        }
        contexto.terminal.escribir("¿Activar avisos de gol? [s/N] ")
        let respuesta = (readLine() ?? "").lowercased()
        let permitidos = ["s", "si", "sí", "y", "yes"].contains(respuesta)
        try nucleo.permitirAvisos(permitidos)
        contexto.terminal.linea(Frases.permiso(permitidos))
        return try nucleo.ajustes()
    }
}

/// Turns the model's changes into screen output: goal lines, the status line, notices.
@MainActor
final class DibujoDelPartido {
    let pantalla: Pantalla
    /// The terminal's banner shows each goal: then it is the goal's one line on this screen
    /// (issue 42: each goal was printed three times — goal line, banner, log line).
    let golesEnBanner: Bool
    private var ultimoAvisoMostrado = "ninguno"
    private var ultimoGol: String?
    private var modelo: PartidoEnVivo?

    init(pantalla: Pantalla, golesEnBanner: Bool = false) {
        self.pantalla = pantalla
        self.golesEnBanner = golesEnBanner
    }

    /// `Rayo FC 3-2 Toros` for the match drawn last.
    var resultado: String {
        guard let modelo else { return "" }
        return
            "\(nombre(modelo.partido.local)) \(modelo.marcador) \(nombre(modelo.partido.visitante))"
    }

    var duracion: Int { modelo?.duracion ?? 0 }

    private func nombre(_ equipo: Equipo) -> String { TextoSeguro.limpio(equipo.nombre) }

    func dibujar(_ modelo: PartidoEnVivo, _ cambio: PartidoEnVivo.Cambio) {
        self.modelo = modelo
        let terminal = pantalla.terminal
        let local = nombre(modelo.partido.local)
        let visitante = nombre(modelo.partido.visitante)
        switch cambio {
        case .gol(let aviso):
            ultimoGol = "\(TextoSeguro.limpio(aviso.jugador)) \(aviso.minuto)'"
            if !golesEnBanner {
                pantalla.linea(
                    terminal.resaltar("Gol: \(TextoSeguro.limpio(aviso.cuerpo)).", .negrita)
                        + " \(local) \(aviso.marcador) \(visitante)")
            }
        case .roja(let aviso):
            // Always its own line: no channel shows cards unless asked (`--avisar rojas`).
            pantalla.linea("Tarjeta roja: \(TextoSeguro.limpio(aviso.cuerpo)).")
        case .minuto:
            let nuevo = modelo.ultimoAviso != ultimoAvisoMostrado ? modelo.ultimoAviso : nil
            ultimoAvisoMostrado = modelo.ultimoAviso
            pantalla.estado(
                LineaDeEstado(
                    estado: modelo.estado.texto, minuto: modelo.minuto, local: local,
                    visitante: visitante, marcador: modelo.marcador.description,
                    ultimoAviso: modelo.ultimoAviso, ultimoGol: ultimoGol),
                avisoNuevo: nuevo)
        case .inicio:
            ultimoAvisoMostrado = modelo.ultimoAviso
            pantalla.linea(
                "\(local) – \(visitante): \(modelo.duracion) minutos, desde el minuto "
                    + "\(modelo.minuto) (\(modelo.identificador)).")
        case .fin:
            // The status line stays, showing how the match ended (never a stale «En juego»).
            pantalla.estado(
                LineaDeEstado(
                    estado: modelo.estado.texto, minuto: modelo.minuto, local: local,
                    visitante: visitante, marcador: modelo.marcador.description,
                    ultimoAviso: modelo.ultimoAviso, ultimoGol: ultimoGol),
                avisoNuevo: nil)
        }
    }
}
