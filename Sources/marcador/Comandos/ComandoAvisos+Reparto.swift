import Almacen
import Aplicacion
import Avisos
import Persistencia
import Sistema
import Synchronization
import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lease a dispatcher process takes, for `enviar` and `vigilar`.
struct OpcionDeArriendo: GrupoDeOpciones {
    @Opcion(
        "--arriendo", marcador: "SEGUNDOS", rango: 1...86_400, unidad: " segundos",
        ayuda:
            "Cuánto es suyo un aviso reclamado si este proceso muere, de 1 a 86400 segundos (por defecto, 60); mientras vive lo renueva."
    )
    var arriendo: Double?

    var configuracion: Despachador.Configuracion {
        var configuracion = Despachador.Configuracion()
        if let arriendo { configuracion.arriendo = arriendo }
        return configuracion
    }
}

/// Says once (per channel and reason) that a channel cannot work on this machine.
final class CanalesNoDisponibles: Sendable {
    private let vistos = Mutex<Set<String>>([])
    let callado: Bool

    init(callado: Bool = false) { self.callado = callado }

    func avisar(_ fallo: FalloDeCanal) {
        guard !callado, vistos.withLock({ $0.insert("\(fallo.canal) \(fallo.motivo)").inserted })
        else { return }
        escribirEnStderr(
            "marcador: canal \(TextoSeguro.limpio(fallo.canal)) no disponible aquí: \(fallo.motivo).\n"
        )
    }
}

extension Contexto {
    /// The core's dispatcher hosting, telling this terminal about channels that cannot work.
    func reparto() throws(Fallo) -> Reparto {
        let avisos = CanalesNoDisponibles(callado: esEnsayo)
        return Reparto(try nucleo()) { avisos.avisar($0) }
    }
}

/// `marcador avisos enviar`: one drain of everything due now, every channel at once.
struct AvisosEnviar: Comando {
    static let largaDuracion = true
    static let asignaEnVariosHilos = true

    static let configuracion = ConfiguracionDeComando(
        nombre: "enviar", resumen: "Entrega una vez todo lo que toca ahora y termina.")

    var arriendo = OpcionDeArriendo()

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        var grupo = GrupoDeServicios.delProceso()
        let envio = EnvioDeAvisos(try contexto.reparto(), configuracion: arriendo.configuracion)
        grupo.añadir(envio, alAcabar: .acabaElGrupo)
        if let senal = try await grupo.run() { return CodigoDeSalida.porSenal(senal) }
        contexto.terminal.linea(Reparto.texto(envio.entregado))
        return .ok
    }

    /// Delivering is an effect outside the store: a rehearsal only opens it.
    func validarTrasReinicio(en ensayo: Contexto) async throws { _ = try ensayo.nucleo() }
}

/// `marcador avisos vigilar`: keeps delivering until a signal; follows channel changes.
struct AvisosVigilar: Comando {
    static let largaDuracion = true
    static let asignaEnVariosHilos = true

    static let configuracion = ConfiguracionDeComando(
        nombre: "vigilar",
        resumen: "Sigue entregando hasta Ctrl-C (130), SIGTERM (143) o SIGHUP (129).",
        detalles: """
            Lee los canales en cada vuelta (cada 200 ms): los que se añaden, cambian, pausan o
            quitan mientras vigila se atienden desde la vuelta siguiente.
            """)

    var arriendo = OpcionDeArriendo()

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        var grupo = GrupoDeServicios.delProceso()
        let reparto = try VigilanciaDeAvisos(
            contexto.reparto(), configuracion: arriendo.configuracion)
        grupo.añadir(reparto)
        contexto.terminal.linea("Vigilando la cola de avisos; Ctrl-C para terminar.")
        let senal = try await grupo.run()
        contexto.terminal.linea(Reparto.texto(reparto.entregado))
        return senal.map(CodigoDeSalida.porSenal) ?? .interrumpido
    }

    /// Delivering is an effect outside the store: a rehearsal only opens it.
    func validarTrasReinicio(en ensayo: Contexto) async throws { _ = try ensayo.nucleo() }
}

/// `marcador avisos reintentar`.
struct AvisosReintentar: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "reintentar",
        resumen: "Vuelve a poner en cola las entregas fallidas, con los intentos a cero.")

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        contexto.terminal.linea(Frases.reintentadas(try contexto.nucleo().reintentarFallidas()))
        return .ok
    }
}

/// `marcador avisos probar [--canal NOMBRE]`: a test notice through the outbox, and what each
/// channel did with it.
struct AvisosProbar: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "probar",
        resumen:
            "Manda un aviso de prueba («Prueba de marcador») por la cola y dice qué hizo cada canal.",
        detalles: """
            Sale con 0 si todos los canales lo entregaron y con 69 si alguno no pudo (el aviso
            queda en la cola para reintentarse como cualquier otro).
            """)

    @Opcion(
        "--canal", marcador: "NOMBRE", ayuda: "Solo ese canal (por defecto, todos los activos).")
    var canal: String?

    var arriendo = OpcionDeArriendo()

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let entregas = try await contexto.reparto().probar(
            canal: canal, configuracion: arriendo.configuracion)
        var todos = true
        for entrega in entregas {
            var linea = "\(entrega.canal.limpio): "
            switch entrega.estado {
            case .entregada: linea += "entregado"
            case .pendiente:
                linea +=
                    "no entregado (\(entrega.ultimoError ?? "no disponible aquí")); se reintentará"
            default: linea += "\(entrega.estado.rawValue) (\(entrega.ultimoError ?? ""))"
            }
            if entrega.estado != .entregada { todos = false }
            contexto.terminal.linea(linea)
        }
        return todos ? .ok : .canalNoDisponible
    }

    /// A test notice goes out of the store: a rehearsal checks only the channel it names.
    func validarTrasReinicio(en ensayo: Contexto) async throws {
        if let canal { _ = try ensayo.nucleo().canalExistente(canal) }
    }
}
