import AlmacenSQL
import CPostgres
import Sistema

#if canImport(Glibc)
    import Glibc
#endif

/// What PostgreSQL reported: its SQLSTATE (`40001`, `23505`…), its message, the statement.
public struct ErrorPG: Error, Sendable, CustomStringConvertible {
    public var estado: String
    public var mensaje: String
    public var sql: String?

    public var description: String {
        "PostgreSQL \(estado): \(mensaje)" + (sql.map { " (`\($0)`)" } ?? "")
    }

    /// A transaction that lost a race (serialization failure, deadlock): worth running again.
    var reintentable: Bool { estado == "40001" || estado == "40P01" }
    /// The server cannot be reached, the connection broke, the server stopped answering, or it
    /// ended this session (25P03: ten silent seconds inside a transaction, as a paused process
    /// leaves them; 57P05: an idle session).
    public var sinConexion: Bool {
        estado.hasPrefix("08") || estado == "57P01" || estado == "57P02" || estado == "57P03"
            || estado == "25P03" || estado == "57P05"
    }
    /// The process is stopping (SIGINT, SIGTERM): nothing more is tried.
    public var interrumpido: Bool { estado == Self.estadoInterrumpido }

    /// Not a SQLSTATE: marcador's own, for a wait the process gave up because it is stopping.
    static let estadoInterrumpido = "interrumpido"
    static let interrupcion = ErrorPG(
        estado: estadoInterrumpido, mensaje: "el proceso se está parando")
}

/// libpq's functions, loaded once.
enum LibPQ {
    static let api: marcador_pq_api? = {
        var api = marcador_pq_api()
        return marcador_pq_cargar(&api) == 0 ? api : nil
    }()
}

/// One libpq connection speaking the repositories' SQL: `?`/`?N` placeholders become `$N`,
/// each statement is prepared once per connection, parameters travel as text and the server
/// infers their types (the SQL casts where it cannot).
///
/// A state machine that never waits blindly (architecture.md): it connects with libpq's
/// asynchronous calls and waits for every answer with poll(2) against a deadline and the
/// process's `Interrupcion`, so a server that hangs costs `plazo` at most, and SIGINT ends the
/// wait at once. TCP keepalives find a dead peer. After any failure to reach the server the
/// connection is broken for good (`rota`): its owner opens another.
///
/// Not thread-safe: `ColaPG` serializes its use.
public final class ConexionPG: BaseSQL {
    public typealias Fila = FilaPG

    public var dialecto: Dialecto { .postgresql }
    let api: marcador_pq_api
    let conexion: OpaquePointer
    /// Seconds an answer may take before the server counts as gone.
    let plazo: Double
    /// The URL's password, scrubbed from every message libpq writes.
    private let contrasena: String?
    private var preparadas: [StatementKey: String] = [:]
    /// Names given to statements prepared on this connection (also those whose PREPARE failed).
    private var nombrados = 0
    /// A transaction's opening (`BEGIN`, its lock), held back to travel with the
    /// transaction's first statement instead of costing a round trip of its own.
    private var comienzo: [String] = []
    /// Writes of the open transaction that nothing reads (`executeLater`), held back to travel
    /// with its next request.
    private var diferidas: [(sql: String, textos: [String?])] = []
    public private(set) var changes = 0
    /// Requests (or pipelines) sent and answered on this connection: what its tests count.
    public private(set) var roundTrips = 0
    /// The connection failed once: nothing more can be sent on it.
    public private(set) var rota = false

    /// What every connection asks libpq for, before the user's own URL (which may override).
    /// Its name is this process's (`Propietario.nombreDeSesion`): while it is connected, every
    /// other process sees from the server that it is alive (architecture.md).
    static let parametrosPorDefecto: [(String, String)] = [
        ("connect_timeout", "5"), ("keepalives", "1"), ("keepalives_idle", "5"),
        ("keepalives_interval", "2"), ("keepalives_count", "3"),
        ("application_name", Propietario.actual.nombreDeSesion),
    ]

    /// Connects to `url` (`postgresql://…`, or any libpq connection string) within `plazo`
    /// seconds; SIGINT cuts the wait short.
    public init(url: String, plazo: Double = 10) throws {
        guard let api = LibPQ.api else {
            throw ErrorPG(estado: "", mensaje: "falta libpq (Debian: libpq5)")
        }
        self.api = api
        self.plazo = plazo
        contrasena = AlmacenPG.contrasena(de: url)
        // The session's settings travel in the startup packet, unless the user gives options
        // of their own (in the URL or PGOPTIONS), which that would replace: then they are set
        // by a request once connected.
        let opcionesPropias =
            url.lowercased().contains("options") || getenv("PGOPTIONS") != nil
        let opciones = Self.ajustesDeSesion.map { "-c \($0)=\($1)" }.joined(separator: " ")
        let pares =
            Self.parametrosPorDefecto + (opcionesPropias ? [] : [("options", opciones)])
            + [("dbname", url)]
        let conexion = try withArrayOfOptionalCStrings(pares.map(\.0) + [nil]) { claves in
            try withArrayOfOptionalCStrings(pares.map(\.1) + [nil]) { valores in
                guard let conexion = api.connect_start_params(claves, valores, 1) else {
                    throw ErrorPG(estado: "08000", mensaje: "sin memoria para conectar")
                }
                return conexion
            }
        }
        self.conexion = conexion
        // Every stored property is set: from here on, deinit finishes the connection.
        try conectar(hasta: Interrupcion.reloj() + plazo)
        var copia = api
        marcador_pq_callar(&copia, conexion)
        // A process paused in the middle of a transaction (SIGSTOP, a laptop lid) would hold
        // its row and advisory locks for as long as it stays paused, and every other writer —
        // a resume from another host too — would wait for it. Our transactions send their
        // statements back to back, so ten silent seconds inside one mean the client is gone:
        // the server ends that session, the locks go, and the client, if it comes back,
        // reconnects and retries (its request id says whether anything committed).
        // A prepared statement is planned for its parameters the first five times it runs and
        // only then given the generic plan it keeps: in a short-lived process (`jugar`) that
        // was half the server's time (an outbox claim is 0.5 ms to plan). marcador's statements
        // are written so their generic plans are good (docs/postgresql.md): each is planned
        // once per connection. A generic plan's cost is an estimate for any value, and the
        // outbox's "anything left?" check estimated past `jit_above_cost`: compiling it took
        // 550 of its 700 ms at the end of every drain (issue 25). Short statements never gain
        // from JIT, so it is off.
        if opcionesPropias {
            try executeScript(
                Self.ajustesDeSesion.map { "SET \($0) = '\($1)'" }.joined(separator: "; "))
        }
    }

    /// The session settings above (values without spaces or quotes: they also travel as
    /// `-c` options).
    static let ajustesDeSesion = [
        ("client_min_messages", "warning"), ("idle_in_transaction_session_timeout", "10s"),
        ("plan_cache_mode", "force_generic_plan"), ("jit", "off"),
    ]

    deinit { api.finish(conexion) }

    /// Drives libpq's connection state machine, waiting for the socket as it asks.
    private func conectar(hasta: Double) throws {
        while true {
            if api.status(conexion) == CONNECTION_BAD { throw errorDeConexion(nil) }
            let eventos: Int16
            switch api.connect_poll(conexion) {
            case PGRES_POLLING_OK: return
            case PGRES_POLLING_READING: eventos = Int16(POLLIN)
            case PGRES_POLLING_WRITING: eventos = Int16(POLLOUT)
            default: throw errorDeConexion(nil)
            }
            switch Interrupcion.esperar(api.socket(conexion), eventos, hasta: hasta) {
            case .lista: continue
            case .interrumpida:
                rota = true
                throw ErrorPG.interrupcion
            case .plazoAgotado:
                rota = true
                throw ErrorPG(
                    estado: "08001",
                    mensaje: "el servidor no respondió en \(Int(plazo)) s al conectar")
            }
        }
    }

    public func execute(_ sql: String, _ arguments: any DatabaseValueConvertible...) throws {
        try ejecutar(sql, arguments) { _ in }
    }

    /// Several statements without parameters, in one round trip; each one's result checked.
    public func executeScript(_ sql: String) throws {
        // What is held back goes first, in a pipeline of its own (statements with parameters
        // cannot share a request with a script).
        if !diferidas.isEmpty { try enTuberia(planas: []) }
        let texto = (comienzo + [sql]).joined(separator: "; ")
        comienzo = []
        try enviar(texto) { api.send_query(conexion, texto) }
        try recibir(texto) { _, _ in }
    }

    public func executeLater(_ sql: String, arguments: [any DatabaseValueConvertible]) throws {
        // In autocommit the caller expects the write done when the call returns.
        guard !comienzo.isEmpty || enTransaccion else {
            return try ejecutar(sql, arguments) { _ in }
        }
        diferidas.append((sql, arguments.map { Self.texto($0.databaseValue) }))
    }

    /// Ends the open transaction with `sentencias` (no parameters; the last one `COMMIT`):
    /// one round trip, carrying whatever the transaction held back.
    func confirmar(_ sentencias: [String]) throws {
        guard diferidas.isEmpty else { return try enTuberia(planas: sentencias) }
        try executeScript(sentencias.joined(separator: "; "))
    }

    /// Opens a transaction with `sentencias` (no parameters), sent with the next statement.
    func comenzar(_ sentencias: [String]) { comienzo = sentencias }

    /// Ends a transaction that failed: an opening never sent is forgotten, an open
    /// transaction rolled back.
    func deshacer() {
        diferidas = []
        if !comienzo.isEmpty {
            comienzo = []
        } else if !rota && enTransaccion {
            try? executeScript("ROLLBACK")
        }
    }

    public func rows<T>(
        _ sql: String, arguments: [any DatabaseValueConvertible], map: (FilaPG) throws -> T
    ) throws -> [T] {
        var filas: [T] = []
        try ejecutar(sql, arguments) { resultado in
            let n = api.ntuples(resultado)
            filas.reserveCapacity(Int(n))
            let columnas = Self.columnas(api, resultado)
            for i in 0..<n {
                filas.append(
                    try map(FilaPG(api: api, resultado: resultado, fila: i, columnas: columnas)))
            }
        }
        return filas
    }

    public func forEachRow(
        _ sql: String, arguments: [any DatabaseValueConvertible], body: (FilaPG) throws -> Void
    ) throws {
        try ejecutar(sql, arguments) { resultado in
            let columnas = Self.columnas(api, resultado)
            for i in 0..<api.ntuples(resultado) {
                try body(FilaPG(api: api, resultado: resultado, fila: i, columnas: columnas))
            }
        }
    }

    /// A result's column names, read once per result (the server folds unquoted names to
    /// lower case, as the repositories write them).
    static func columnas(_ api: marcador_pq_api, _ resultado: OpaquePointer) -> ColumnNames {
        ColumnNames(
            (0..<api.nfields(resultado)).map { i in
                api.fname(resultado, i).map { String(cString: $0) }
            })
    }

    /// Whether a transaction is open (and usable).
    var enTransaccion: Bool { api.transaction_status(conexion) != PQTRANS_IDLE }

    private func ejecutar(
        _ sql: String, _ argumentos: [any DatabaseValueConvertible],
        _ leer: (OpaquePointer) throws -> Void
    ) throws {
        let textos: [String?] = argumentos.map { Self.texto($0.databaseValue) }
        changes = 0
        let clave = StatementKey(sql)
        if let nombre = preparadas[clave], comienzo.isEmpty, diferidas.isEmpty {
            try withArrayOfOptionalCStrings(textos) { punteros in
                try enviar(sql) {
                    api.send_query_prepared(
                        conexion, nombre, Int32(punteros.count), punteros, nil, nil, 0)
                }
            }
            try recibir(sql) { _, resultado in try resultadoFinal(resultado, leer) }
            return
        }
        try enTuberia(planas: [], ultima: (sql, textos), leer: leer)
    }

    private func resultadoFinal(_ resultado: OpaquePointer, _ leer: (OpaquePointer) throws -> Void)
        throws
    {
        changes = api.cmd_tuples(resultado).flatMap { Int(String(cString: $0)) } ?? 0
        try leer(resultado)
    }

    /// One request of a pipeline: what it sends and what its result means.
    private enum Peticion {
        /// Statements without parameters (a transaction's opening, its end).
        case plana(String)
        /// A statement's PREPARE: prepared on the server under that name once it succeeds.
        case preparar(StatementKey, nombre: String, sql: String)
        /// A prepared statement's run; `ultima` is the one whose result the caller reads.
        case ejecutar(nombre: String, sql: String, textos: [String?], ultima: Bool)

        /// What an error of this request names.
        var sql: String {
            switch self {
            case .plana(let texto): texto
            case .preparar(_, _, let sql), .ejecutar(_, let sql, _, _): sql
            }
        }
    }

    /// Sends in one pipeline, one round trip: the transaction's opening, the writes it held
    /// back, `ultima` (its first PREPARE too, its result to `leer`) and then `planas`; throws
    /// the first error of them (the server skips what follows a failure, up to the sync point).
    private func enTuberia(
        planas: [String], ultima: (sql: String, textos: [String?])? = nil,
        leer: (OpaquePointer) throws -> Void = { _ in }
    ) throws {
        var peticiones = comienzo.map(Peticion.plana)
        // Named in this pipeline, not yet known to be prepared.
        var enVuelo: [StatementKey: String] = [:]
        func sentencia(_ sql: String, _ textos: [String?], ultima: Bool) {
            let clave = StatementKey(sql)
            let nombre: String
            if let conocido = preparadas[clave] ?? enVuelo[clave] {
                nombre = conocido
            } else {
                nombre = "m\(nombrados)"
                nombrados += 1
                enVuelo[clave] = nombre
                peticiones.append(.preparar(clave, nombre: nombre, sql: sql))
            }
            peticiones.append(.ejecutar(nombre: nombre, sql: sql, textos: textos, ultima: ultima))
        }
        for diferida in diferidas { sentencia(diferida.sql, diferida.textos, ultima: false) }
        if let ultima { sentencia(ultima.sql, ultima.textos, ultima: true) }
        peticiones += planas.map(Peticion.plana)
        comienzo = []
        diferidas = []
        let nombreDe = ultima?.sql ?? planas.last ?? ""
        try enviar(nombreDe) { api.enter_pipeline(conexion) }
        var enviado = true
        for peticion in peticiones where enviado {
            switch peticion {
            case .plana(let texto):
                enviado = api.send_query_params(conexion, texto, 0, nil, nil, nil, nil, 0) == 1
            case .preparar(_, let nombre, let sql):
                enviado = api.send_prepare(conexion, nombre, Self.traducir(sql), 0, nil) == 1
            case .ejecutar(let nombre, _, let textos, _):
                enviado = withArrayOfOptionalCStrings(textos) { punteros in
                    api.send_query_prepared(
                        conexion, nombre, Int32(punteros.count), punteros, nil, nil, 0) == 1
                }
            }
        }
        guard enviado, api.pipeline_sync(conexion) == 1 else { throw errorDeConexion(nombreDe) }
        // Out of the pipeline whatever the results were, or the next plain request could not
        // be sent: a connection that cannot leave it is done for.
        defer { if !rota && api.exit_pipeline(conexion) != 1 { rota = true } }
        try recibir(nombreDe, peticiones: peticiones.map(\.sql)) { i, resultado in
            switch peticiones[i] {
            case .plana: break
            case .preparar(let clave, let nombre, _):
                // Prepared on the server: named so, even if its first execution fails.
                preparadas[clave] = nombre
            case .ejecutar(_, _, _, let esUltima):
                if esUltima { try resultadoFinal(resultado, leer) }
            }
        }
    }

    /// Sends one request (a blocking write of a few bytes: the kernel's buffer takes it).
    private func enviar(_ sql: String, _ envio: () -> Int32) throws {
        guard !rota else { throw ErrorPG(estado: "08003", mensaje: "la conexión ya se cortó") }
        guard envio() == 1 else { throw errorDeConexion(sql) }
    }

    /// Reads every result of what is in flight, within the deadline, handing each successful
    /// one to `leer` with the number of its request; the first error is thrown once all of
    /// them are read (the connection then stays usable for the next request). `peticiones`
    /// is what each request of a pipeline sends (its errors name it), `nil` for one request
    /// outside a pipeline.
    private func recibir(
        _ sql: String, peticiones: [String]? = nil,
        _ leer: (_ peticion: Int, OpaquePointer) throws -> Void
    ) throws {
        roundTrips += 1
        let hasta = Interrupcion.reloj() + plazo
        var primerError: (any Error)?
        var peticion = 0
        while true {
            while api.is_busy(conexion) == 1 {
                switch Interrupcion.esperar(api.socket(conexion), Int16(POLLIN), hasta: hasta) {
                case .lista:
                    guard api.consume_input(conexion) == 1 else { throw errorDeConexion(sql) }
                case .interrumpida:
                    rota = true
                    throw ErrorPG.interrupcion
                case .plazoAgotado:
                    rota = true
                    throw ErrorPG(
                        estado: "08006",
                        mensaje: "el servidor no respondió en \(Int(plazo)) s", sql: sql)
                }
            }
            guard let resultado = api.get_result(conexion) else {
                // In a pipeline, the end of one request's results; its sync point ends all.
                guard let peticiones, peticion < peticiones.count,
                    api.status(conexion) != CONNECTION_BAD
                else { break }
                peticion += 1
                continue
            }
            defer { api.clear(resultado) }
            let estado = api.result_status(resultado)
            if estado == PGRES_PIPELINE_SYNC { break }
            // A request skipped after an earlier one failed: that one's error is thrown.
            guard estado != PGRES_PIPELINE_ABORTED, primerError == nil else { continue }
            do {
                let nombrada = peticiones.flatMap { peticion < $0.count ? $0[peticion] : nil }
                try comprobar(resultado, nombrada ?? sql)
                try leer(peticion, resultado)
            } catch {
                primerError = error
            }
        }
        if api.status(conexion) == CONNECTION_BAD { throw errorDeConexion(sql) }
        if let primerError { throw primerError }
    }

    private func comprobar(_ resultado: OpaquePointer, _ sql: String) throws(ErrorPG) {
        switch api.result_status(resultado) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return
        default:
            let estado =
                api.result_error_field(resultado, Int32(UInt8(ascii: "C")))
                .map { String(cString: $0) } ?? ""
            let mensaje =
                api.result_error_field(resultado, Int32(UInt8(ascii: "M")))
                .map { String(cString: $0) }
                ?? api.result_error_message(resultado).map { String(cString: $0) } ?? ""
            throw ErrorPG(estado: estado, mensaje: limpio(mensaje), sql: sql)
        }
    }

    /// The connection broke: libpq's reason, without the password; the connection is dead.
    private func errorDeConexion(_ sql: String?) -> ErrorPG {
        rota = true
        let mensaje = api.error_message(conexion).map { String(cString: $0) } ?? ""
        return ErrorPG(
            estado: "08006",
            mensaje: limpio(mensaje.trimmingCharacters(while: { $0 == "\n" || $0 == " " })),
            sql: sql)
    }

    /// `texto` with the URL's password masked, wherever libpq quoted it.
    private func limpio(_ texto: String) -> String {
        guard let contrasena, !contrasena.isEmpty else { return texto }
        return texto.reemplazando(contrasena, por: "***")
    }

    /// A parameter as PostgreSQL's text input for its inferred type; `nil` is SQL NULL.
    static func texto(_ valor: DatabaseValue) -> String? {
        switch valor {
        case .null: nil
        case .integer(let n): String(n)
        case .real(let x): x.isFinite ? String(x) : nil
        case .text(let t): t
        case .blob(let bytes):
            "\\x" + bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
    }

    /// `?` and `?N` placeholders as PostgreSQL's `$N`, outside quotes and comments.
    static func traducir(_ sql: String) -> String {
        var salida = ""
        salida.reserveCapacity(sql.utf8.count + 16)
        var siguiente = 1
        var enComillas = false
        var caracteres = sql.unicodeScalars.makeIterator()
        var pendiente: Unicode.Scalar?
        while let c = pendiente ?? caracteres.next() {
            pendiente = nil
            if c == "'" { enComillas.toggle() }
            guard c == "?", !enComillas else {
                salida.unicodeScalars.append(c)
                continue
            }
            var numero = ""
            while let d = caracteres.next() {
                if d.properties.numericType != nil && d.isASCII {
                    numero.unicodeScalars.append(d)
                } else {
                    pendiente = d
                    break
                }
            }
            if numero.isEmpty {
                salida += "$\(siguiente)"
                siguiente += 1
            } else {
                salida += "$" + numero
            }
        }
        return salida
    }
}

/// One row of a libpq result. Values arrive as text; booleans as `t`/`f`.
public struct FilaPG: FilaSQL {
    let api: marcador_pq_api
    let resultado: OpaquePointer
    let fila: Int32
    let columnas: ColumnNames

    public func posicion(de nombre: String) -> Int? { columnas.posicion(de: nombre) }

    public func isNull(_ i: Int) -> Bool { api.getisnull(resultado, fila, Int32(i)) == 1 }

    public func int(_ i: Int) -> Int {
        guard let texto = api.getvalue(resultado, fila, Int32(i)) else { return 0 }
        switch texto.pointee {
        case CChar(UInt8(ascii: "t")): return 1
        case CChar(UInt8(ascii: "f")): return 0
        default: return strtol(texto, nil, 10)
        }
    }

    public func double(_ i: Int) -> Double {
        guard let texto = api.getvalue(resultado, fila, Int32(i)) else { return 0 }
        return strtod(texto, nil)
    }

    public func string(_ i: Int) -> String {
        precondition(!isNull(i), "column \(i) is NULL where a value is required")
        guard let texto = api.getvalue(resultado, fila, Int32(i)) else { return "" }
        let longitud = Int(api.getlength(resultado, fila, Int32(i)))
        return texto.withMemoryRebound(to: UInt8.self, capacity: longitud) {
            String(decoding: UnsafeBufferPointer(start: $0, count: longitud), as: UTF8.self)
        }
    }
}

/// Calls `body` with a C array of the strings (`NULL` for `nil`), valid during the call.
func withArrayOfOptionalCStrings<R>(
    _ textos: [String?], _ body: ([UnsafePointer<CChar>?]) throws -> R
) rethrows -> R {
    let copias = textos.map { $0.map { strdup($0) } ?? nil }
    defer { for copia in copias { free(copia) } }
    return try body(copias.map { $0.map { UnsafePointer($0) } })
}

extension String {
    func trimmingCharacters(while recortar: (Character) -> Bool) -> String {
        String(drop(while: recortar).reversed().drop(while: recortar).reversed())
    }
}
