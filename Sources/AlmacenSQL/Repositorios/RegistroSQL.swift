import Persistencia
import Sistema
import Torneo

/// The log: each line goes to stderr when it happens and into `registro` with its time.
public struct RegistroSQL<Cola: ColaSQL>: Registro {
    public let queue: Cola
    /// Whether to echo lines to stderr (tests turn it off to keep their output clean).
    public let eco: Bool

    public init(_ queue: Cola, eco: Bool = true) {
        self.queue = queue
        self.eco = eco
    }

    public func anotar(_ linea: String, partido: Int?) {
        anotar(lineas: [(linea, partido)])
    }

    /// Several lines in one transaction: a dispatcher writing a batch of notices pays one
    /// commit, not one per line.
    /// Lines are made safe first (safety.md): a name with a newline or an escape sequence can
    /// neither forge a log line nor drive the terminal that reads the log.
    public func anotar(lineas: [(String, Int?)]) {
        do {
            try guardar(lineas: lineas)
        } catch {
            if eco {
                escribirEnStderr("no se pudo guardar en el registro: \(explicacion(de: error))\n")
            }
        }
    }

    /// Several lines in one transaction: a dispatcher writing a batch of notices pays one
    /// commit, not one per line. Lines are made safe first (safety.md): a name with a newline
    /// or an escape sequence can neither forge a log line nor drive the terminal that reads
    /// the log. The echo to stderr happens even when the store refuses the rows.
    public func guardar(lineas: [(String, Int?)]) throws {
        guard !lineas.isEmpty else { return }
        let lineas = lineas.map { (TextoSeguro.limpio($0.0), $0.1) }
        if eco { escribirEnStderr(lineas.map { $0.0 + "\n" }.joined()) }
        // Log lines take no other row: on PostgreSQL they need not queue behind the store's
        // ordered writes.
        try queue.writeConcurrente { db in try Self.insertar(lineas, en: db, limpias: true) }
    }

    /// Writes `lineas` (made safe first, unless `limpias`) into the log within the caller's
    /// transaction: up to 64 lines per statement, sent with the commit (one round trip for the
    /// whole transaction on a server).
    static func insertar(
        _ lineas: [(String, Int?)], en db: borrowing Cola.Base, limpias: Bool = false
    ) throws {
        var resto = lineas[...]
        while !resto.isEmpty {
            let tanda = resto.prefix(64)
            resto = resto.dropFirst(tanda.count)
            let valores = Array(repeating: "(?, ?)", count: tanda.count).joined(separator: ", ")
            let argumentos: [any DatabaseValueConvertible] = tanda.flatMap {
                [$0.1, limpias ? $0.0 : TextoSeguro.limpio($0.0)] as [any DatabaseValueConvertible]
            }
            try db.executeLater(
                "INSERT INTO registro (partido_id, linea) VALUES \(valores)", arguments: argumentos)
        }
    }

    /// Echoes lines another transaction stored (the log channel's, with their outcomes) to
    /// stderr, as `guardar` does with its own.
    public func mostrar(lineas: [(String, Int?)]) {
        guard eco, !lineas.isEmpty else { return }
        escribirEnStderr(lineas.map { TextoSeguro.limpio($0.0) + "\n" }.joined())
    }

    /// Log entries, oldest first; the last `limite` of them when given.
    public func lineas(partido: Int? = nil, limite: Int? = nil) throws -> [LineaDeRegistro] {
        try queue.read { db in
            try db.rows(
                """
                SELECT id, momento, partido_id, linea FROM (
                    SELECT id, momento, partido_id, linea FROM registro
                    WHERE CAST(?1 AS BIGINT) IS NULL OR partido_id = ?1
                    ORDER BY id DESC LIMIT ?2
                ) AS ultimas ORDER BY id
                """, partido, limite ?? Int.max
            ) { LineaDeRegistro(fila: $0) }
        }
    }
}
