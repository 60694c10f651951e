import Aplicacion
import Sistema
import Torneo
import Web

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `marcador servir`: the lessons' screen in the browser (screen.md).
struct ComandoServir: Comando {
    static let largaDuracion = true
    static let asignaEnVariosHilos = true

    static let configuracion = ConfiguracionDeComando(
        nombre: "servir",
        resumen: "Sirve la pantalla del partido en el navegador, en directo, con sus avisos.",
        detalles: """
            Abre http://127.0.0.1:8080/: la lista de partidos y, en cada uno, la pantalla de la
            app (marcador, minuto, estado, último aviso, Jugar, gol a mano, duración, silencio y
            el permiso de notificaciones). Lo que cambia en la base (también un «marcador jugar»
            en otra terminal) llega a las páginas al momento. Mientras sirve, entrega los avisos
            de todos los canales, como «avisos vigilar». Ctrl-C (130) o SIGTERM (143) lo paran en
            menos de un cuarto de segundo; los partidos que empezó quedan CANCELADOS.
            """)

    @Opcion(
        "--direccion", marcador: "IP",
        ayuda:
            "Dirección en la que escuchar (por defecto, 127.0.0.1: solo este ordenador); otra exige --token."
    )
    var direccion: String?

    @Opcion(
        "--puerto", marcador: "PUERTO", rango: 0...65_535,
        ayuda: "Puerto, de 1 a 65535 (por defecto, 8080; 0 elige uno libre).")
    var puerto: Int?

    @Opcion(
        "--token", marcador: "CLAVE",
        ayuda:
            "Clave del servidor, de 16 caracteres o más: quien no la da en /entrar (o en X-Marcador-Token) no ve nada."
    )
    var token: String?

    static let direccionPorDefecto = "127.0.0.1"
    static let puertoPorDefecto = 8080

    var direccionElegida: String { direccion ?? Self.direccionPorDefecto }

    func validar() throws(Fallo) {
        if let token,
            token.count < 16
                || !token.allSatisfy({
                    $0.isASCII && $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_"
                })
        {
            throw .uso(
                "--token necesita 16 caracteres o más, letras, números, «-» o «_» (sin espacios).")
        }
        if !ServicioWeb.esLocal(direccionElegida) && token == nil {
            throw .uso(
                "Escuchar en \(citado(direccionElegida)) deja la pantalla al alcance de otras máquinas: "
                    + "pon también --token CLAVE (16 caracteres o más) y compártela solo con quien deba usarla."
            )
        }
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let nucleo = try contexto.nucleo()
        let puerto = self.puerto ?? Self.puertoPorDefecto
        let direccion = direccionElegida
        let avisos = CanalesNoDisponibles()
        let servicio = try ServicioWeb(
            nucleo: nucleo,
            configuracion: ServicioWeb.Configuracion(
                direccion: direccion, puerto: puerto, token: token)
        ) { avisos.avisar($0) }
        // Signals are heard from before listening: one that comes as the line is printed
        // stops the server cleanly, never by the default action.
        var grupo = GrupoDeServicios.delProceso(otras: [
            SIGUSR1: { Task { @MainActor in servicio.revisarParadas() } }
        ])
        let real: Int
        do {
            let descripcion = nucleo.descripcion
            real = try await servicio.arrancar { error in
                escribirEnStderr(
                    "marcador: no se pudieron leer los cambios: \(Fallo.de(error, tienda: descripcion).mensaje)\n"
                )
            }
        } catch ServicioWeb.FalloAlArrancar.faltaLibevent {
            throw Fallo.noDisponible(
                "Falta libevent para servir páginas: instala el paquete libevent-2.1-7 (Debian) y vuelve a probar."
            )
        } catch ServicioWeb.FalloAlArrancar.noSePuedeEscuchar(let codigo) {
            throw Fallo.uso(
                "No se puede escuchar en \(citado(direccion)), puerto \(puerto): "
                    + errorDelSistema(codigo) + ". Prueba otro con --puerto.")
        }
        let nombre = direccion.contains(":") ? "[\(direccion)]" : direccion
        contexto.terminal.linea("Sirviendo en http://\(nombre):\(real)/ (Ctrl-C para terminar).")
        // The server last: stopped first, it takes no more requests and ends the runs it
        // started (CANCELADO); then the dispatcher gives its leases back.
        grupo.añadir(servicio.reparto)
        grupo.añadir(servicio)
        // Said however the group ends, an error included.
        defer { contexto.terminal.linea("Servidor parado.") }
        let senal = try await grupo.run()
        return senal.map(CodigoDeSalida.porSenal) ?? .interrumpido
    }

    /// Serving is an effect outside the store: a rehearsal only opens it.
    func validarTrasReinicio(en ensayo: Contexto) async throws { _ = try ensayo.nucleo() }
}
