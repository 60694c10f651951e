import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The log: each line goes to stderr when it happens and into `registro` with its time.
public struct RegistroSQLite: Registro {
    public let queue: DatabaseQueue
    /// Whether to echo lines to stderr (tests turn it off to keep their output clean).
    public let eco: Bool

    public init(_ queue: DatabaseQueue, eco: Bool = true) {
        self.queue = queue
        self.eco = eco
    }

    public func anotar(_ linea: String, partido: Int?) {
        if eco { escribirEnStderr(linea + "\n") }
        do {
            try queue.write { db in
                try db.execute(
                    "INSERT INTO registro (partido_id, linea) VALUES (?, ?)", partido, linea)
            }
        } catch {
            if eco { escribirEnStderr("no se pudo guardar en el registro: \(error)\n") }
        }
    }

    /// Log entries, oldest first; the last `limite` of them when given.
    public func lineas(partido: Int? = nil, limite: Int? = nil) throws -> [LineaDeRegistro] {
        try queue.read { db in
            try db.rows(
                """
                SELECT id, momento, partido_id, linea FROM (
                    SELECT id, momento, partido_id, linea FROM registro
                    WHERE ?1 IS NULL OR partido_id = ?1
                    ORDER BY id DESC LIMIT ?2
                ) ORDER BY id
                """, partido, limite ?? -1
            ) { fila in
                LineaDeRegistro(
                    id: fila.int(0), momento: fila.string(1), partidoId: fila.optionalInt(2),
                    linea: fila.string(3))
            }
        }
    }
}

/// One stored log line.
public struct LineaDeRegistro: Sendable, Hashable, Codable {
    public var id: Int
    /// ISO 8601 UTC with milliseconds, as SQLite's `strftime('%Y-%m-%dT%H:%M:%fZ')` writes it.
    public var momento: String
    public var partidoId: Int?
    public var linea: String
}

/// Writes straight to file descriptor 2, unbuffered, so log lines interleave correctly with the
/// status line on stdout.
public func escribirEnStderr(_ texto: String) {
    escribirEnDescriptor(2, texto)
}

/// Writes all of `texto` to `descriptor`, retrying short writes; gives up silently on a closed
/// pipe (the reader left: nothing useful can be done).
public func escribirEnDescriptor(_ descriptor: Int32, _ texto: String) {
    var bytes = Array(texto.utf8)
    var escritos = 0
    while escritos < bytes.count {
        let n = bytes.withUnsafeMutableBytes { buffer in
            write(descriptor, buffer.baseAddress! + escritos, buffer.count - escritos)
        }
        if n <= 0 { return }
        escritos += n
    }
}
