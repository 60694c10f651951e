import Aplicacion
import Avisos
import Sistema
import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `marcador directo`: follows every source and delivers what they bring until Ctrl-C
/// (directo.md), as `avisos vigilar` does for the outbox.
struct ComandoDirecto: Comando {
    static let largaDuracion = true

    static let configuracion = ConfiguracionDeComando(
        nombre: "directo",
        resumen: "Sigue las fuentes en directo y avisa de cada gol (y de cada gol anulado).",
        detalles: """
            Consulta cada fuente cuando le toca, con sus validadores (If-None-Match,
            If-Modified-Since), respetando el límite del proveedor, 429 y Retry-After, y con
            espera creciente tras un fallo; una fuente que falla no retrasa a las demás ni a los
            canales. Cada cambio (empieza el partido, gol, gol anulado, descanso, final) va a la
            cola de avisos con su partido en la misma transacción: un «directo» muerto y vuelto a
            lanzar no repite avisos ni pierde cambios que sigan en la fuente, y dos a la vez se
            reparten las fuentes (una consulta por intervalo). Entrega los avisos como «avisos
            vigilar». Ctrl-C (130), SIGTERM (143) o SIGHUP (129) lo paran.
            """)

    var arriendo = OpcionDeArriendo()

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        var grupo = GrupoDeServicios.delProceso()
        let nucleo = try contexto.nucleo()
        let terminal = contexto.terminal
        let reparto = try VigilanciaDeAvisos(
            contexto.reparto(), configuracion: arriendo.configuracion)
        let sondeador = Sondeador(
            nucleo: nucleo, registro: nucleo.registro(eco: !terminal.esInteractiva),
            alSondear: { resultados in
                // On a terminal, each poll that brought something is one line.
                guard terminal.esInteractiva else { return }
                for resultado in resultados where resultado.avisos > 0 || !resultado.guardado {
                    terminal.linea(
                        "fuente \(citado(resultado.fuente)): \(TextoSeguro.limpio(resultado.estado))"
                    )
                }
            })
        let fuentes = try nucleo.fuentes().count
        terminal.linea(
            "En directo: \(Textos.cuenta(fuentes, "fuente", "fuentes")); Ctrl-C para terminar.")
        // The poller last: stopped first, then the dispatcher delivers nothing more and gives
        // its leases back. The notices a poll queues wake the dispatcher through the store.
        grupo.añadir(reparto)
        grupo.añadir(sondeador)
        let senal = try await grupo.run()
        terminal.linea(Reparto.texto(reparto.entregado))
        return senal.map(CodigoDeSalida.porSenal) ?? .interrumpido
    }

    /// Following is an effect outside the store: a rehearsal only opens it.
    func validarTrasReinicio(en ensayo: Contexto) async throws { _ = try ensayo.nucleo() }
}
