import ApoyoDePruebas
import Foundation
import Testing

/// The built `marcador` binary, run as a user would: real process, real files, real signals.
struct Binario {
    /// `.build/<triple>/debug/marcador`, next to the test bundle.
    static let ruta: String = {
        let propio =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: propio).deletingLastPathComponent().appendingPathComponent(
            "marcador"
        ).path
    }()
}

/// What a finished run printed and returned.
struct Resultado {
    var codigo: Int32
    var salida: String
    var error: String
    /// Killed by a signal rather than exiting.
    var senal: Int32?
}

/// One `marcador` process with its output captured in files (pipes could fill up and block it).
final class Proceso {
    let proceso = Process()
    let carpeta: String
    let salidaRuta: String
    let errorRuta: String

    init(
        _ argumentos: [String], entorno extra: [String: String] = [:], carpeta: String,
        entrada: String? = nil, ejecutable: String = Binario.ruta
    ) throws {
        self.carpeta = carpeta
        let id = UUID().uuidString
        salidaRuta = carpeta + "/salida-\(id).txt"
        errorRuta = carpeta + "/error-\(id).txt"
        _ = FileManager.default.createFile(atPath: salidaRuta, contents: nil)
        _ = FileManager.default.createFile(atPath: errorRuta, contents: nil)
        proceso.executableURL = URL(fileURLWithPath: ejecutable)
        proceso.arguments = argumentos
        var entorno = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": carpeta,
            "LANG": "C.UTF-8",
        ]
        entorno.merge(extra) { _, nuevo in nuevo }
        proceso.environment = entorno
        let salida = FileHandle(forWritingAtPath: salidaRuta)
        let error = FileHandle(forWritingAtPath: errorRuta)
        let entradaRuta: String
        if let entrada {
            entradaRuta = carpeta + "/entrada-\(id).txt"
            _ = FileManager.default.createFile(atPath: entradaRuta, contents: Data(entrada.utf8))
        } else {
            entradaRuta = "/dev/null"
        }
        let lectura = FileHandle(forReadingAtPath: entradaRuta)
        proceso.standardOutput = salida
        proceso.standardError = error
        proceso.standardInput = lectura
        // The child has its own copies once spawned. Foundation keeps the `Process` (and so
        // these handles) alive long after the child ends: left open, a whole run held 4,000
        // descriptors, and Foundation's own spawn, which lists every open descriptor to close
        // it in the child, once crashed copying that list.
        defer { for handle in [salida, error, lectura] { try? handle?.close() } }
        try proceso.run()
    }

    var pid: Int32 { proceso.processIdentifier }

    var salidaHastaAhora: String {
        (try? String(contentsOfFile: salidaRuta, encoding: .utf8)) ?? ""
    }
    var errorHastaAhora: String { (try? String(contentsOfFile: errorRuta, encoding: .utf8)) ?? "" }

    func senal(_ numero: Int32) { kill(proceso.processIdentifier, numero) }

    /// Waits for the process to end (killing it after `limite` seconds so no test hangs).
    /// Polls (`sondear`) rather than blocking: the cooperative pool has one thread per core,
    /// and a blocked thread would starve the other tests running in parallel. The exit is
    /// asked of the kernel (`waitid` without reaping, so Foundation still reaps it): with six
    /// processes started at once Foundation sometimes never noticed one had ended, and only a
    /// `waitUntilExit` spinning on the pool's thread found out, which once hung a whole run.
    func esperar(limite: Double = 60) async -> Resultado {
        var fin = await sondear(limite: .seconds(limite)) { salida() }
        if fin == nil {
            kill(proceso.processIdentifier, SIGKILL)
            fin = await sondear(limite: .seconds(30)) { salida() }
        }
        guard let (codigo, senal) = fin else {
            Issue.record("el proceso \(proceso.processIdentifier) no acabó ni con SIGKILL")
            return Resultado(
                codigo: -1, salida: salidaHastaAhora, error: errorHastaAhora, senal: SIGKILL)
        }
        return Resultado(
            codigo: codigo, salida: salidaHastaAhora, error: errorHastaAhora, senal: senal)
    }

    /// The exit status (the signal's number for a signal, as Foundation gives it) and the
    /// signal, once the child has ended; `nil` while it runs.
    private func salida() -> (Int32, Int32?)? {
        if !proceso.isRunning {
            let estado = proceso.terminationStatus
            return (estado, proceso.terminationReason == .uncaughtSignal ? estado : nil)
        }
        var info = siginfo_t()
        let pid = id_t(proceso.processIdentifier)
        guard waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0,
            info._sifields._sigchld.si_pid != 0
        else { return nil }
        let estado = info._sifields._sigchld.si_status
        return info.si_code == CLD_EXITED ? (estado, nil) : (estado, estado)
    }

    /// Polls the captured stderr (or stdout) until `texto` appears; `false` after `limite` seconds.
    func esperarTexto(_ texto: String, enSalida: Bool = false, limite: Double = 20) async -> Bool {
        let visto = { (enSalida ? self.salidaHastaAhora : self.errorHastaAhora).contains(texto) }
        _ = await sondearQue(limite: .seconds(limite)) { visto() || !proceso.isRunning }
        return visto()
    }
}

/// A temp directory with a database path, for one end-to-end test.
final class Escenario {
    let carpeta: String
    let db: String

    /// `db`: a `postgresql://` URL, or nil for a SQLite file in the scenario's folder.
    init(db: String? = nil) {
        carpeta = NSTemporaryDirectory() + "marcador-e2e-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: carpeta, withIntermediateDirectories: true)
        self.db = db ?? carpeta + "/marcador.sqlite3"
    }

    deinit { try? FileManager.default.removeItem(atPath: carpeta) }

    /// Runs `marcador --db <db> args…` to completion.
    @discardableResult
    func marcador(_ argumentos: String..., entorno: [String: String] = [:], entrada: String? = nil)
        async throws -> Resultado
    {
        try await Proceso(
            ["--db", db] + argumentos, entorno: entorno, carpeta: carpeta, entrada: entrada
        ).esperar()
    }

    /// Runs with no `--db`: the caller chooses the database through arguments or environment.
    /// `ejecutable` and `prefijo` run the binary through another program (`prefijo` are that
    /// program's own arguments, placed before the binary's).
    func marcadorSinDB(
        _ argumentos: [String], entorno: [String: String] = [:],
        ejecutable: String = Binario.ruta, prefijo: [String] = []
    ) async throws -> Resultado {
        try await Proceso(
            prefijo + argumentos, entorno: entorno, carpeta: carpeta, ejecutable: ejecutable
        ).esperar()
    }

    /// Starts `marcador --db <db> args…` and returns without waiting.
    func lanzar(_ argumentos: String..., entorno: [String: String] = [:]) throws -> Proceso {
        try Proceso(["--db", db] + argumentos, entorno: entorno, carpeta: carpeta)
    }

    func bytes(_ ruta: String) -> Data? { FileManager.default.contents(atPath: ruta) }
}

extension Resultado {
    /// No Swift runtime crash text reached the user.
    var sinTrazaDeFallo: Bool {
        !(error + salida).contains("Fatal error") && !(error + salida).contains("Stack dump")
            && !(error + salida).contains("Current stack trace") && senal == nil
    }
}

/// The rounds of a race test: how many really raced (the contenders overlapped) and how many
/// did not (one finished before the other started, as a loaded machine may order them). A
/// round that did not race is counted, never skipped in silence, and the test fails if too few
/// raced to prove anything (tests.md).
struct Carreras {
    let nombre: String
    private(set) var rondas = 0
    private(set) var compitieron = 0

    init(_ nombre: String) { self.nombre = nombre }

    mutating func anotar(compitio: Bool) {
        rondas += 1
        if compitio { compitieron += 1 }
    }

    /// Reports the count and fails below `minimo` rounds that really raced.
    func comprobar(minimo: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        print("\(nombre): \(compitieron) de \(rondas) rondas compitieron de verdad")
        #expect(
            compitieron >= minimo,
            "\(nombre): solo \(compitieron) de \(rondas) rondas compitieron (mínimo \(minimo))",
            sourceLocation: sourceLocation)
    }
}

/// Waits until `condicion` holds (a row committed, a line written), looking again every few
/// milliseconds; `false` once `limite` passes. The deadline is only a guard: nothing here
/// waits a fixed time to learn what happened (tests.md).
func esperarQue(
    limite: Duration = .seconds(20), _ condicion: () async throws -> Bool
) async rethrows -> Bool {
    try await sondearQue(limite: limite, condicion)
}
