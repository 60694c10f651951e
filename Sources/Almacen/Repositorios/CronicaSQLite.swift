import Synchronization
import Torneo

/// The chronicle of one run of one match, written by the process that plays it.
public final class CronicaSQLite: CronicaDelPartido {
    public let queue: DatabaseQueue
    public let partidoId: Int
    let propietario: Propietario
    let duracionFija: Bool
    /// Channels that live in the playing process (the terminal banner), added to every notice.
    let canalesPropios: [String]
    let ahora: @Sendable () -> Double
    private let ejecucionId = Mutex<Int?>(nil)

    public init(
        _ queue: DatabaseQueue, partidoId: Int, duracionFija: Bool,
        canalesPropios: [String] = [], propietario: Propietario = .actual,
        ahora: @escaping @Sendable () -> Double = segundosUnix
    ) {
        self.queue = queue
        self.partidoId = partidoId
        self.duracionFija = duracionFija
        self.canalesPropios = canalesPropios
        self.propietario = propietario
        self.ahora = ahora
    }

    /// The stored run being written, once `empezar` or `reanudar` chose it.
    public var ejecucion: Int? { ejecucionId.withLock { $0 } }

    private func idActual() -> Int {
        guard let id = ejecucion else {
            preconditionFailure("CronicaSQLite used before empezar/reanudar")
        }
        return id
    }

    public func empezar(partido: Partido, duracion: Int, msPorMinuto: Int, codigo: String) throws {
        let id = try queue.write { db in
            try db.execute(
                """
                INSERT INTO ejecucion (partido_id, codigo, duracion, duracion_fija, ms_por_minuto,
                    estado, pid, pid_inicio, latido)
                VALUES (?, ?, ?, ?, ?, 'en_juego', ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                """, partidoId, codigo, duracion, duracionFija, msPorMinuto, propietario.pid,
                propietario.inicio)
            return db.lastInsertedRowID
        }
        ejecucionId.withLock { $0 = id }
    }

    public func reanudar(_ ejecucion: EjecucionGuardada) throws {
        try queue.write { db in
            try db.execute(
                """
                UPDATE ejecucion SET estado = 'en_juego', pid = ?, pid_inicio = ?,
                    cancelacion_pedida = NULL, acabada = NULL,
                    latido = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                WHERE id = ?
                """, propietario.pid, propietario.inicio, ejecucion.id)
        }
        ejecucionId.withLock { $0 = ejecucion.id }
    }

    public func registrar(
        minuto: Int, goles: Marcador, avisos: [AvisoDeGol], ultimoAviso: (Marcador) -> String
    ) throws -> Marcador? {
        let id = idActual()
        return try queue.write { db -> Marcador? in
            // The guard and the write are one statement: a stop request committed by another
            // process before this transaction means this minute is not written at all.
            try db.execute(
                """
                UPDATE ejecucion SET minuto = ?, goles_local = ?, goles_visitante = ?,
                    latido = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                WHERE id = ? AND estado = 'en_juego' AND cancelacion_pedida IS NULL
                """, minuto, goles.local, goles.visitante, id)
            guard db.changes == 1 else { return nil }
            try BuzonSQLite.encolar(
                db, avisos: avisos, ejecucion: id, canalesPropios: canalesPropios, ahora: ahora())
            let mano = try Self.golesAMano(db, id)
            try db.execute(
                "UPDATE ejecucion SET ultimo_aviso = ? WHERE id = ?", ultimoAviso(mano), id)
            return mano
        }
    }

    public func golAMano(_ lado: Lado) throws -> Marcador {
        let id = idActual()
        return try queue.write { db in
            try EjecucionesSQLite.sumarGolAMano(db, ejecucion: id, lado: lado)
            return try Self.golesAMano(db, id)
        }
    }

    public func terminar(minuto: Int) throws { try acabar(en: "terminado", minuto: minuto) }

    public func cancelar(minuto: Int) throws { try acabar(en: "cancelado", minuto: minuto) }

    /// Ends the run in its final state (`terminado` or `cancelado`) at `minuto`.
    private func acabar(en estado: String, minuto: Int) throws {
        let id = idActual()
        try queue.write { db in
            try db.execute(
                """
                UPDATE ejecucion SET estado = ?, minuto = ?,
                    acabada = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                WHERE id = ?
                """, estado, minuto, id)
        }
    }

    static func golesAMano(_ db: Database, _ id: Int) throws -> Marcador {
        try db.row("SELECT mano_local, mano_visitante FROM ejecucion WHERE id = ?", id) {
            Marcador(local: $0.int(0), visitante: $0.int(1))
        } ?? .cero
    }
}
