import Torneo

/// Reads the rows of `partidos` (a list may walk 100,000 of them): each column is found by
/// name once, at the first row, and then read by its position.
struct LectorDeResumenes {
    let id, local, visitante, competicion, prorroga, fecha: Int
    let estado, minuto, golesLocal, golesVisitante, manoLocal, manoVisitante, duracion: Int
    let pid, pidInicio, anfitrion, latidoHace, msPorMinuto: Int

    /// The columns `leer` reads: a match, its teams and its latest run `e` (all NULL if none).
    static func columnas(_ dialecto: Dialecto) -> String {
        """
        p.id, l.nombre AS local, v.nombre AS visitante, p.competicion, p.prorroga, p.fecha,
        e.estado, e.minuto, e.goles_local, e.goles_visitante, e.mano_local, e.mano_visitante,
        e.duracion, e.pid, e.pid_inicio, e.anfitrion,
        \(dialecto.segundosDesde("e.latido")) AS latido_hace, e.ms_por_minuto
        """
    }

    init(_ fila: some FilaSQL) {
        id = fila.indice("id")
        local = fila.indice("local")
        visitante = fila.indice("visitante")
        competicion = fila.indice("competicion")
        prorroga = fila.indice("prorroga")
        fecha = fila.indice("fecha")
        estado = fila.indice("estado")
        minuto = fila.indice("minuto")
        golesLocal = fila.indice("goles_local")
        golesVisitante = fila.indice("goles_visitante")
        manoLocal = fila.indice("mano_local")
        manoVisitante = fila.indice("mano_visitante")
        duracion = fila.indice("duracion")
        pid = fila.indice("pid")
        pidInicio = fila.indice("pid_inicio")
        anfitrion = fila.indice("anfitrion")
        latidoHace = fila.indice("latido_hace")
        msPorMinuto = fila.indice("ms_por_minuto")
    }

    /// One match of the list; `duracionPorDefecto` is the setting, for matches never played.
    func leer(_ fila: some FilaSQL, duracionPorDefecto: Int) -> ResumenDePartido {
        let conProrroga = fila.bool(prorroga)
        var resumen = ResumenDePartido(
            id: fila.int(id), local: fila.string(local), visitante: fila.string(visitante),
            competicion: fila.optionalString(competicion), fecha: fila.optionalString(fecha),
            estado: .sinEmpezar, minuto: 0, goles: .cero, golesAMano: .cero,
            duracion: Duracion.segunAjuste(duracionPorDefecto, conProrroga: conProrroga))
        guard !fila.isNull(estado) else { return resumen }
        let almacenado = EjecucionGuardada.Estado(almacenado: fila.string(estado))
        let vivo =
            almacenado == .enJuego && !fila.isNull(pid)
            && Propietario(
                anfitrion: fila.optionalString(anfitrion) ?? "", pid: fila.int(pid),
                inicio: fila.optionalInt(pidInicio) ?? 0
            ).sigueVivo(
                latidoHace: fila.isNull(latidoHace) ? nil : fila.double(latidoHace),
                msPorMinuto: fila.int(msPorMinuto))
        resumen.minuto = fila.int(minuto)
        resumen.estado = EjecucionGuardada.estadoDelPartido(
            almacenado, minuto: resumen.minuto, propietarioVivo: vivo)
        resumen.goles = Marcador(local: fila.int(golesLocal), visitante: fila.int(golesVisitante))
        resumen.golesAMano = Marcador(
            local: fila.int(manoLocal), visitante: fila.int(manoVisitante))
        if almacenado != .sinEmpezar { resumen.duracion = fila.int(duracion) }
        return resumen
    }
}
