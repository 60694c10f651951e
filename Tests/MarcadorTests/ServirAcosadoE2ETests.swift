import ApoyoDePruebas
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `marcador servir` against what anyone reaching its port can do (issue 41): more connections
/// than it has descriptors for (it spun at half a core and wrote 2 million identical lines),
/// clients that send their headers a byte a second (never cut), a malformed request (its 400
/// had none of the security headers). Serialized: each test holds hundreds of sockets.
@Suite("servir acosado (binario)", .serialized)
struct ServirAcosadoE2ETests {
    /// Opens `n` connections to `puerto` that send nothing (or `inicio`, if given).
    static func abrir(_ n: Int, puerto: Int, enviando inicio: String? = nil) -> [Int32] {
        (0..<n).compactMap { _ in
            // Close-on-exec: the processes other tests start meanwhile must not inherit (and
            // hold open) the flood's connections.
            let socket = Glibc.socket(
                AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard socket >= 0 else { return nil }
            var direccion = sockaddr_in()
            direccion.sin_family = sa_family_t(AF_INET)
            direccion.sin_port = in_port_t(UInt16(puerto).bigEndian)
            direccion.sin_addr.s_addr = inet_addr("127.0.0.1")
            let conectado = withUnsafePointer(to: &direccion) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard conectado == 0 else {
                Glibc.close(socket)
                return nil
            }
            if let inicio { _ = inicio.withCString { send(socket, $0, strlen($0), 0) } }
            return socket
        }
    }

    /// CPU seconds (user + system) the process has used.
    static func cpu(_ pid: pid_t) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let cierre = stat.lastIndex(of: ")")
        else { return 0 }
        let campos = stat[stat.index(after: cierre)...].split(separator: " ")
        // Fields 14 and 15 of stat(5), counted after the command's closing parenthesis.
        let ticks = (Double(campos[11]) ?? 0) + (Double(campos[12]) ?? 0)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static var hayPrlimit: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit") }

    /// Its descriptor limit lowered under it (`prlimit`), then flooded past it: it stops
    /// accepting instead of spinning, says so once, and once the flood's connections are cut
    /// a normal request is answered within a second.
    @Test(.enabled(if: hayPrlimit, "falta prlimit (Debian: util-linux)"))
    func sinDescriptoresNoGiraYLoDiceUnaVez() async throws {
        let servidor = try await ServidorDePrueba()
        let pid = servidor.proceso.pid
        let abiertos = {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
        }
        // What it holds before the flood (a busy test process may have handed it descriptors
        // of other tests), and a limit 96 above that.
        let base = abiertos()
        let limite = SoloLectura.sh("prlimit --pid \(pid) --nofile=\(base + 96):\(base + 96)")
        try #require(limite == 0, "prlimit no pudo bajar el límite")
        let antes = Self.cpu(pid)
        let inicio = ContinuousClock.now
        var inundacion = Self.abrir(400, puerto: servidor.puerto)
        // A flood that keeps coming for three seconds: every connect it can make.
        while ContinuousClock.now - inicio < .seconds(3) {
            inundacion += Self.abrir(20, puerto: servidor.puerto)
            try await Task.sleep(for: .milliseconds(100))
        }
        let usado = Self.cpu(pid) - antes
        let transcurrido = Double((ContinuousClock.now - inicio).components.seconds)
        // It spun at 42–54 % of a core; waiting for descriptors costs nearly nothing.
        #expect(usado / transcurrido < 0.15, "\(usado) s de CPU en \(transcurrido) s")
        let avisos = servidor.proceso.todas.map(\.texto).filter {
            $0.contains("no se aceptan más") || $0.contains("no se pueden aceptar")
        }
        #expect(!avisos.isEmpty)
        #expect(avisos.count <= 2, "\(avisos)")
        #expect(!servidor.proceso.todas.contains { $0.texto.contains("[warn]") })
        for socket in inundacion { Glibc.close(socket) }
        // Once the server has cut the flood's connections (its descriptors say so)…
        #expect(
            await esperarQue(limite: .seconds(30)) { abiertos() <= base + 4 },
            "\(abiertos()) abiertos; antes \(base)")
        // (A server that died would pass that wait: its descriptors read as none.)
        try #require(
            kill(pid, 0) == 0,
            "el servidor murió: \(servidor.proceso.todas.map(\.texto).joined(separator: "\n"))")
        // …a normal request is answered within a second.
        let reloj = ContinuousClock.now
        let respuesta: ClienteDePrueba.Respuesta
        do {
            respuesta = try ClienteDePrueba.pedir(
                puerto: servidor.puerto, "GET", "/api/partidos", limite: 1)
        } catch {
            let salida = servidor.proceso.todas.map(\.texto).suffix(20).joined(separator: "\n")
            Issue.record(
                "\(error); \(abiertos()) abiertos (antes \(base)); el servidor dijo:\n\(salida)")
            throw error
        }
        #expect(respuesta.estado == 200)
        #expect(ContinuousClock.now - reloj < .seconds(1))
        await servidor.parar()
    }

    /// Five hundred clients sending their head a byte a second: each is cut within the header
    /// deadline (10 s, swept every quarter second), and the server answers others meanwhile.
    @Test func losClientesLentosSeCortanEnElPlazo() async throws {
        let servidor = try await ServidorDePrueba()
        let lentos = Self.abrir(500, puerto: servidor.puerto, enviando: "GET / HTTP/1.1\r\nX-A: ")
        #expect(lentos.count == 500)
        for socket in lentos {
            _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        }
        var abiertos = Set(lentos)
        var cortados: [ContinuousClock.Duration] = []
        let inicio = ContinuousClock.now
        var respondio = false
        while !abiertos.isEmpty && ContinuousClock.now - inicio < .seconds(14) {
            for socket in abiertos {
                var byte: UInt8 = 0
                let leido = recv(socket, &byte, 1, 0)
                let cerrado = leido == 0 || (leido < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
                if cerrado || send(socket, "a", 1, Int32(MSG_NOSIGNAL)) < 0 {
                    abiertos.remove(socket)
                    cortados.append(ContinuousClock.now - inicio)
                }
            }
            if !respondio {
                respondio = (try? servidor.get("/api/partidos").estado) == 200
            }
            try await Task.sleep(for: .seconds(1))
        }
        #expect(abiertos.isEmpty, "\(abiertos.count) de 500 siguen abiertos tras 14 s")
        #expect(cortados.allSatisfy { $0 >= .seconds(9) }, "cortado antes del plazo")
        #expect(respondio)
        for socket in lentos { Glibc.close(socket) }
        await servidor.parar()
    }

    /// What the server refuses by itself — a malformed head, a head too large, a transfer
    /// coding, another version — carries every security header and a Spanish page (issue 41:
    /// libevent's own 400 had no Content-Security-Policy).
    @Test(arguments: [
        ("GARBAGE\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nsin dos puntos\r\n\r\n", 400),
        (
            "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: " + String(repeating: "a", count: 20_000)
                + "\r\n\r\n", 431
        ),
        ("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n", 501),
        ("GET / HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n", 505),
        ("GET /\u{1}x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400),
    ])
    func loQueElServidorRechazaLlevaLasCabeceras(peticion: String, estado: Int) async throws {
        let servidor = try await ServidorDePrueba()
        let respuesta = try ClienteDePrueba.pedirEnBruto(
            puerto: servidor.puerto, Data(peticion.utf8))
        #expect(respuesta.estado == estado)
        #expect(
            respuesta.cabeceras["content-security-policy"]?.hasPrefix("default-src 'self'")
                == true)
        #expect(respuesta.cabeceras["x-content-type-options"] == "nosniff")
        #expect(respuesta.cabeceras["connection"] == "close")
        #expect(respuesta.texto.contains("lang=\"es\""))
        await servidor.parar()
    }
}
