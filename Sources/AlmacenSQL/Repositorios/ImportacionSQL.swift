import Persistencia
import Torneo

/// Stores imported matches all or nothing, skipping those already present (natural key).
public struct ImportacionSQL<Cola: ColaSQL>: Importacion {
    public let queue: Cola

    public init(_ queue: Cola) { self.queue = queue }

    /// Imports `entradas` in one transaction; with `soloComprobar` nothing is written.
    public func importar(_ entradas: [EntradaDeImportacion], soloComprobar: Bool) throws
        -> ResumenDeImportacion
    {
        let cuerpo = { (db: Cola.Base) throws -> ResumenDeImportacion in
            var resumen = ResumenDeImportacion()
            for entrada in entradas {
                // What the file holds is counted whole, whether its matches were here already
                // or not: importing it again says the same of it (issue 42: «sin detalle de
                // goles» went from 352 to 0 on the second import of the same file).
                if entrada.goles == nil { resumen.sinGoles += 1 }
                if entrada.conAvisos { resumen.conAvisos += 1 }
                resumen.goles += entrada.goles?.count ?? 0
                if try db.scalarInt("SELECT id FROM partido WHERE clave = ?", entrada.clave) != nil
                {
                    resumen.yaEstaban += 1
                    continue
                }
                resumen.nuevos += 1
                if !soloComprobar { try Self.insertar(entrada, db) }
            }
            if !soloComprobar && resumen.nuevos > 0 {
                try RegistroDeCambios.anotar(.partidos, en: db)
            }
            return resumen
        }
        return soloComprobar ? try queue.read(cuerpo) : try queue.write(cuerpo)
    }

    static func equipo(_ nombre: String, _ db: some BaseSQL) throws -> Int {
        try db.execute("INSERT INTO equipo (nombre) VALUES (?) ON CONFLICT DO NOTHING", nombre)
        return try db.scalarInt("SELECT id FROM equipo WHERE nombre = ?", nombre)!
    }

    @discardableResult
    static func insertar(_ entrada: EntradaDeImportacion, _ db: some BaseSQL) throws -> Int {
        let local = try equipo(entrada.local, db)
        let visitante = try equipo(entrada.visitante, db)
        let partido = try db.scalarInt(
            """
            INSERT INTO partido (local_id, visitante_id, competicion, prorroga, ronda, fecha, hora, grupo,
                estadio, ft_local, ft_visitante, et_local, et_visitante, penaltis_local,
                penaltis_visitante, con_guion, clave, inicio)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            RETURNING id
            """, local, visitante, entrada.competicion, entrada.tieneProrroga, entrada.ronda,
            entrada.fecha,
            entrada.hora, entrada.grupo, entrada.estadio, entrada.finalDelPartido?.local,
            entrada.finalDelPartido?.visitante, entrada.trasLaProrroga?.local,
            entrada.trasLaProrroga?.visitante, entrada.penaltis?.local, entrada.penaltis?.visitante,
            entrada.goles != nil, entrada.clave, entrada.inicio)
        try insertarGuion(
            entrada.goles ?? [], rojas: entrada.rojas, cambios: entrada.cambios, partido: partido!,
            db)
        return partido!
    }

    /// The script of match `partido`: its goals in their order, then its red cards and its
    /// substitutions (the engine and the page put them in playing order by minute).
    static func insertarGuion(
        _ goles: [Gol], rojas: [TarjetaRoja], cambios: [Sustitucion] = [], partido: Int,
        _ db: some BaseSQL
    ) throws {
        for (orden, gol) in goles.enumerated() {
            let jugador = try self.jugador(gol.jugador.nombre, de: gol.jugador.equipo.nombre, db)
            try db.execute(
                """
                INSERT INTO evento (partido_id, orden, minuto, anadido, jugador_id, lado, penalti,
                    en_propia_puerta, adjunto, asistencia)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, partido, orden + 1, gol.minuto.minuto, gol.minuto.anadido, jugador,
                gol.lado.rawValue, gol.penalti, gol.enPropiaPuerta, gol.adjunto, gol.asistencia)
        }
        for (orden, tarjeta) in rojas.enumerated() where (1...120).contains(tarjeta.minuto.minuto) {
            let jugador = try self.jugador(tarjeta.jugador, de: tarjeta.equipo, db)
            try db.execute(
                """
                INSERT INTO evento (partido_id, orden, tipo, minuto, anadido, jugador_id, lado,
                    doble_amarilla)
                VALUES (?, ?, 'roja', ?, ?, ?, ?, ?)
                """, partido, goles.count + orden + 1, tarjeta.minuto.minuto,
                tarjeta.minuto.anadido, jugador, tarjeta.lado.rawValue, tarjeta.dobleAmarilla)
        }
        for (orden, cambio) in cambios.enumerated() where (1...120).contains(cambio.minuto.minuto) {
            let jugador = try self.jugador(cambio.entra, de: cambio.equipo, db)
            try db.execute(
                """
                INSERT INTO evento (partido_id, orden, tipo, minuto, anadido, jugador_id, lado, sale)
                VALUES (?, ?, 'cambio', ?, ?, ?, ?, ?)
                """, partido, goles.count + rojas.count + orden + 1, cambio.minuto.minuto,
                cambio.minuto.anadido, jugador, cambio.lado.rawValue, cambio.sale)
        }
    }

    /// The id of player `nombre` of team `equipo`, both created the first time.
    private static func jugador(_ nombre: String, de equipo: String, _ db: some BaseSQL) throws
        -> Int
    {
        let equipoId = try self.equipo(equipo, db)
        try db.execute(
            "INSERT INTO jugador (nombre, equipo_id) VALUES (?, ?) ON CONFLICT DO NOTHING", nombre,
            equipoId)
        return try db.scalarInt(
            "SELECT id FROM jugador WHERE nombre = ? AND equipo_id = ?", nombre, equipoId)!
    }

    /// The file's result of an imported match (`nil` for hand-made ones): what playing it with
    /// its duration must end with.
    public func resultadoEsperado(partido: Int) throws -> Marcador? {
        try queue.read { db in
            try db.row(
                "SELECT ft_local, ft_visitante, et_local, et_visitante, prorroga FROM partido WHERE id = ?",
                partido
            ) { fila -> Marcador? in
                if fila.bool("prorroga"), let local = fila.optionalInt("et_local") {
                    return Marcador(local: local, visitante: fila.int("et_visitante"))
                }
                guard let local = fila.optionalInt("ft_local") else { return nil }
                return Marcador(local: local, visitante: fila.int("ft_visitante"))
            } ?? nil
        }
    }
}
