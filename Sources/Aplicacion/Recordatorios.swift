import Persistencia
import Sistema
import Torneo

extension Nucleo {
    /// How often a dispatcher looks for matches about to kick off.
    public static let intervaloDeRecordatorios: Double = 30

    /// Queues «Empieza pronto» for each match whose kick-off instant is known and falls within
    /// the longest `--antes` of the channels that choose reminders (contract.md), each
    /// channel's delivery due its own lead time before kick-off; a match reminded before is
    /// left alone, whichever process did it. The time is the user's (this process's zone).
    /// - Returns: how many reminders were new.
    @discardableResult
    public func encolarRecordatorios() throws -> Int {
        let canales = try tienda.buzon.canales().filter {
            $0.activo && $0.avisar.contains(.recordatorio)
        }
        guard let maximo = canales.map({ $0.antes ?? ClaseDeAviso.antesPorDefecto }).max() else {
            return 0
        }
        let ahora = ahora()
        var recordatorios: [(aviso: AvisoDeGol, saque: Double)] = []
        // A reminder found a poll late still comes before kick-off: the window reaches one
        // interval further.
        let hasta = Int(ahora + maximo + Self.intervaloDeRecordatorios)
        try tienda.partidos.recorrerResumenes(competicion: nil, inicio: Int(ahora)...hasta) {
            resumen in
            guard let saque = resumen.saque, saque.instanteConocido,
                Double(saque.segundos) > ahora, resumen.estado == .sinEmpezar,
                resumen.directo == nil || resumen.directo == .programado
            else { return }
            let hora = ZonaHoraria.local(saque.segundos).hora.reloj
            recordatorios.append(
                (
                    AvisoDeGol.recordatorio(
                        local: resumen.local, visitante: resumen.visitante, hora: hora,
                        partidoId: resumen.id),
                    Double(saque.segundos)
                ))
        }
        return try tienda.buzon.encolarRecordatorios(recordatorios, ahora: ahora)
    }
}
