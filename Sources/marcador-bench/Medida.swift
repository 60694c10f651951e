import Foundation

/// One figure of the table: repeated timings of the thing and of its baseline.
struct Medida: Encodable {
    var nombre: String
    var unidad: String
    var valores: [Double]
    var base: String?
    var valoresBase: [Double]?
    /// When the figure is a throughput, higher is better and the ratio is inverted in meaning.
    var mayorEsMejor = false

    static func mediana(_ v: [Double]) -> Double {
        let o = v.sorted()
        guard !o.isEmpty else { return .nan }
        return o.count % 2 == 1 ? o[o.count / 2] : (o[o.count / 2 - 1] + o[o.count / 2]) / 2
    }

    var mediana: Double { Self.mediana(valores) }
    var minimo: Double { valores.min() ?? .nan }
    var maximo: Double { valores.max() ?? .nan }
    /// The 99th percentile by nearest rank (with 20 values, the largest).
    var p99: Double {
        let o = valores.sorted()
        guard !o.isEmpty else { return .nan }
        return o[min(o.count - 1, Int((0.99 * Double(o.count)).rounded(.up)) - 1)]
    }
    var medianaBase: Double? { valoresBase.map(Self.mediana) }
    /// Ours over the baseline's median (for a throughput, baseline over ours): how many times
    /// more it costs than the baseline.
    var ratio: Double? {
        guard let base = medianaBase, base > 0, mediana > 0 else { return nil }
        return mayorEsMejor ? base / mediana : mediana / base
    }

    enum CodingKeys: String, CodingKey {
        case nombre, unidad, valores, base, valoresBase, mayorEsMejor, mediana, minimo, maximo, p99,
            medianaBase, ratio
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(nombre, forKey: .nombre)
        try c.encode(unidad, forKey: .unidad)
        try c.encode(valores, forKey: .valores)
        try c.encodeIfPresent(base, forKey: .base)
        try c.encodeIfPresent(valoresBase, forKey: .valoresBase)
        try c.encode(mayorEsMejor, forKey: .mayorEsMejor)
        try c.encode(mediana, forKey: .mediana)
        try c.encode(minimo, forKey: .minimo)
        try c.encode(maximo, forKey: .maximo)
        try c.encode(p99, forKey: .p99)
        try c.encodeIfPresent(medianaBase, forKey: .medianaBase)
        try c.encodeIfPresent(ratio, forKey: .ratio)
    }
}

/// Seconds a block takes on the monotonic clock.
@MainActor
func cronometrar(_ bloque: () async throws -> Void) async rethrows -> Double {
    let inicio = ContinuousClock.now
    try await bloque()
    let d = ContinuousClock.now - inicio
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

/// Runs a program to completion; returns wall seconds and peak resident memory in KB.
func lanzar(
    _ programa: String, _ argumentos: [String], entorno: [String: String] = [:],
    senalTras: Double? = nil
)
    -> (segundos: Double, rssKB: Int, codigo: Int32)
{
    var acciones = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&acciones)
    posix_spawn_file_actions_addopen(&acciones, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&acciones, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&acciones, 2, "/dev/null", O_WRONLY, 0)
    defer { posix_spawn_file_actions_destroy(&acciones) }
    let argv: [UnsafeMutablePointer<CChar>?] = ([programa] + argumentos).map { strdup($0) } + [nil]
    var env = ProcessInfo.processInfo.environment
    env.merge(entorno) { _, b in b }
    let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        for p in argv { free(p) }
        for p in envp { free(p) }
    }
    var pid: pid_t = 0
    var atributos = posix_spawnattr_t()
    posix_spawnattr_init(&atributos)
    posix_spawnattr_setflags(&atributos, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(&atributos, 0)
    defer { posix_spawnattr_destroy(&atributos) }
    let inicio = ContinuousClock.now
    guard posix_spawnp(&pid, programa, &acciones, &atributos, argv, envp) == 0 else {
        return (.nan, 0, -1)
    }
    if let senalTras {
        usleep(useconds_t(senalTras * 1_000_000))
        // The signal goes to the whole group: through /usr/bin/time, the program gets it too.
        kill(pid, SIGINT)
        usleep(100_000)
        killpg(pid, SIGINT)
    }
    var estado: Int32 = 0
    var uso = rusage()
    wait4(pid, &estado, 0, &uso)
    let d = ContinuousClock.now - inicio
    return (
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18, uso.ru_maxrss,
        (estado >> 8) & 0xff
    )
}

/// Peak resident memory (KB) of a program, measured by `/usr/bin/time`: Linux carries the
/// parent's high-water mark into a child across exec, so the bench cannot spawn the program
/// itself and trust `ru_maxrss`; `time` is small, so what it reports is the program's own.
func memoriaPico(_ programa: String, _ argumentos: [String], senalTras: Double? = nil) -> Int {
    let informe = NSTemporaryDirectory() + "marcador-bench-rss-\(getpid())"
    defer { unlink(informe) }
    _ = lanzar(
        "/usr/bin/time", ["-f", "%M", "-o", informe, programa] + argumentos, senalTras: senalTras)
    let texto = (try? String(contentsOfFile: informe, encoding: .utf8)) ?? ""
    return Int(texto.split(separator: "\n").last(where: { Int($0) != nil }) ?? "") ?? 0
}
