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
        let nucleo = try contexto.nucleo()
        let reparto = try contexto.reparto()
        let despachador = try reparto.despachador(configuracion: arriendo.configuracion)
        let sondeador = Sondeador(
            nucleo: nucleo, registro: nucleo.registro(eco: !contexto.terminal.esInteractiva),
            alAvisar: { despachador.despertar() })
        let senales = Senales.escuchar([SIGINT, SIGTERM, SIGHUP])
        let salida = SalidaPorSenal()
        let terminal = contexto.terminal
        let fuentes = try nucleo.fuentes().count
        terminal.linea(
            "En directo: \(Textos.cuenta(fuentes, "fuente", "fuentes")); Ctrl-C para terminar.")
        let repartiendo = Task { @MainActor in try await reparto.vigilar(despachador) }
        let sondeando = Task {
            await sondeador.vigilar { resultados in
                // On a terminal, each poll that brought something is one line.
                guard terminal.esInteractiva else { return }
                for resultado in resultados where resultado.avisos > 0 || !resultado.guardado {
                    terminal.linea(
                        "fuente \(citado(resultado.fuente)): \(TextoSeguro.limpio(resultado.estado))"
                    )
                }
            }
        }
        for await numero in senales {
            salida.recibir(numero)
            break
        }
        sondeando.cancel()
        await sondeando.value
        repartiendo.cancel()
        let total = try await repartiendo.value
        terminal.linea(Reparto.texto(total))
        return salida.senal.map(CodigoDeSalida.porSenal) ?? .interrumpido
    }

    /// Following is an effect outside the store: a rehearsal only opens it.
    func validarTrasReinicio(en ensayo: Contexto) async throws { _ = try ensayo.nucleo() }
}
