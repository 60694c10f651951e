import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Propietario {
    /// This process.
    public static let actual: Propietario = {
        let pid = Int(getpid())
        return Propietario(
            anfitrion: nombreDelAnfitrion(), pid: pid, inicio: inicioDelProceso(pid) ?? 0)
    }()

    /// Whether this exact process still runs on this host (a zombie counts as gone). A process
    /// of another host cannot be asked: the caller judges it by its heartbeat instead.
    public var estaVivo: Bool {
        guard pid > 0 else { return false }
        if !anfitrion.isEmpty && anfitrion != Propietario.actual.anfitrion { return true }
        if kill(pid_t(pid), 0) != 0 && errno != EPERM { return false }
        guard let leido = Self.leerStat(pid) else { return inicio == 0 }
        if leido.estado == "Z" || leido.estado == "X" { return false }
        return inicio == 0 || leido.inicio == inicio
    }

    /// Whether the owner of a run still plays it: the operating system says so on this host;
    /// on another (a shared PostgreSQL store) only the heartbeat can, which a living owner
    /// writes with every minute it plays: older than three minutes of play (and 30 s), it is
    /// gone and the run is «Interrumpido».
    public func sigueVivo(latidoHace segundos: Double?, msPorMinuto: Int) -> Bool {
        if esDeEsteAnfitrion { return estaVivo }
        guard let segundos else { return false }
        return segundos <= Swift.max(30, 3 * Double(msPorMinuto) / 1000)
    }

    /// The holder a lease names (`Arrendatario.texto`) when it is observably gone: a process of
    /// this host that no longer exists, or — where the store can say which processes are
    /// connected to it (`sesiones`, PostgreSQL's sessions by `nombreDeSesion`) — a process of
    /// another host with no session left. `nil` for a living holder, one of another host the
    /// store cannot vouch for (its lease decides), or a name that says no process.
    public static func huerfano(_ texto: String, sesiones: Set<String>? = nil) -> Propietario? {
        guard let quien = Arrendatario(texto: texto) else { return nil }
        let propietario = quien.propietario
        if propietario.esDeEsteAnfitrion { return propietario.estaVivo ? nil : propietario }
        guard let sesiones, !sesiones.contains(propietario.nombreDeSesion) else { return nil }
        return propietario
    }

    /// What this process calls its connections to a shared store (PostgreSQL's
    /// `application_name`): `marcador <pid> <inicio> <anfitrion>`, cut to the 63 bytes the
    /// server keeps, so any process can tell from the server whether a holder of another host
    /// still has a session open.
    public var nombreDeSesion: String {
        var nombre = "marcador \(pid) \(inicio) \(anfitrion)"
        while nombre.utf8.count > 63 { nombre.removeLast() }
        return nombre
    }

    /// Whether this process runs on this host (so signals reach it).
    public var esDeEsteAnfitrion: Bool {
        anfitrion.isEmpty || anfitrion == Propietario.actual.anfitrion
    }

    static func inicioDelProceso(_ pid: Int) -> Int? { leerStat(pid)?.inicio }

    static func nombreDelAnfitrion() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "" }
        return String(
            decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Reads state and start time from `/proc/<pid>/stat`. The command name (field 2) may hold
    /// spaces and parentheses, so fields are counted from the last `)`.
    private static func leerStat(_ pid: Int) -> (estado: Character, inicio: Int)? {
        guard let fichero = fopen("/proc/\(pid)/stat", "r") else { return nil }
        defer { fclose(fichero) }
        var buffer = [CChar](repeating: 0, count: 1024)
        guard fgets(&buffer, Int32(buffer.count), fichero) != nil else { return nil }
        let linea = String(
            decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let cierre = linea.lastIndex(of: ")") else { return nil }
        let campos = linea[linea.index(after: cierre)...].split(separator: " ")
        // After ")": field 3 (state) is campos[0], so field 22 (starttime) is campos[19].
        guard campos.count > 19, let estado = campos[0].first, let inicio = Int(campos[19]) else {
            return nil
        }
        return (estado, inicio)
    }

    /// Wakes the process with SIGUSR1 (it then reads why from the store). Only for this host.
    public func despertar() {
        guard esDeEsteAnfitrion, pid > 0 else { return }
        kill(pid_t(pid), SIGUSR1)
    }
}

/// Wall-clock time as unix seconds with a fraction: what the outbox stores for creation,
/// retries, leases and time-to-live, comparable across processes.
public func segundosUnix() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
}
