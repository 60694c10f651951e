#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A process that owns a run: its pid and its start time, which together survive pid reuse.
public struct Propietario: Sendable, Hashable {
    public let pid: Int
    /// Clock ticks since boot when the process started (`/proc/<pid>/stat`, field 22); 0 where
    /// there is no `/proc`, and then only the pid is compared.
    public let inicio: Int

    public init(pid: Int, inicio: Int) {
        self.pid = pid
        self.inicio = inicio
    }

    public static let actual = Propietario(
        pid: Int(getpid()), inicio: inicioDelProceso(Int(getpid())) ?? 0)

    /// Whether this exact process still runs (a zombie counts as gone).
    public var estaVivo: Bool {
        guard pid > 0 else { return false }
        if kill(pid_t(pid), 0) != 0 && errno != EPERM { return false }
        guard let leido = Self.leerStat(pid) else { return inicio == 0 }
        if leido.estado == "Z" || leido.estado == "X" { return false }
        return inicio == 0 || leido.inicio == inicio
    }

    static func inicioDelProceso(_ pid: Int) -> Int? { leerStat(pid)?.inicio }

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
}
