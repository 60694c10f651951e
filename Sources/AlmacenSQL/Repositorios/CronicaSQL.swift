import Persistencia
import Sistema
import Synchronization
import Torneo

/// The chronicle of one run of one match, written by the process that plays it.
public final class CronicaSQL<Cola: ColaSQL>: CronicaDelPartido {
    public let queue: Cola
    public let partidoId: Int
    let propietario: Propietario
    let duracionFija: Bool
    /// Channels that live in the playing process (the terminal banner), added to every notice.
    let canalesPropios: [String]
    let ahora: @Sendable () -> Double
    /// The run being written and this chronicle's owner token for it.
    private let tenencia = Mutex<(id: Int, dueno: String)?>(nil)

    public init(
        _ queue: Cola, partidoId: Int, duracionFija: Bool,
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
    public var ejecucion: Int? { tenencia.withLock { $0?.id } }

    private func actual() -> (id: Int, dueno: String) {
        guard let actual = tenencia.withLock({ $0 }) else {
            preconditionFailure("CronicaSQL used before empezar/reanudar")
        }
        return actual
    }

    /// 64 random bits in hex: a new owner token for each start and each takeover.
    static func nuevoDueno() -> String {
        var generador = SystemRandomNumberGenerator()
        let hex = String(generador.next() as UInt64, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    @discardableResult
    public func empezar(partido: Partido, duracion: Int, msPorMinuto: Int, codigo: String) throws
        -> [EjecucionAjena]
    {
        let dueno = Self.nuevoDueno()
        let (id, detenidas) = try queue.write { db -> (Int, [EjecucionAjena]) in
            let detenidas = try ConsultasDeEjecuciones.detenerOtras(
                db, partido: partidoId, excepto: nil)
            // A run that follows the setting is checked against it here, under the write
            // lock: if `ajustes duracion` changed it since the caller read it, the run starts
            // already asked to stop, ends at minute 0 and its process starts again with the
            // new duration, exactly as if the change had come a moment later.
            var pedida: MotivoDeCancelacion?
            if !duracionFija {
                let ajuste = try ClaveDeAjuste.ajustes(db).duracion
                if Duracion.segunAjuste(ajuste, conProrroga: partido.tieneProrroga) != duracion {
                    pedida = .duracion
                }
            }
            let id = try db.scalarInt(
                """
                INSERT INTO ejecucion (partido_id, codigo, duracion, duracion_fija, ms_por_minuto,
                    estado, pid, pid_inicio, anfitrion, latido, cancelacion_pedida, dueno)
                VALUES (?, ?, ?, ?, ?, 'en_juego', ?, ?, ?, \(db.dialecto.ahora), ?, ?)
                RETURNING id
                """, partidoId, codigo, duracion, duracionFija, msPorMinuto, propietario.pid,
                propietario.inicio, propietario.anfitrion, pedida?.rawValue, dueno)
            return (id ?? 0, detenidas)
        }
        tenencia.withLock { $0 = (id, dueno) }
        return detenidas
    }

    @discardableResult
    public func reanudar(_ ejecucion: EjecucionGuardada) throws -> [EjecucionAjena] {
        let dueno = Self.nuevoDueno()
        let detenidas = try queue.write { db -> [EjecucionAjena] in
            // Still resumable now that we hold the lock: the latest run of its match, and
            // cancelled, or playing for a process that is gone.
            guard
                let actual = try db.row(
                    "SELECT \(EjecucionGuardada.columnas(db.dialecto)) FROM ejecucion e WHERE e.id = ?",
                    ejecucion.id, map: { try EjecucionGuardada(fila: $0) }),
                try db.scalarInt(
                    "SELECT max(id) FROM ejecucion WHERE partido_id = ?", actual.partidoId)
                    == actual.id
            else { throw FalloDeEjecucion.noReanudable }
            switch actual.estadoDelPartido {
            case .cancelado, .interrumpido: break
            default: throw FalloDeEjecucion.noReanudable
            }
            let detenidas = try ConsultasDeEjecuciones.detenerOtras(
                db, partido: actual.partidoId, excepto: actual.id)
            // A new token: from this commit on, the run's former owner (gone, or only paused
            // past its heartbeat) can write nothing more of it.
            try db.execute(
                """
                UPDATE ejecucion SET estado = 'en_juego', pid = ?, pid_inicio = ?, anfitrion = ?,
                    cancelacion_pedida = NULL, acabada = NULL, latido = \(db.dialecto.ahora),
                    dueno = ?
                WHERE id = ?
                """, propietario.pid, propietario.inicio, propietario.anfitrion, dueno,
                ejecucion.id)
            return detenidas
        }
        tenencia.withLock { $0 = (ejecucion.id, dueno) }
        return detenidas
    }

    public func registrar(
        minuto: Int, goles: Marcador, avisos: [AvisoDeGol], ultimoAviso: ((Marcador) -> String)?
    ) throws -> Escritura {
        let (id, dueno) = actual()
        // Most minutes change only their own run's row: one fenced statement, which means the
        // same when run again after a lost reply, commits by itself (one round trip on
        // PostgreSQL, no request id).
        guard !avisos.isEmpty || ultimoAviso != nil else {
            return try queue.writeIdempotente { db in
                guard let mano = try Self.minuto(db, minuto, goles, id, dueno) else {
                    return try Self.porQueNo(db, id, dueno)
                }
                return .hecha(golesAMano: mano)
            }
        }
        // A minute touches its own run's row (locked by the fenced UPDATE), the new rows of
        // its goals and the change log (which keeps its own commit order): on PostgreSQL it
        // need not queue behind the store's other writers, so a long import or another
        // match's slow write does not hold this match's clock.
        return try queue.writeConcurrente { db -> Escritura in
            guard let mano = try Self.minuto(db, minuto, goles, id, dueno) else {
                return try Self.porQueNo(db, id, dueno)
            }
            try ConsultasDeAvisos.encolar(
                db, avisos: avisos, ejecucion: id, canalesPropios: canalesPropios, ahora: ahora())
            if let ultimoAviso {
                try db.executeLater(
                    "UPDATE ejecucion SET ultimo_aviso = ? WHERE id = ?", ultimoAviso(mano), id)
            }
            return .hecha(golesAMano: mano)
        }
    }

    /// The minute's fenced write: the fence and the write are one statement, so a stop
    /// request or a takeover committed by another process before it means the minute is not
    /// written at all. It hands back the manual goals too (one round trip, not two); `nil`
    /// when the fence held it back.
    private static func minuto(
        _ db: borrowing Cola.Base, _ minuto: Int, _ goles: Marcador, _ id: Int, _ dueno: String
    ) throws -> Marcador? {
        try db.row(
            sqlDelMinuto[db.dialecto], minuto, goles.local, goles.visitante, id, dueno,
            map: { Marcador(local: $0.int("mano_local"), visitante: $0.int("mano_visitante")) })
    }

    public func golAMano(_ lado: Lado) throws -> Marcador {
        let (id, _) = actual()
        return try queue.write { db in
            try ConsultasDeEjecuciones.cambiarGolAMano(db, ejecucion: id, lado: lado, delta: 1)
            return try Self.golesAMano(db, id)
        }
    }

    public func terminar(minuto: Int) throws -> Escritura {
        let (id, dueno) = actual()
        return try queue.write { db in
            // A stop request that arrived after the last minute still wins: the run is
            // cancelled, never "finished" alongside the run that replaced it.
            try db.execute(
                """
                UPDATE ejecucion SET estado = 'terminado', minuto = ?, acabada = \(db.dialecto.ahora)
                WHERE id = ? AND dueno = ? AND estado = 'en_juego' AND cancelacion_pedida IS NULL
                """, minuto, id, dueno)
            guard db.changes == 1 else { return try Self.porQueNo(db, id, dueno) }
            return .hecha(golesAMano: try Self.golesAMano(db, id))
        }
    }

    public func cancelar(minuto: Int) throws {
        let (id, dueno) = actual()
        try queue.write { db in
            try db.execute(
                """
                UPDATE ejecucion SET estado = 'cancelado', minuto = ?, acabada = \(db.dialecto.ahora)
                WHERE id = ? AND dueno = ? AND estado = 'en_juego'
                """, minuto, id, dueno)
        }
    }

    /// Why a fenced write changed nothing, read in its transaction: still ours and asked to
    /// stop, or not ours any more.
    private static func porQueNo(_ db: borrowing Cola.Base, _ id: Int, _ dueno: String) throws
        -> Escritura
    {
        let propia = try db.row(
            "SELECT dueno, estado, cancelacion_pedida FROM ejecucion WHERE id = ?", id
        ) {
            $0.optionalString("dueno") == dueno && $0.string("estado") == "en_juego"
                && $0.optionalString("cancelacion_pedida") != nil
        }
        return propia == true ? .parada : .perdida
    }

    static func golesAMano(_ db: some BaseSQL, _ id: Int) throws -> Marcador {
        try db.row("SELECT mano_local, mano_visitante FROM ejecucion WHERE id = ?", id) {
            Marcador(local: $0.int("mano_local"), visitante: $0.int("mano_visitante"))
        } ?? .cero
    }
}

/// The minute's fenced UPDATE (`CronicaSQL.minuto`), run every minute of every match.
private let sqlDelMinuto = TextoPorDialecto { dialecto in
    """
    UPDATE ejecucion SET minuto = ?, goles_local = ?, goles_visitante = ?,
        latido = \(dialecto.ahora)
    WHERE id = ? AND dueno = ? AND estado = 'en_juego' AND cancelacion_pedida IS NULL
    RETURNING mano_local, mano_visitante
    """
}
