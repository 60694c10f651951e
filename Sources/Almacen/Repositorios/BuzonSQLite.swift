import Torneo

/// The outbox: goal notices and their delivery to each channel.
///
/// Notices are enqueued by the engine's minute transaction (`encolar`); dispatchers take them
/// with `reclamar`, a single UPDATE … RETURNING that leases due deliveries, so two dispatchers
/// on one database never hold the same delivery at once; `registrar` stores each outcome only
/// if the lease is still the dispatcher's own.
public struct BuzonSQLite: Sendable {
    public let queue: DatabaseQueue

    public init(_ queue: DatabaseQueue) { self.queue = queue }

    /// The channel that only exists inside the `jugar` process watching a run.
    public static let canalTerminal = "terminal"

    /// Inserts the notices of one minute and a delivery per enabled channel (plus the run's own
    /// process channels). Must run inside the caller's transaction. A notice already queued for
    /// this run is left alone. Without permission the deliveries are stored as discarded.
    static func encolar(
        _ db: Database, avisos: [AvisoDeGol], ejecucion: Int, canalesPropios: [String],
        ahora: Double
    ) throws {
        guard !avisos.isEmpty else { return }
        let permitido =
            try db.scalarString(
                "SELECT valor FROM ajuste WHERE clave = ?", PartidosSQLite.Clave.permiso) == "1"
        var canales = try db.rows("SELECT nombre FROM canal WHERE activo = 1 ORDER BY nombre") {
            $0.string(0)
        }
        canales += canalesPropios
        for aviso in avisos {
            try db.execute(
                """
                INSERT OR IGNORE INTO aviso (ejecucion_id, partido_id, identificador, titulo, cuerpo,
                    minuto, anadido, jugador, equipo, marcador_local, marcador_visitante, adjunto,
                    creado)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, ejecucion, aviso.partidoId, aviso.identificador, aviso.titulo, aviso.cuerpo,
                aviso.minuto.minuto, aviso.minuto.anadido, aviso.jugador, aviso.equipo,
                aviso.marcador.local, aviso.marcador.visitante, aviso.adjunto, ahora)
            guard db.changes == 1 else { continue }
            let id = db.lastInsertedRowID
            for canal in canales {
                try db.execute(
                    """
                    INSERT INTO entrega (aviso_id, canal, estado, proximo_intento, ultimo_error)
                    VALUES (?, ?, ?, ?, ?)
                    """, id, canal, permitido ? "pendiente" : "descartada", ahora,
                    permitido ? nil : "avisos de gol desactivados")
            }
        }
    }

    /// Leases up to `limite` due deliveries for `canales` (and for the terminal channel of run
    /// `ejecucionLocal`), oldest notice first.
    /// - Parameter vencidasHasta: only deliveries due by then (default `ahora`): a drain passes
    ///   its start time so a delivery it failed and rescheduled is not retried in the same drain.
    public func reclamar(
        canales: [String], ejecucionLocal: Int?, arrendatario: String, ahora: Double,
        arriendo: Double, limite: Int, vencidasHasta: Double? = nil,
        soloPrimerosIntentos: Bool = false
    ) throws -> [EntregaReclamada] {
        let lista = "[" + canales.map { "\"" + escaparJSON($0) + "\"" }.joined(separator: ",") + "]"
        return try queue.write { db in
            let reclamadas = try db.rows(
                """
                UPDATE entrega SET arrendatario = ?1, arrendado_hasta = ?2, intentos = intentos + 1
                WHERE (aviso_id, canal) IN (
                    SELECT e.aviso_id, e.canal FROM entrega e JOIN aviso a ON a.id = e.aviso_id
                    WHERE e.estado = 'pendiente' AND e.proximo_intento <= coalesce(?7, ?3)
                      AND (e.arrendado_hasta IS NULL OR e.arrendado_hasta < ?3)
                      AND (?8 = 0 OR e.intentos = 0)
                      AND (e.canal IN (SELECT value FROM json_each(?4))
                           OR (e.canal = 'terminal' AND a.ejecucion_id = ?5))
                    ORDER BY e.aviso_id, e.canal
                    LIMIT ?6)
                RETURNING aviso_id, canal, intentos
                """, arrendatario, ahora + arriendo, ahora, lista, ejecucionLocal, limite,
                vencidasHasta,
                soloPrimerosIntentos
            ) { ($0.int(0), $0.string(1), $0.int(2)) }
            var avisos: [Int: (AvisoDeGol, Double)] = [:]
            for id in Set(reclamadas.map(\.0)) {
                avisos[id] = try db.row(
                    """
                    SELECT partido_id, identificador, titulo, cuerpo, minuto, anadido, jugador,
                        equipo, marcador_local, marcador_visitante, adjunto, creado, ejecucion_id
                    FROM aviso WHERE id = ?
                    """, id, map: Self.aviso)
            }
            return
                reclamadas.compactMap { id, canal, intento in
                    guard let (aviso, creado) = avisos[id] else { return nil }
                    return EntregaReclamada(
                        avisoId: id, canal: canal, intento: intento, aviso: aviso, creado: creado)
                }
                .sorted { ($0.avisoId, $0.canal) < ($1.avisoId, $1.canal) }
        }
    }

    private static func aviso(_ fila: Row) -> (AvisoDeGol, Double) {
        (
            AvisoDeGol(
                identificador: fila.string(1), titulo: fila.string(2), cuerpo: fila.string(3),
                partidoId: fila.int(0), minuto: MinutoDeJuego(fila.int(4), anadido: fila.int(5)),
                jugador: fila.string(6), equipo: fila.string(7),
                marcador: Marcador(local: fila.int(8), visitante: fila.int(9)),
                adjunto: fila.optionalString(10), ejecucion: fila.int(12)),
            fila.double(11)
        )
    }

    /// Stores outcomes; one whose lease was lost meanwhile (expired and taken by another
    /// dispatcher) is ignored, since that dispatcher now owns the delivery.
    /// - Returns: how many outcomes were stored.
    @discardableResult
    public func registrar(_ resultados: [ResultadoDeEntrega], arrendatario: String, ahora: Double)
        throws -> Int
    {
        try queue.write { db in
            var guardados = 0
            for resultado in resultados {
                switch resultado.desenlace {
                case .entregada:
                    try db.execute(
                        """
                        UPDATE entrega SET estado = 'entregada', entregada_en = ?, ultimo_error = NULL,
                            arrendatario = NULL, arrendado_hasta = NULL
                        WHERE aviso_id = ? AND canal = ? AND arrendatario = ?
                        """, ahora, resultado.avisoId, resultado.canal, arrendatario)
                case .reintentar(let cuando, let error):
                    try db.execute(
                        """
                        UPDATE entrega SET proximo_intento = ?, ultimo_error = ?,
                            arrendatario = NULL, arrendado_hasta = NULL
                        WHERE aviso_id = ? AND canal = ? AND arrendatario = ?
                        """, cuando, error, resultado.avisoId, resultado.canal, arrendatario)
                case .fallida(let error), .descartada(let error), .caducada(let error):
                    try db.execute(
                        """
                        UPDATE entrega SET estado = ?, ultimo_error = ?,
                            arrendatario = NULL, arrendado_hasta = NULL
                        WHERE aviso_id = ? AND canal = ? AND arrendatario = ?
                        """, resultado.desenlace.estado, error, resultado.avisoId, resultado.canal,
                        arrendatario)
                }
                guardados += db.changes
            }
            return guardados
        }
    }

    /// Records whether a notice went out with its attachment, and if not, why.
    public func anotarEnriquecimiento(aviso: Int, enriquecido: Bool, motivo: String?) throws {
        try queue.write { db in
            try db.execute(
                "UPDATE aviso SET enriquecido = ?, motivo_adjunto = ? WHERE id = ?", enriquecido,
                motivo, aviso)
        }
    }

    /// Puts failed deliveries back in the queue, due now, with their attempts reset.
    @discardableResult
    public func reintentarFallidas(ahora: Double) throws -> Int {
        try queue.write { db in
            try db.execute(
                """
                UPDATE entrega SET estado = 'pendiente', intentos = 0, proximo_intento = ?,
                    arrendatario = NULL, arrendado_hasta = NULL
                WHERE estado = 'fallida'
                """, ahora)
            return db.changes
        }
    }

    /// Deliveries by state (`pendiente`, `entregada`, `fallida`, `descartada`, `caducada`).
    public func recuento() throws -> [String: Int] {
        try queue.read { db in
            Dictionary(
                uniqueKeysWithValues: try db.rows(
                    "SELECT estado, count(*) FROM entrega GROUP BY estado"
                ) {
                    ($0.string(0), $0.int(1))
                })
        }
    }

    /// The earliest time a pending delivery for `canales` becomes due, if any.
    public func proximoVencimiento(canales: [String]) throws -> Double? {
        let lista = "[" + canales.map { "\"" + escaparJSON($0) + "\"" }.joined(separator: ",") + "]"
        return try queue.read { db in
            try db.row(
                """
                SELECT min(max(proximo_intento, coalesce(arrendado_hasta, 0))) FROM entrega
                WHERE estado = 'pendiente' AND canal IN (SELECT value FROM json_each(?))
                """, lista
            ) { $0.isNull(0) ? nil : $0.double(0) } ?? nil
        }
    }

    /// The latest notices with the state of each of their deliveries, newest first.
    public func ultimos(limite: Int) throws -> [AvisoEnBuzon] {
        try queue.read { db in
            let avisos = try db.rows(
                """
                SELECT partido_id, identificador, titulo, cuerpo, minuto, anadido, jugador, equipo,
                    marcador_local, marcador_visitante, adjunto, creado, ejecucion_id, id, enriquecido,
                    motivo_adjunto
                FROM aviso ORDER BY id DESC LIMIT ?
                """, limite
            ) { fila in
                (
                    Self.aviso(fila), fila.int(13), fila.isNull(14) ? nil : fila.bool(14),
                    fila.optionalString(15)
                )
            }
            return try avisos.map { datos, id, enriquecido, motivo in
                let entregas = try db.rows(
                    """
                    SELECT canal, estado, intentos, ultimo_error FROM entrega
                    WHERE aviso_id = ? ORDER BY canal
                    """, id
                ) {
                    EstadoDeEntrega(
                        canal: $0.string(0), estado: $0.string(1), intentos: $0.int(2),
                        ultimoError: $0.optionalString(3))
                }
                return AvisoEnBuzon(
                    id: id, aviso: datos.0, creado: datos.1, entregas: entregas,
                    enriquecido: enriquecido,
                    motivoDelAdjunto: motivo)
            }
        }
    }

    // MARK: - Channels

    public func canales() throws -> [CanalConfigurado] {
        try queue.read { db in
            try db.rows("SELECT nombre, tipo, activo, ajustes FROM canal ORDER BY nombre") {
                CanalConfigurado(
                    nombre: $0.string(0), tipo: $0.string(1), activo: $0.bool(2),
                    ajustes: $0.string(3))
            }
        }
    }

    /// Adds or replaces a channel.
    public func guardar(_ canal: CanalConfigurado) throws {
        try queue.write { db in
            try db.execute(
                "INSERT OR REPLACE INTO canal (nombre, tipo, activo, ajustes) VALUES (?, ?, ?, ?)",
                canal.nombre, canal.tipo, canal.activo, canal.ajustes)
        }
    }

    /// Removes a channel; its pending deliveries are discarded (nobody would take them).
    /// - Returns: whether the channel existed.
    public func quitarCanal(_ nombre: String) throws -> Bool {
        try queue.write { db in
            try db.execute("DELETE FROM canal WHERE nombre = ?", nombre)
            guard db.changes == 1 else { return false }
            try db.execute(
                """
                UPDATE entrega SET estado = 'descartada', ultimo_error = 'canal quitado'
                WHERE canal = ? AND estado = 'pendiente'
                """, nombre)
            return true
        }
    }
}

/// Escapes a string for a JSON string literal built by hand (channel names only).
func escaparJSON(_ texto: String) -> String {
    var salida = ""
    for escalar in texto.unicodeScalars {
        switch escalar {
        case "\"": salida += "\\\""
        case "\\": salida += "\\\\"
        case let c where c.value < 0x20:
            salida +=
                "\\u" + String(repeating: "0", count: 4 - String(c.value, radix: 16).count)
                + String(c.value, radix: 16)
        default: salida.unicodeScalars.append(escalar)
        }
    }
    return salida
}

/// A delivery a dispatcher holds the lease of.
public struct EntregaReclamada: Sendable, Hashable {
    public let avisoId: Int
    public let canal: String
    /// 1 for the first attempt.
    public let intento: Int
    public let aviso: AvisoDeGol
    /// When the notice was enqueued (unix seconds).
    public let creado: Double

    public init(avisoId: Int, canal: String, intento: Int, aviso: AvisoDeGol, creado: Double) {
        self.avisoId = avisoId
        self.canal = canal
        self.intento = intento
        self.aviso = aviso
        self.creado = creado
    }
}

/// What happened to one delivery attempt.
public struct ResultadoDeEntrega: Sendable, Hashable {
    public enum Desenlace: Sendable, Hashable {
        case entregada
        /// Failed, to be tried again at `cuando` (unix seconds).
        case reintentar(cuando: Double, error: String)
        /// Failed for good (dead letter): visible in `avisos`, re-queueable.
        case fallida(error: String)
        /// Not published: no permission, or its channel was removed.
        case descartada(motivo: String)
        /// Older than the time-to-live: a late goal alert is worse than none.
        case caducada(motivo: String)

        var estado: String {
            switch self {
            case .entregada: "entregada"
            case .reintentar: "pendiente"
            case .fallida: "fallida"
            case .descartada: "descartada"
            case .caducada: "caducada"
            }
        }
    }

    public let avisoId: Int
    public let canal: String
    public let desenlace: Desenlace

    public init(avisoId: Int, canal: String, desenlace: Desenlace) {
        self.avisoId = avisoId
        self.canal = canal
        self.desenlace = desenlace
    }
}

/// A channel as stored: its type and its settings (a JSON object).
public struct CanalConfigurado: Sendable, Hashable {
    public var nombre: String
    public var tipo: String
    public var activo: Bool
    public var ajustes: String

    public init(nombre: String, tipo: String, activo: Bool = true, ajustes: String = "{}") {
        self.nombre = nombre
        self.tipo = tipo
        self.activo = activo
        self.ajustes = ajustes
    }
}

/// A notice with the state of its deliveries, for `marcador avisos`.
public struct AvisoEnBuzon: Sendable, Hashable {
    public let id: Int
    public let aviso: AvisoDeGol
    public let creado: Double
    public let entregas: [EstadoDeEntrega]
    /// `true` enriched, `false` delivered as the original, `nil` no attachment or not tried.
    public let enriquecido: Bool?
    public let motivoDelAdjunto: String?
}

public struct EstadoDeEntrega: Sendable, Hashable, Codable {
    public let canal: String
    public let estado: String
    public let intentos: Int
    public let ultimoError: String?
}
