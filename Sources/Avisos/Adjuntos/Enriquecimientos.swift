import Persistencia
import Sistema
import Torneo

/// Each notice's attachment fetched once, however many lanes (channels) deliver the notice:
/// the first lane to need it starts the fetch, the others wait for the same result.
actor Enriquecimientos {
    let enriquecedor: Enriquecedor
    let buzon: any Buzon
    let registro: any Registro
    /// Where fetches run (they record their outcome in the store, which blocks).
    let ejecutor: EjecutorDedicado
    private var enCurso: [Int: Task<Enriquecedor.Resultado, Never>] = [:]
    private var orden: [Int] = []

    init(
        enriquecedor: Enriquecedor, buzon: any Buzon, registro: any Registro,
        ejecutor: EjecutorDedicado
    ) {
        self.ejecutor = ejecutor
        self.enriquecedor = enriquecedor
        self.buzon = buzon
        self.registro = registro
    }

    /// The notice ready for its channel: with its local copy, or as the original without
    /// the attachment (and the log says why, once).
    func preparar(_ entrega: EntregaReclamada) async -> AvisoDeGol {
        let tarea = tarea(para: entrega)
        let resultado = await withTaskCancellationHandler {
            await tarea.value
        } onCancel: {
            tarea.cancel()
        }
        switch resultado {
        case .enriquecido(let descargado):
            return entrega.aviso.conAdjuntoDescargado(
                ruta: descargado.ruta, tipo: descargado.tipo.rawValue)
        case .original:
            return entrega.aviso.sinAdjunto()
        }
    }

    private func tarea(para entrega: EntregaReclamada) -> Task<Enriquecedor.Resultado, Never> {
        if let tarea = enCurso[entrega.avisoId] { return tarea }
        let aviso = entrega.aviso
        let id = entrega.avisoId
        let (enriquecedor, buzon, registro) = (self.enriquecedor, self.buzon, self.registro)
        let tarea = Task(executorPreference: ejecutor) {
            let resultado = await enriquecedor.enriquecer(
                aviso.adjunto ?? "", clave: "\(id)-\(aviso.claveDeIdempotencia)")
            // A fetch cut short by shutting down says nothing about the attachment: it is
            // neither recorded nor kept, and the next dispatcher fetches it again.
            if Task.isCancelled {
                await self.olvidar(id)
                return resultado
            }
            switch resultado {
            case .enriquecido:
                try? buzon.anotarEnriquecimiento(aviso: id, enriquecido: true, motivo: nil)
            case .original(let motivo):
                registro.anotar(
                    "\(motivo); se entrega sin adjunto: \(aviso.identificador)",
                    partido: aviso.partidoId)
                try? buzon.anotarEnriquecimiento(aviso: id, enriquecido: false, motivo: motivo)
            }
            return resultado
        }
        enCurso[id] = tarea
        orden.append(id)
        // Old results are kept a while for late lanes, not forever.
        if orden.count > 1024 {
            let viejo = orden.removeFirst()
            enCurso[viejo] = nil
        }
        return tarea
    }

    private func olvidar(_ id: Int) { enCurso[id] = nil }
}
