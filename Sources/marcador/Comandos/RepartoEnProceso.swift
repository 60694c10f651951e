import Almacen
import Avisos
import Torneo

/// The dispatcher that runs inside `jugar`: woken after each minute with goals, so a notice
/// reaches every channel within the same tick, and drained once more before the process ends.
@MainActor
final class RepartoEnProceso {
    let despachador: Despachador
    private let despertador: AsyncStream<Void>.Continuation
    private var tarea: Task<Void, Never>?

    init(
        queue: DatabaseQueue, registro: any Registro, entorno: [String: String], pantalla: Pantalla,
        conBanner: Bool
    ) throws {
        let buzon = BuzonSQLite(queue)
        let (canales, fallos) = try FabricaDeCanales.activos(
            buzon, entorno: entorno, registro: registro)
        for fallo in fallos {
            pantalla.linea(
                "Canal \(fallo.canal) no disponible aquí (\(fallo.motivo)): sus avisos esperan a "
                    + "«marcador avisos vigilar» donde funcione.")
        }
        var todos = canales
        if conBanner {
            let campana = pantalla.terminal.esInteractiva
            todos.append(CanalTerminal(conCampana: campana) { texto in pantalla.linea(texto) })
        }
        let repositorio = PartidosSQLite(queue)
        let enriquecedor = Enriquecedor(
            plazo: try repositorio.ajustes().plazoDeAdjuntos,
            carpeta: Enriquecedor.carpetaPorDefecto(entorno: entorno))
        var configuracion = Despachador.Configuracion()
        configuracion.soloPrimerosIntentos = true
        let despachador = Despachador(
            buzon: buzon, canales: todos, registro: registro, configuracion: configuracion,
            enriquecedor: enriquecedor,
            permitido: { try repositorio.ajustes().avisosPermitidos == true })
        self.despachador = despachador
        let (flujo, continuacion) = AsyncStream<Void>.makeStream(
            bufferingPolicy: .bufferingNewest(1))
        despertador = continuacion
        tarea = Task {
            for await _ in flujo {
                await Self.repartir(despachador, registro)
            }
            await Self.repartir(despachador, registro)
        }
    }

    private nonisolated static func repartir(_ despachador: Despachador, _ registro: any Registro)
        async
    {
        do {
            try await despachador.enviarPendientes()
        } catch {
            registro.anotar("no se pudieron repartir los avisos: \(error)")
        }
    }

    func atender(ejecucion: Int?) { despachador.atender(ejecucion: ejecucion) }

    func despertar() { despertador.yield() }

    /// Delivers what the match left pending (bounded by the channels' own time limits).
    func terminarPendientes() async {
        despertador.finish()
        await tarea?.value
        tarea = nil
    }

    func cerrar() { despertador.finish() }
}
