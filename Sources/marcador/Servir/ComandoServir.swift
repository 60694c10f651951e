import Almacen
import Avisos
import Servidor
import Sistema
import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `marcador servir`: the lessons' screen in the browser (DESIGN §11).
struct ComandoServir: Comando {
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
            "Clave que las páginas envían en cada cambio, de 16 caracteres o más (por defecto, una al azar en cada arranque)."
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
        if !Self.esLocal(direccionElegida) && token == nil {
            throw .uso(
                "Escuchar en \(citado(direccionElegida)) deja la pantalla al alcance de otras máquinas: "
                    + "pon también --token CLAVE (16 caracteres o más) y compártela solo con quien deba usarla."
            )
        }
    }

    /// Loopback only: this machine.
    nonisolated static func esLocal(_ direccion: String) -> Bool {
        direccion == "localhost" || direccion == "::1" || direccion.hasPrefix("127.")
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let tienda = try contexto.tienda()
        let puerto = self.puerto ?? Self.puertoPorDefecto
        ampliarLimiteDeFicheros()
        let registro = tienda.registro(eco: true)
        var avisados = Set<String>()
        var configuracionDelReparto = Despachador.Configuracion()
        configuracionDelReparto.sondeo = .milliseconds(200)
        let despachador = try Reparto.despachador(
            tienda, contexto, configuracion: configuracionDelReparto, avisados: &avisados)
        let partidos = PartidosDelServidor(
            tienda: tienda, registro: registro, despertarReparto: { despachador.despertar() })
        let clave = token ?? Self.claveAlAzar()
        let direccion = direccionElegida
        let aplicacion = AplicacionWeb(
            tienda: tienda, token: clave, direccion: direccion, partidos: partidos,
            carpetaDeAdjuntos: Enriquecedor.carpetaPorDefecto(entorno: contexto.entorno))
        let fuente = FuenteDeCambios(cambios: tienda.cambios, repositorio: tienda.partidos)
        // On PostgreSQL the store says when there are changes (LISTEN) and stop requests for
        // the runs this server plays; on SQLite the loop looks every tick and SIGUSR1 wakes.
        let escuchas = [
            tienda.escuchar(.cambios) { _ in fuente.avisar() },
            tienda.escuchar(.parar) { _ in Task { @MainActor in partidos.revisarParadas() } },
        ].compactMap { $0 }
        defer { for escucha in escuchas { escucha.parar() } }
        fuente.soloAlAvisar = !escuchas.isEmpty
        var configuracion = HTTPServerConfiguration(
            address: direccion == "localhost" ? "127.0.0.1" : direccion, port: puerto,
            feed: fuente
        ) { aplicacion.responder($0) }
        configuracion.onFeedError = { error in
            escribirEnStderr(
                "marcador: no se pudieron leer los cambios: \(Fallo.deBaseDeDatos(error, ruta: "").mensaje)\n"
            )
        }
        let senales = Senales.escuchar([SIGINT, SIGTERM, SIGHUP, SIGUSR1])
        let servidor: HTTPServer
        do {
            servidor = try await HTTPServer.start(configuracion)
        } catch HTTPServerError.libraryMissing {
            throw Fallo(
                mensaje:
                    "Falta libevent para servir páginas: instala el paquete libevent-2.1-7 (Debian) y vuelve a probar.",
                codigo: .canalNoDisponible)
        } catch HTTPServerError.cannotListen(let codigo) {
            throw Fallo.uso(
                "No se puede escuchar en \(citado(direccion)), puerto \(puerto): "
                    + errorDelSistema(codigo) + ". Prueba otro con --puerto.")
        }
        let real = servidor.port
        let yaAvisados = avisados
        let reparto = Task { @MainActor in
            try await Reparto.vigilar(despachador, tienda, contexto, avisados: yaAvisados)
        }
        let nombre = direccion.contains(":") ? "[\(direccion)]" : direccion
        contexto.terminal.linea("Sirviendo en http://\(nombre):\(real)/ (Ctrl-C para terminar).")
        let salida = SalidaPorSenal()
        for await numero in senales {
            if numero == SIGUSR1 {
                partidos.revisarParadas()
                continue
            }
            salida.recibir(numero)
            break
        }
        // Stop taking requests, end the runs it started (CANCELADO), give leases back.
        servidor.stop()
        reparto.cancel()
        await partidos.detener()
        await servidor.stopped()
        _ = await despachador.detener(plazo: .zero)
        contexto.terminal.linea("Servidor parado.")
        return salida.senal.map(CodigoDeSalida.porSenal) ?? .interrumpido
    }

    /// The `Host` values that name this server: its address and, on loopback, its other names.
    nonisolated static func hosts(direccion: String, puerto: Int) -> Set<String> {
        var nombres: Set<String> = [direccion.contains(":") ? "[\(direccion)]" : direccion]
        if esLocal(direccion) { nombres.formUnion(["localhost", "127.0.0.1", "[::1]"]) }
        return Set(nombres.map { "\($0.lowercased()):\(puerto)" })
    }

    /// 128 random bits in hex (Swift's system generator reads the kernel's, getrandom(2)).
    static func claveAlAzar() -> String {
        var generador = SystemRandomNumberGenerator()
        return (0..<16).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generador)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }

    /// A thousand open pages need a thousand sockets: the soft limit goes up to the hard one.
    private func ampliarLimiteDeFicheros() {
        var limite = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limite) == 0,
            limite.rlim_cur < limite.rlim_max
        else {
            return
        }
        limite.rlim_cur = limite.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limite)
    }
}
