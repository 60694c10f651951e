import Foundation
import Sistema
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A real PostgreSQL server from Debian for the tests (postgresql.md): `initdb` and `pg_ctl` in a
/// temporary folder, listening only on a Unix socket there, run as the `postgres` user when the
/// tests run as root (the server refuses root). One per test process, started on first use and
/// stopped when the process exits; each test gets a database of its own.
public final class ServidorPostgres: Sendable {
    public let carpeta: String

    /// Why PostgreSQL cannot run here (its Debian package or `runuser` is missing), or `nil`
    /// when it can: a cheap check, so that suites can skip themselves before starting anything.
    public static let falta: String? = {
        guard binarios() != nil else { return "no está PostgreSQL (Debian: postgresql)" }
        if geteuid() == 0 && !FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") {
            return "hace falta runuser para arrancar PostgreSQL como postgres"
        }
        return nil
    }()

    /// The shared server, started on first use. initdb and pg_ctl take seconds: they run on a
    /// thread of their own, never on the cooperative pool the other suites share.
    private static let arranque = Task<ServidorPostgres, any Error> {
        try await fueraDelPool {
            let servidor = try ServidorPostgres()
            compartidoYa.withLock { $0 = servidor }
            pidDelServidor.withLock { $0 = servidor.pid.withLock { $0 } }
            atexit { ServidorPostgres.pararAlSalir() }
            return servidor
        }
    }
    private static let compartidoYa = Mutex<ServidorPostgres?>(nil)

    public static func compartido() async throws -> ServidorPostgres {
        if let falta { throw FalloDeServidor(motivo: falta) }
        return try await arranque.value
    }

    public struct FalloDeServidor: Error, Sendable, CustomStringConvertible {
        public var motivo: String
        public var description: String { motivo }
    }

    private static let pidDelServidor = Mutex<Int32?>(nil)

    /// The postmaster's pid (read from `postmaster.pid` after each start).
    private let pid = Mutex<Int32?>(nil)

    /// A server of its own, for a test that restarts it, freezes it or cuts its connections
    /// (the shared one serves every other test meanwhile). Stop it with `parar()`.
    public static func propio() async throws -> ServidorPostgres {
        if let falta { throw FalloDeServidor(motivo: falta) }
        return try await fueraDelPool { try ServidorPostgres() }
    }

    private var datos: String { carpeta + "/datos" }
    /// The server's options: a Unix socket in `carpeta` only, no durability (tests).
    private static func opciones(_ carpeta: String) -> String {
        "-k \(carpeta) -c listen_addresses='' -c fsync=off -c synchronous_commit=off "
            + "-c full_page_writes=off -c max_connections=300"
    }

    private func comoPostgres(_ programa: String, _ argumentos: [String]) -> Int32 {
        geteuid() == 0
            ? Self.correr("/usr/sbin/runuser", ["-u", "postgres", "--", programa] + argumentos)
            : Self.correr(programa, argumentos)
    }

    /// `pg_ctl restart -m fast`: every connection is cut, the server is back within a second
    /// or so.
    public func reiniciar() async throws {
        let (bin, datos, opciones, log) = (
            Self.binarios()!, datos, Self.opciones(carpeta), carpeta + "/log"
        )
        let codigo = try await fueraDelPool {
            self.comoPostgres(
                bin + "/pg_ctl",
                ["-D", datos, "-o", opciones, "-l", log, "-m", "fast", "-w", "restart"])
        }
        guard codigo == 0 else { throw FalloDeServidor(motivo: "pg_ctl restart falló") }
        leerPid()
    }

    /// SIGSTOP (`true`) or SIGCONT (`false`) to the postmaster and every backend: a server that
    /// hangs with its sockets open, as a frozen machine would.
    public func congelar(_ congelado: Bool) {
        guard let pid = pid.withLock({ $0 }) else { return }
        let senal = congelado ? SIGSTOP : SIGCONT
        for hijo in Self.hijos(de: pid) { kill(hijo, senal) }
        kill(pid, senal)
    }

    /// Stops a server of one's own (`propio`) and removes its folder.
    public func parar() {
        congelar(false)
        if let pid = pid.withLock({ $0 }) {
            kill(pid, SIGQUIT)
            for _ in 0..<200 where kill(pid, 0) == 0 { usleep(10_000) }
        }
        try? FileManager.default.removeItem(atPath: carpeta)
    }

    /// Processes whose parent is `pid` (the backends of a postmaster), from /proc.
    static func hijos(de pid: Int32) -> [Int32] {
        let entradas = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entradas.compactMap(Int32.init).filter { candidato in
            guard
                let stat = try? String(contentsOfFile: "/proc/\(candidato)/stat", encoding: .utf8),
                let cierre = stat.lastIndex(of: ")")
            else { return false }
            let campos = stat[stat.index(after: cierre)...].split(separator: " ")
            return campos.count > 1 && Int32(campos[1]) == pid
        }
    }

    private func leerPid() {
        if let texto = try? String(contentsOfFile: datos + "/postmaster.pid", encoding: .utf8),
            let leido = Int32(texto.split(separator: "\n").first ?? "")
        {
            pid.withLock { $0 = leido }
        }
    }

    private init() throws {
        guard let bin = Self.binarios() else {
            throw FalloDeServidor(motivo: "no está PostgreSQL (Debian: postgresql)")
        }
        let raiz = geteuid() == 0
        carpeta = NSTemporaryDirectory() + "marcador-pg-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: carpeta, withIntermediateDirectories: true)
        if raiz {
            // The server runs as `postgres`: the folder (socket, data, log) must be its own.
            guard Self.correr("/bin/chown", ["postgres:postgres", carpeta]) == 0 else {
                throw FalloDeServidor(motivo: "no se pudo preparar la carpeta para postgres")
            }
        }
        let datos = carpeta + "/datos"
        func comoPostgres(_ programa: String, _ argumentos: [String]) -> Int32 {
            raiz
                ? Self.correr("/usr/sbin/runuser", ["-u", "postgres", "--", programa] + argumentos)
                : Self.correr(programa, argumentos)
        }
        guard
            comoPostgres(
                bin + "/initdb",
                [
                    "-D", datos, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8",
                    "--locale=C",
                ]) == 0
        else { throw FalloDeServidor(motivo: "initdb falló") }
        let opciones = Self.opciones(carpeta)
        guard
            comoPostgres(
                bin + "/pg_ctl",
                ["-D", datos, "-o", opciones, "-l", carpeta + "/log", "-w", "start"])
                == 0
        else { throw FalloDeServidor(motivo: "pg_ctl start falló (mira \(carpeta)/log)") }
        leerPid()
    }

    /// `postgresql://…` for the server's own `postgres` database.
    public var urlDeAdministracion: String { url(base: "postgres") }

    public func url(base: String) -> String {
        "postgresql://postgres@/\(base)?host=\(carpeta)"
    }

    /// A new, empty database for one test; its URL.
    public func baseNueva() async throws -> String {
        let nombre =
            "prueba_"
            + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(
                of: "-", with: "")
        let administracion = urlDeAdministracion
        let codigo = try await fueraDelPool {
            Self.correr(
                Self.binarios()! + "/psql",
                ["-q", "-d", administracion, "-c", "CREATE DATABASE \(nombre)"])
        }
        guard codigo == 0 else {
            throw FalloDeServidor(motivo: "no se pudo crear la base \(nombre)")
        }
        return url(base: nombre)
    }

    /// Debian's `/usr/lib/postgresql/<version>/bin`, the newest one.
    static func binarios() -> String? {
        let raiz = "/usr/lib/postgresql"
        let versiones = ((try? FileManager.default.contentsOfDirectory(atPath: raiz)) ?? [])
            .compactMap(Int.init).sorted()
        guard let version = versiones.last else { return nil }
        let bin = "\(raiz)/\(version)/bin"
        return FileManager.default.isExecutableFile(atPath: bin + "/pg_ctl") ? bin : nil
    }

    /// Runs a program to its end, its output thrown away; its exit status. posix_spawn and
    /// waitpid rather than Foundation's Process: `pg_ctl start` leaves a daemon behind, and
    /// this runs inside a lazy static initializer, where waiting must not need a run loop.
    @discardableResult
    static func correr(_ programa: String, _ argumentos: [String]) -> Int32 {
        var acciones = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&acciones)
        defer { posix_spawn_file_actions_destroy(&acciones) }
        posix_spawn_file_actions_addopen(&acciones, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&acciones, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&acciones, 2, "/dev/null", O_WRONLY, 0)
        DescriptoresHeredados.cerrar(en: &acciones)
        // `env -C /`: the postgres user may not be allowed into the tests' working folder.
        let argv: [UnsafeMutablePointer<CChar>?] =
            (["/usr/bin/env", "-C", "/", programa] + argumentos).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/usr/bin/env", &acciones, nil, argv, environ) == 0 else {
            return -1
        }
        var estado: Int32 = 0
        while waitpid(pid, &estado, 0) < 0 && errno == EINTR {}
        return (estado & 0x7f) == 0 ? (estado >> 8) & 0xff : 128 + (estado & 0x7f)
    }

    /// At exit: an immediate shutdown (SIGQUIT to the postmaster), nothing left running.
    private static func pararAlSalir() {
        guard let servidor = compartidoYa.withLock({ $0 }),
            let pid = pidDelServidor.withLock({ $0 })
        else { return }
        kill(pid, SIGQUIT)
        // The postmaster is not our child (pg_ctl daemonised it): wait until it is gone, up to
        // two seconds, so that its folder can go too.
        for _ in 0..<200 where kill(pid, 0) == 0 { usleep(10_000) }
        try? FileManager.default.removeItem(atPath: servidor.carpeta)
    }
}
