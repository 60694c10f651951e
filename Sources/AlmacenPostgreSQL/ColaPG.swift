import AlmacenSQL
import Persistencia
import Sistema
import Synchronization

/// A process's connection to the PostgreSQL store, serialized behind a lock like SQLite's
/// `DatabaseQueue`, and the rules that make it ride out the server (architecture.md).
///
/// - A broken connection (a restart, a cut, a server that stopped answering) is opened again
///   with backoff for up to `paciencia` seconds, then the call fails (exit 74).
/// - What was not committed runs again; what might have been is asked about first: every
///   write transaction inserts a request id into `peticion` in the same COMMIT, so after a
///   connection lost during COMMIT the retry knows whether it already happened.
/// - `write` holds one advisory lock until it commits, so the store's writers (starts and
///   stops of runs, settings, imports) follow one another exactly as on SQLite;
///   `writeConcurrente` (log lines, leases of feeds, a run's minutes) does not, and
///   `writeIdempotente` (the outbox's claims and outcomes: one statement each, in
///   autocommit) takes no lock and no request id at all. A transaction that loses a race
///   (40001, 40P01) runs again.
/// - `ahora()` is the server's clock, measured at every connection.
public final class ColaPG: ColaSQL {
    public var dialecto: Dialecto { .postgresql }

    public typealias Base = ConexionPG

    public let url: String
    /// Seconds a call keeps reconnecting before it gives up.
    public let paciencia: Double
    private let estado: Mutex<Estado>
    /// Server time minus this machine's, in seconds (at the last connection).
    private let desfase = Mutex<Double>(0)

    private struct Estado: ~Copyable {
        var conexion: ConexionPG?
        var escrituras = 0
        /// When the server was first found gone in an outage still under way: every call
        /// waits for it only until `paciencia` after that instant, not `paciencia` each (issue
        /// 40: a drain's calls one after another kept `avisos enviar` going 150 s and more).
        var caida: Double?
    }

    /// The advisory lock `write` takes (two keys: marcador's, then this lock's).
    static let ordenDeEscritura: (Int32, Int32) = (4242, 0)

    public init(url: String, paciencia: Double = 0) throws {
        self.url = url
        self.paciencia = paciencia
        estado = Mutex(Estado())
        try estado.withLock { estado in estado.conexion = try conectar(desde: nil) }
    }

    public func ahora() -> Double { segundosUnix() + desfase.withLock { $0 } }

    /// Reads change nothing: after a lost connection they simply run again.
    public func read<T: Sendable>(_ body: (borrowing ConexionPG) throws -> T) throws -> T {
        try repetible(body)
    }

    public func write<T: Sendable>(_ body: (borrowing ConexionPG) throws -> T) throws -> T {
        try transaccion(ordenada: true, body)
    }

    public func writeConcurrente<T: Sendable>(_ body: (borrowing ConexionPG) throws -> T) throws
        -> T
    {
        try transaccion(ordenada: false, body)
    }

    /// No BEGIN, no request id: every statement of `body` commits by itself and means the
    /// same when run again, so a lost connection or a lost race just runs `body` again.
    public func writeIdempotente<T: Sendable>(_ body: (borrowing ConexionPG) throws -> T) throws
        -> T
    {
        try repetible(body)
    }

    /// `body` on the live connection, run again after the connection is lost (once it is back)
    /// or after losing a race (40001, 40P01): only for what means the same when run twice.
    private func repetible<T: Sendable>(_ body: (borrowing ConexionPG) throws -> T) throws -> T {
        try estado.withLock { estado in
            var carreras = 0
            var caida: Double?
            while true {
                let conexion = try conexionViva(&estado, caida: caida)
                do {
                    return try body(conexion)
                } catch let error as ErrorPG where error.sinConexion && !error.interrumpido {
                    caida = caida ?? estado.caida ?? Interrupcion.reloj()
                    estado.caida = caida
                    estado.conexion = nil
                } catch let error as ErrorPG where error.reintentable && carreras < 10 {
                    carreras += 1
                }
            }
        }
    }

    /// LISTEN on a connection of its own, on a thread of its own (`OyentePG`).
    public func escuchar(
        _ canal: CanalDeNotificacion, _ alLlegar: @escaping @Sendable (String) -> Void
    ) -> (any Escucha)? {
        OyentePG(url: url, canal: canal.rawValue, alLlegar: alLlegar)
    }

    private func transaccion<T: Sendable>(
        ordenada: Bool, _ body: (borrowing ConexionPG) throws -> T
    ) throws -> T {
        let peticion = Self.nuevaPeticion()
        return try estado.withLock { estado in
            estado.escrituras += 1
            let podar = estado.escrituras % 1_000 == 0
            var carreras = 0
            var caida: Double?
            while true {
                let conexion = try conexionViva(&estado, caida: caida)
                var resultado: T?
                do {
                    // BEGIN and the lock travel with the body's first statement.
                    conexion.comenzar(
                        ordenada
                            ? [
                                "BEGIN",
                                "SELECT pg_advisory_xact_lock(\(Self.ordenDeEscritura.0), \(Self.ordenDeEscritura.1))",
                            ]
                            : ["BEGIN"])
                    resultado = try body(conexion)
                    // Our own hex: nothing from outside reaches this text.
                    try conexion.confirmar(
                        (podar ? [Self.podarPeticiones] : [])
                            + ["INSERT INTO peticion (id) VALUES ('\(peticion)')", "COMMIT"])
                    return resultado!
                } catch let error as ErrorPG where error.sinConexion && !error.interrumpido {
                    caida = caida ?? estado.caida ?? Interrupcion.reloj()
                    estado.caida = caida
                    estado.conexion = nil
                    // Only a transaction whose body ran can have reached COMMIT; its id tells
                    // whether the server committed it before the connection went.
                    if let resultado, try confirmada(peticion, &estado, caida: caida) {
                        return resultado
                    }
                } catch let error as ErrorPG where error.reintentable && carreras < 10 {
                    carreras += 1
                    conexion.deshacer()
                } catch {
                    conexion.deshacer()
                    throw error
                }
            }
        }
    }

    /// Request ids older than any retry, pruned with one commit in a thousand.
    static let podarPeticiones =
        "DELETE FROM peticion WHERE creada < clock_timestamp() - interval '1 hour'"

    /// Whether the transaction of `peticion` committed, asked on a new connection.
    private func confirmada(_ peticion: String, _ estado: inout Estado, caida: Double?) throws
        -> Bool
    {
        while true {
            let conexion = try conexionViva(&estado, caida: caida)
            do {
                return try conexion.scalarInt("SELECT 1 FROM peticion WHERE id = ?", peticion) == 1
            } catch let error as ErrorPG where error.sinConexion && !error.interrumpido {
                estado.conexion = nil
            }
        }
    }

    /// The connection, opened again if it broke; after `paciencia` seconds since `caida`
    /// without one, the last reason is thrown.
    private func conexionViva(_ estado: inout Estado, caida: Double?) throws -> ConexionPG {
        if let conexion = estado.conexion, !conexion.rota { return conexion }
        estado.conexion = nil
        let desde = caida ?? estado.caida
        do {
            let nueva = try conectar(desde: desde)
            estado.caida = nil
            estado.conexion = nueva
            return nueva
        } catch let error as ErrorPG where error.sinConexion && !error.interrumpido {
            estado.caida = desde ?? Interrupcion.reloj() - paciencia
            throw error
        }
    }

    /// Connects, retrying with backoff (0.05 s doubling up to 2 s) while the outage that
    /// started at `desde` is younger than `paciencia`; measures the server's clock.
    private func conectar(desde caida: Double?) throws -> ConexionPG {
        let inicio = caida ?? Interrupcion.reloj()
        var espera = 0.05
        var avisado = false
        while true {
            do {
                let conexion = try ConexionPG(url: url)
                try medirReloj(conexion)
                if avisado {
                    escribirEnStderr("marcador: conexión con PostgreSQL recuperada.\n")
                }
                return conexion
            } catch let error as ErrorPG where error.sinConexion && !error.interrumpido {
                let transcurrido = Interrupcion.reloj() - inicio
                // A process that is stopping reconnects no more.
                guard transcurrido + espera < paciencia, !Interrupcion.estaActivada else {
                    throw error
                }
                if !avisado && paciencia > 5 {
                    avisado = true
                    escribirEnStderr(
                        "marcador: sin conexión con PostgreSQL; se reintenta durante \(Int(paciencia)) s.\n"
                    )
                }
                guard Interrupcion.dormir(espera) else { throw ErrorPG.interrupcion }
                espera = min(espera * 2, 2)
            }
        }
    }

    /// The server's clock against this machine's, halfway through one round trip.
    private func medirReloj(_ conexion: ConexionPG) throws {
        let antes = segundosUnix()
        let servidor =
            try conexion.row("SELECT extract(epoch FROM clock_timestamp()) AS ahora") {
                $0.double("ahora")
            } ?? antes
        let despues = segundosUnix()
        desfase.withLock { $0 = servidor - (antes + despues) / 2 }
    }

    /// 128 random bits in hex: a write's identity across a lost reply.
    private static func nuevaPeticion() -> String {
        var generador = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generador.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
