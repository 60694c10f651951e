import Almacen
import AlmacenSQL
import Avisos
import Persistencia
import Torneo

/// The dispatcher that runs inside `jugar`: its lanes are woken after each minute with goals,
/// so a notice reaches every channel within the same tick, each channel at its own pace.
@MainActor
final class RepartoEnProceso {
    let despachador: Despachador
    let buzon: any Buzon

    /// Builds the dispatcher for the active channels (plus the terminal banner) and starts it.
    init(
        tienda: any Tienda, registro: any Registro, entorno: [String: String],
        pantalla: Pantalla, conBanner: Bool
    ) throws {
        let buzon = tienda.buzon
        self.buzon = buzon
        let (canales, fallos) = FabricaDeCanales.activos(
            try buzon.canales(), entorno: entorno, registro: registro, cambios: tienda.cambios)
        for fallo in fallos {
            pantalla.linea(
                "Canal \(TextoSeguro.limpio(fallo.canal)) no disponible aquí "
                    + "(\(fallo.motivo)): sus avisos esperan a «marcador avisos vigilar» donde funcione."
            )
        }
        var todos = canales
        if conBanner {
            let terminal = pantalla.terminal
            todos.append(
                CanalActivo(
                    notificador: CanalTerminal(
                        conCampana: terminal.esInteractiva, enmarcado: terminal.esInteractiva
                    ) { texto in pantalla.linea(texto) }))
        }
        let repositorio = tienda.partidos
        var configuracion = Despachador.Configuracion()
        configuracion.soloPrimerosIntentos = true
        despachador = Despachador(
            buzon: buzon, canales: todos, registro: registro, configuracion: configuracion,
            enriquecedor: try Enriquecedores.crear(repositorio, entorno: entorno),
            permitido: { try repositorio.avisosPermitidos() })
        despachador.arrancar()
    }

    func atender(ejecucion: Int?) { despachador.atender(ejecucion: ejecucion) }

    func despertar() { despachador.despertar() }

    /// Waits at most `plazo` for deliveries in flight, then gives their leases back.
    /// - Returns: what is left pending of run `ejecucion`, per channel that others can deliver.
    func terminar(plazo: Duration, ejecucion: Int?) async -> [String: Int] {
        await despachador.detener(plazo: plazo)
        var pendientes = (try? buzon.pendientesPorCanal(ejecucion: ejecucion)) ?? [:]
        pendientes[TipoDeCanal.nombreTerminal] = nil
        return pendientes
    }
}

/// The attachment fetcher every dispatcher of this program uses.
enum Enriquecedores {
    static func crear(_ repositorio: any PartidosRepositorio, entorno: [String: String]) throws
        -> Enriquecedor?
    {
        guard let carpeta = Enriquecedor.carpetaPorDefecto(entorno: entorno) else { return nil }
        return Enriquecedor(
            plazo: try repositorio.ajustes().plazoDeAdjuntos, carpeta: carpeta,
            incrustados: { Semillas.fichero($0) })
    }
}
