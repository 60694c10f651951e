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
    private let ejecucionId = Mutex<Int?>(nil)

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
    public var ejecucion: Int? { ejecucionId.withLock { $0 } }

    private func idActual() -> Int {
        guard let id = ejecucion else {
            preconditionFailure("CronicaSQL used before empezar/reanudar")
        }
        return id
    }

    @discardableResult
    public func empezar(partido: Partido, duracion: Int, msPorMinuto: Int, codigo: String) throws
        -> [EjecucionAjena]
    {
        let (id, detenidas) = try queue.write { db -> (Int, [EjecucionAjena]) in
            let detenidas = try ConsultasDeEjecuciones.detenerOtras(
                db, partido: partidoId, excepto: nil, propio: propietario)
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
                    estado, pid, pid_inicio, anfitrion, latido, cancelacion_pedida)
                VALUES (?, ?, ?, ?, ?, 'en_juego', ?, ?, ?, \(db.dialecto.ahora), ?)
                RETURNING id
                """, partidoId, codigo, duracion, duracionFija, msPorMinuto, propietario.pid,
                propietario.inicio, propietario.anfitrion, pedida?.rawValue)
            return (id ?? 0, detenidas)
        }
        ejecucionId.withLock { $0 = id }
        return detenidas
    }

    @discardableResult
    public func reanudar(_ ejecucion: EjecucionGuardada) throws -> [EjecucionAjena] {
        let detenidas = try queue.write { db -> [EjecucionAjena] in
            // Still resumable now that we hold the lock: the latest run of its match, and
            // cancelled, or playing for a process that is gone.
            guard
                let actual = try db.row(
                    "SELECT \(EjecucionGuardada.columnas(db.dialecto)) FROM ejecucion e WHERE e.id = ?",
                    ejecucion.id, map: { EjecucionGuardada(fila: $0) }),
                try db.scalarInt(
                    "SELECT max(id) FROM ejecucion WHERE partido_id = ?", actual.partidoId)
                    == actual.id
            else { throw FalloDeEjecucion.noReanudable }
            switch actual.estadoDelPartido {
            case .cancelado, .interrumpido: break
            default: throw FalloDeEjecucion.noReanudable
            }
            let detenidas = try ConsultasDeEjecuciones.detenerOtras(
                db, partido: actual.partidoId, excepto: actual.id, propio: propietario)
            try db.execute(
                """
                UPDATE ejecucion SET estado = 'en_juego', pid = ?, pid_inicio = ?, anfitrion = ?,
                    cancelacion_pedida = NULL, acabada = NULL, latido = \(db.dialecto.ahora)
                WHERE id = ?
                """, propietario.pid, propietario.inicio, propietario.anfitrion, ejecucion.id)
            return detenidas
        }
        ejecucionId.withLock { $0 = ejecucion.id }
        return detenidas
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
                    latido = \(db.dialecto.ahora)
                WHERE id = ? AND estado = 'en_juego' AND cancelacion_pedida IS NULL
                """, minuto, goles.local, goles.visitante, id)
            guard db.changes == 1 else { return nil }
            try ConsultasDeAvisos.encolar(
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
            try ConsultasDeEjecuciones.cambiarGolAMano(db, ejecucion: id, lado: lado, delta: 1)
            return try Self.golesAMano(db, id)
        }
    }

    public func terminar(minuto: Int) throws -> Bool {
        let id = idActual()
        return try queue.write { db in
            // A stop request that arrived after the last minute still wins: the run is
            // cancelled, never "finished" alongside the run that replaced it.
            try db.execute(
                """
                UPDATE ejecucion SET estado = 'terminado', minuto = ?, acabada = \(db.dialecto.ahora)
                WHERE id = ? AND estado = 'en_juego' AND cancelacion_pedida IS NULL
                """, minuto, id)
            return db.changes == 1
        }
    }

    public func cancelar(minuto: Int) throws {
        let id = idActual()
        try queue.write { db in
            try db.execute(
                """
                UPDATE ejecucion SET estado = 'cancelado', minuto = ?, acabada = \(db.dialecto.ahora)
                WHERE id = ? AND estado = 'en_juego'
                """, minuto, id)
        }
    }

    static func golesAMano(_ db: some BaseSQL, _ id: Int) throws -> Marcador {
        try db.row("SELECT mano_local, mano_visitante FROM ejecucion WHERE id = ?", id) {
            Marcador(local: $0.int("mano_local"), visitante: $0.int("mano_visitante"))
        } ?? .cero
    }
}
