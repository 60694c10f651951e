import Persistencia
import Sistema
import Torneo

/// Runs on a SQL store as every process sees them: the latest run of each match, manual goals,
/// and the requests that stop a run played elsewhere.
public struct EjecucionesSQL<Cola: ColaSQL>: Ejecuciones {
    public let queue: Cola

    public init(_ queue: Cola) { self.queue = queue }

    public func cronica(
        partido: Int, duracionFija: Bool, canalesPropios: [String], propietario: Propietario
    ) -> any CronicaDelPartido {
        // Notices are stamped by the store's clock, as their leases and time-to-live are.
        let cola = queue
        return CronicaSQL(
            queue, partidoId: partido, duracionFija: duracionFija, canalesPropios: canalesPropios,
            propietario: propietario, ahora: { cola.ahora() })
    }

    public func ultima(partido: Int) throws -> EjecucionGuardada? {
        try queue.read { db in
            try db.row(
                "SELECT \(EjecucionGuardada.columnas(db.dialecto)) FROM ejecucion e WHERE e.partido_id = ? ORDER BY e.id DESC LIMIT 1",
                partido
            ) { try EjecucionGuardada(fila: $0) }
        }
    }

    /// Every run of a match, oldest first (the match card's list).
    public func todas(partido: Int) throws -> [EjecucionGuardada] {
        try queue.read { db in
            try db.rows(
                "SELECT \(EjecucionGuardada.columnas(db.dialecto)) FROM ejecucion e WHERE e.partido_id = ? ORDER BY e.id",
                partido
            ) { try EjecucionGuardada(fila: $0) }
        }
    }

    public func ejecucion(id: Int) throws -> EjecucionGuardada? {
        try queue.read { db in
            try db.row(
                "SELECT \(EjecucionGuardada.columnas(db.dialecto)) FROM ejecucion e WHERE e.id = ?",
                id
            ) { try EjecucionGuardada(fila: $0) }
        }
    }

    public func cancelacionPedida(ejecucion id: Int) throws -> MotivoDeCancelacion? {
        try queue.read { db in
            try db.scalarString("SELECT cancelacion_pedida FROM ejecucion WHERE id = ?", id)
                .flatMap(MotivoDeCancelacion.init(rawValue:))
        }
    }

    public func cambiarDuracion(_ ajuste: Int, propietario: Propietario) throws
        -> [EjecucionAjena]
    {
        try queue.write { db in
            try db.execute(ClaveDeAjuste.guardar, ClaveDeAjuste.duracion, String(ajuste))
            try RegistroDeCambios.anotar(.ajustes, en: db)
            let candidatas = try db.rows(
                """
                SELECT e.id, e.pid, e.pid_inicio, e.anfitrion, e.duracion, p.prorroga
                FROM ejecucion e JOIN partido p ON p.id = e.partido_id
                WHERE e.estado = 'en_juego' AND e.cancelacion_pedida IS NULL
                  AND e.duracion_fija = 0
                """
            ) { fila in
                (
                    ConsultasDeEjecuciones.candidata(fila), fila.int("duracion"),
                    fila.bool("prorroga")
                )
            }
            let afectadas =
                candidatas
                .filter { $0.1 != Duracion.segunAjuste(ajuste, conProrroga: $0.2) }
                .map(\.0)
            return try ConsultasDeEjecuciones.pedir(db, .duracion, afectadas)
        }
    }

    public func golAMano(partido: Int, lado: Lado, quitar: Bool, duracion: Int, codigo: String)
        throws -> EjecucionGuardada?
    {
        try queue.write { db -> EjecucionGuardada? in
            var id = try db.scalarInt(
                "SELECT id FROM ejecucion WHERE partido_id = ? ORDER BY id DESC LIMIT 1", partido)
            if id == nil {
                if quitar { return nil }
                id = try db.scalarInt(
                    """
                    INSERT INTO ejecucion (partido_id, codigo, duracion, estado)
                    VALUES (?, ?, ?, 'sin_empezar') RETURNING id
                    """, partido, codigo, duracion)
            }
            guard
                try ConsultasDeEjecuciones.cambiarGolAMano(
                    db, ejecucion: id!, lado: lado, delta: quitar ? -1 : 1)
            else { return nil }
            return try db.row(
                "SELECT \(EjecucionGuardada.columnas(db.dialecto)) FROM ejecucion e WHERE e.id = ?",
                id!
            ) { try EjecucionGuardada(fila: $0) }
        }
    }
}

/// Reading runs and asking them to stop, shared by the repositories of every store.
enum ConsultasDeEjecuciones {
    /// Inside the caller's write transaction: asks every live run of `partido` (but `excepto`)
    /// whose owner is still alive to stop because a new run replaces it — this process's own
    /// runs too (a page pressing «Jugar» twice), which the caller stops in place. A run whose
    /// process died is left as it is («Interrumpido»): nobody plays it.
    static func detenerOtras(
        _ db: some BaseSQL, partido: Int, excepto: Int?
    ) throws -> [EjecucionAjena] {
        let candidatas = try db.rows(
            """
            SELECT id, pid, pid_inicio, anfitrion FROM ejecucion
            WHERE partido_id = ?1 AND estado = 'en_juego' AND cancelacion_pedida IS NULL
              AND (CAST(?2 AS BIGINT) IS NULL OR id <> ?2)
            """, partido, excepto
        ) { candidata($0) }
        return try pedir(db, .reemplazo, candidatas)
    }

    /// A live run's id and owner (`id`, `pid`, `pid_inicio`, `anfitrion`).
    static func candidata(_ fila: some FilaSQL) -> (Int, Propietario) {
        (fila.int("id"), Propietario(fila: fila) ?? Propietario(pid: 0, inicio: 0))
    }

    static func pedir(
        _ db: some BaseSQL, _ motivo: MotivoDeCancelacion, _ candidatas: [(Int, Propietario)]
    ) throws -> [EjecucionAjena] {
        var pedidas: [EjecucionAjena] = []
        for (id, propietario) in candidatas where propietario.estaVivo {
            try db.execute(
                "UPDATE ejecucion SET cancelacion_pedida = ? WHERE id = ?", motivo.rawValue, id)
            pedidas.append(EjecucionAjena(id: id, propietario: propietario))
        }
        return pedidas
    }

    /// Adds `delta` manual goals to `lado`; an undo never goes below zero.
    /// - Returns: whether anything changed.
    @discardableResult
    static func cambiarGolAMano(
        _ db: some BaseSQL, ejecucion id: Int, lado: Lado, delta: Int
    ) throws
        -> Bool
    {
        let columna = lado == .local ? "mano_local" : "mano_visitante"
        try db.execute(
            "UPDATE ejecucion SET \(columna) = \(columna) + ?1 WHERE id = ?2 AND \(columna) + ?1 >= 0",
            delta, id)
        return db.changes == 1
    }
}
