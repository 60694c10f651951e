import Sistema
import Torneo

/// Reads the rows of `partidos` (a list may walk 100,000 of them): each column is found by
/// name once, at the first row, and then read by its position.
struct LectorDeResumenes {
    let id, local, visitante, competicion, prorroga, fecha, hora: Int
    let ftLocal, ftVisitante, etLocal, etVisitante, penaltisLocal, penaltisVisitante: Int
    let directo, minutoDirecto, anadidoDirecto: Int
    let estado, minuto, golesLocal, golesVisitante, manoLocal, manoVisitante, duracion: Int
    let pid, pidInicio, anfitrion, latidoHace, msPorMinuto: Int

    /// The columns `leer` reads: a match, its teams and its latest run `e` (all NULL if none).
    static func columnas(_ dialecto: Dialecto) -> String {
        """
        p.id, l.nombre AS local, v.nombre AS visitante, p.competicion, p.prorroga, p.fecha,
        p.hora, p.ft_local, p.ft_visitante, p.et_local, p.et_visitante, p.penaltis_local,
        p.penaltis_visitante, p.directo, p.minuto_directo, p.anadido_directo,
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
        hora = fila.indice("hora")
        ftLocal = fila.indice("ft_local")
        ftVisitante = fila.indice("ft_visitante")
        etLocal = fila.indice("et_local")
        etVisitante = fila.indice("et_visitante")
        penaltisLocal = fila.indice("penaltis_local")
        penaltisVisitante = fila.indice("penaltis_visitante")
        directo = fila.indice("directo")
        minutoDirecto = fila.indice("minuto_directo")
        anadidoDirecto = fila.indice("anadido_directo")
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

    /// One match of the list; `duracionPorDefecto` is the setting, for matches never played
    /// here nor for real (one with an official result lasted what it lasted).
    func leer(_ fila: some FilaSQL, duracionPorDefecto: Int) throws -> ResumenDePartido {
        let conProrroga = fila.bool(prorroga)
        func marcador(_ local: Int, _ visitante: Int) -> Marcador? {
            guard let goles = fila.optionalInt(local) else { return nil }
            return Marcador(local: goles, visitante: fila.int(visitante))
        }
        let oficial = ResultadoOficial(
            final: marcador(ftLocal, ftVisitante), prorroga: marcador(etLocal, etVisitante),
            penaltis: marcador(penaltisLocal, penaltisVisitante))
        var resumen = ResumenDePartido(
            id: fila.int(id), local: fila.nombre(local), visitante: fila.nombre(visitante),
            competicion: fila.nombreOpcional(competicion), fecha: fila.optionalString(fecha),
            hora: fila.optionalString(hora), oficial: oficial.vacio ? nil : oficial,
            estado: .sinEmpezar, minuto: 0, goles: .cero, golesAMano: .cero,
            duracion: oficial.final == nil
                ? Duracion.segunAjuste(duracionPorDefecto, conProrroga: conProrroga)
                : Duracion.real(conProrroga: conProrroga))
        resumen.directo = fila.optionalString(directo).flatMap(EstadoEnDirecto.init(rawValue:))
        resumen.minutoDirecto = fila.optionalInt(minutoDirecto)
        resumen.anadidoDirecto = fila.optionalInt(anadidoDirecto) ?? 0
        guard !fila.isNull(estado) else { return resumen }
        resumen.conEjecucion = true
        let almacenado: EjecucionGuardada.Estado = try fila.almacenado(
            estado, columna: "estado", tabla: "ejecucion")
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
