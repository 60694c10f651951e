import Torneo

/// Runs as the other processes see them: the latest run of each match, manual goals, and the
/// requests that stop a run played elsewhere.
public struct EjecucionesSQLite: Sendable {
    public let queue: DatabaseQueue

    public init(_ queue: DatabaseQueue) { self.queue = queue }

    static let columnas = """
        e.id, e.partido_id, e.codigo, e.duracion, e.duracion_fija, e.ms_por_minuto, e.estado,
        e.minuto, e.goles_local, e.goles_visitante, e.mano_local, e.mano_visitante,
        e.ultimo_aviso, e.pid, e.pid_inicio
        """

    /// Reads a run from `columnas` starting at `desde`; asks the OS whether its owner lives.
    static func ejecucion(_ fila: Row, desde i: Int = 0) -> EjecucionGuardada {
        let pid = fila.optionalInt(i + 13)
        let propietario = pid.map { Propietario(pid: $0, inicio: fila.optionalInt(i + 14) ?? 0) }
        let estado = EjecucionGuardada.Estado(rawValue: fila.string(i + 6)) ?? .cancelado
        return EjecucionGuardada(
            id: fila.int(i), partidoId: fila.int(i + 1), codigo: fila.string(i + 2),
            duracion: fila.int(i + 3), duracionFija: fila.bool(i + 4), msPorMinuto: fila.int(i + 5),
            estado: estado, minuto: fila.int(i + 7),
            goles: Marcador(local: fila.int(i + 8), visitante: fila.int(i + 9)),
            golesAMano: Marcador(local: fila.int(i + 10), visitante: fila.int(i + 11)),
            ultimoAviso: fila.string(i + 12),
            propietarioVivo: estado == .enJuego && (propietario?.estaVivo ?? false),
            pid: pid)
    }

    /// The latest run of a match, if it was ever played or given a manual goal.
    public func ultima(partido: Int) throws -> EjecucionGuardada? {
        try queue.read { db in
            try db.row(
                "SELECT \(Self.columnas) FROM ejecucion e WHERE e.partido_id = ? ORDER BY e.id DESC LIMIT 1",
                partido
            ) { Self.ejecucion($0) }
        }
    }

    /// One run by id.
    public func ejecucion(id: Int) throws -> EjecucionGuardada? {
        try queue.read { db in
            try db.row("SELECT \(Self.columnas) FROM ejecucion e WHERE e.id = ?", id) {
                Self.ejecucion($0)
            }
        }
    }

    /// Why someone asked run `id` to stop, if they did.
    public func cancelacionPedida(ejecucion id: Int) throws -> MotivoDeCancelacion? {
        try queue.read { db in
            try db.scalarString("SELECT cancelacion_pedida FROM ejecucion WHERE id = ?", id)
                .flatMap(MotivoDeCancelacion.init(rawValue:))
        }
    }

    /// Asks every live run of `partido` owned by another process to stop because a new `jugar`
    /// replaces it; returns the processes to wake.
    public func pedirReemplazo(partido: Int, propio: Propietario = .actual) throws
        -> [EjecucionAjena]
    {
        try pedir(
            .reemplazo, donde: "e.partido_id = ?", [partido], propio: propio)
    }

    /// Asks every live run that follows the duration setting and would now last a different
    /// time to stop, so its process starts again with `duracion` (90 means 120 for a match
    /// with extra time). Returns the processes to wake.
    public func pedirCambioDeDuracion(_ duracion: Int, propio: Propietario = .actual) throws
        -> [EjecucionAjena]
    {
        try pedir(
            .duracion,
            donde: """
                e.duracion_fija = 0
                AND e.duracion <> (CASE WHEN p.prorroga = 1 AND ?1 = 90 THEN 120 ELSE ?1 END)
                """, [duracion], propio: propio)
    }

    private func pedir(
        _ motivo: MotivoDeCancelacion, donde: String, _ argumentos: [any DatabaseValueConvertible],
        propio: Propietario
    ) throws -> [EjecucionAjena] {
        try queue.write { db in
            let candidatas = try db.rows(
                """
                SELECT e.id, e.pid, e.pid_inicio FROM ejecucion e JOIN partido p ON p.id = e.partido_id
                WHERE e.estado = 'en_juego' AND e.cancelacion_pedida IS NULL AND \(donde)
                """, arguments: argumentos
            ) { fila in
                (
                    fila.int(0),
                    Propietario(pid: fila.optionalInt(1) ?? 0, inicio: fila.optionalInt(2) ?? 0)
                )
            }
            var avisar: [EjecucionAjena] = []
            for (id, propietario) in candidatas where propietario != propio && propietario.estaVivo
            {
                try db.execute(
                    "UPDATE ejecucion SET cancelacion_pedida = ? WHERE id = ?", motivo.rawValue, id)
                avisar.append(EjecucionAjena(id: id, propietario: propietario))
            }
            return avisar
        }
    }

    /// A manual goal for the latest run of `partido` (a new, unstarted run if it has none).
    /// - Returns: the run with the goal added.
    public func golAMano(partido: Int, lado: Lado, duracion: Int, codigo: String) throws
        -> EjecucionGuardada
    {
        try queue.write { db in
            var id = try db.scalarInt(
                "SELECT id FROM ejecucion WHERE partido_id = ? ORDER BY id DESC LIMIT 1", partido)
            if id == nil {
                try db.execute(
                    "INSERT INTO ejecucion (partido_id, codigo, duracion, estado) VALUES (?, ?, ?, 'sin_empezar')",
                    partido, codigo, duracion)
                id = db.lastInsertedRowID
            }
            try Self.sumarGolAMano(db, ejecucion: id!, lado: lado)
            return try db.row("SELECT \(Self.columnas) FROM ejecucion e WHERE e.id = ?", id!) {
                Self.ejecucion($0)
            }!
        }
    }

    static func sumarGolAMano(_ db: Database, ejecucion id: Int, lado: Lado) throws {
        switch lado {
        case .local:
            try db.execute("UPDATE ejecucion SET mano_local = mano_local + 1 WHERE id = ?", id)
        case .visitante:
            try db.execute(
                "UPDATE ejecucion SET mano_visitante = mano_visitante + 1 WHERE id = ?", id)
        }
    }
}

/// Why another process asked a run to stop.
public enum MotivoDeCancelacion: String, Sendable {
    /// A new `jugar` of the same match started (`.task(id:)` across processes).
    case reemplazo
    /// `ajustes duracion` changed the duration the run follows: it starts again with it.
    case duracion
}

/// A run played by another process, which this one asked to stop.
public struct EjecucionAjena: Sendable, Hashable {
    public let id: Int
    public let propietario: Propietario
}
