import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A real HTTP/1.1 server on 127.0.0.1 for the webhook and attachment tests: records every
/// request and answers with scripted responses (delays to play a server that hangs, bodies,
/// and long streamed bodies to test size limits).
public final class ReceptorHTTP: Sendable {
    public struct Peticion: Sendable {
        public var metodo: String
        public var ruta: String
        public var cabeceras: [String: String]
        public var cuerpo: Data
        /// When its headers and body were read.
        public var llegada: Date
    }

    public struct Respuesta: Sendable {
        public var codigo: Int
        public var espera: Double = 0
        public var cabeceras: [String: String] = [:]
        public var cuerpo = Data()
        /// Zero bytes streamed after `cuerpo`, in 64 KB writes, until the client hangs up.
        public var relleno = 0
        /// Held until the test calls `soltar()`: the client waits on it as long as the test
        /// needs, whatever the machine's load.
        public var retenida = false

        public init(
            codigo: Int, espera: Double = 0, cabeceras: [String: String] = [:],
            cuerpo: Data = Data(),
            relleno: Int = 0, retenida: Bool = false
        ) {
            self.codigo = codigo
            self.retenida = retenida
            self.espera = espera
            self.cabeceras = cabeceras
            self.cuerpo = cuerpo
            self.relleno = relleno
        }
    }

    public let puerto: Int
    /// Responses by path, for servers that serve files rather than a script.
    private let rutas: Mutex<[String: Respuesta]>
    private let enviados = Mutex<[String: Int]>([:])
    /// Answers over (written whole, or cut because the client hung up), by path.
    private let acabadas = Mutex<[String: Int]>([:])
    private let socket: Int32
    private let recibidas = Mutex<[Peticion]>([])
    private let guion: Mutex<[Respuesta]>
    private let porDefecto: Mutex<Respuesta>
    private let cerrado = Mutex(false)
    private let suelto = Mutex(false)

    public init(
        guion: [Respuesta] = [], porDefecto: Respuesta = Respuesta(codigo: 200),
        rutas: [String: Respuesta] = [:]
    ) throws {
        self.guion = Mutex(guion)
        self.rutas = Mutex(rutas)
        self.porDefecto = Mutex(porDefecto)
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socket = socket
        var uno: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &uno, socklen_t(MemoryLayout<Int32>.size))
        var direccion = sockaddr_in()
        direccion.sin_family = sa_family_t(AF_INET)
        direccion.sin_addr.s_addr = inet_addr("127.0.0.1")
        direccion.sin_port = 0
        let enlazado = withUnsafePointer(to: &direccion) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard enlazado == 0, listen(socket, 64) == 0 else { throw CocoaError(.fileWriteUnknown) }
        var longitud = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &direccion) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(socket, $0, &longitud)
            }
        }
        puerto = Int(UInt16(bigEndian: direccion.sin_port))
        let hilo = Thread { [self] in aceptar() }
        hilo.start()
    }

    public var url: String { "http://127.0.0.1:\(puerto)/gol" }
    public func url(_ ruta: String) -> String { "http://127.0.0.1:\(puerto)\(ruta)" }
    public var peticiones: [Peticion] { recibidas.withLock { $0 } }
    /// Body bytes written for each path.
    public func bytesEnviados(_ ruta: String) -> Int { enviados.withLock { $0[ruta] ?? 0 } }

    /// Waits until an answer to `ruta` is over: written whole, or cut short because the
    /// client hung up. `false` after `limite` seconds.
    public func esperarFinDeRespuesta(_ ruta: String, limite: Double = 20) async -> Bool {
        await sondearQue(limite: .seconds(limite)) { acabadas.withLock { ($0[ruta] ?? 0) > 0 } }
    }

    /// From now on, once the script is over, every request gets `respuesta`: a feed whose
    /// state the test moves on when it is ready, however many polls come meanwhile.
    public func fijar(_ respuesta: Respuesta) { porDefecto.withLock { $0 = respuesta } }
    /// What `ruta` answers from now on (the others keep the script or the default).
    public func fijar(_ respuesta: Respuesta, en ruta: String) {
        rutas.withLock { $0[ruta] = respuesta }
    }

    /// Lets the held responses (`retenida`) go.
    public func soltar() { suelto.withLock { $0 = true } }

    public func cerrar() {
        soltar()
        cerrado.withLock { $0 = true }
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }

    /// Waits until `n` requests arrived (or `limite` seconds pass).
    public func esperar(_ n: Int, limite: Double = 20) async -> Bool {
        await sondearQue(limite: .seconds(limite)) { peticiones.count >= n }
    }

    private func aceptar() {
        while !cerrado.withLock({ $0 }) {
            let cliente = accept(socket, nil, nil)
            if cliente < 0 { return }
            Thread { [self] in atender(cliente) }.start()
        }
    }

    /// Serves one connection: requests one after another while the client keeps it open
    /// (HTTP/1.1 keep-alive, as libcurl does), each answered from the script.
    private func atender(_ cliente: Int32) {
        defer { close(cliente) }
        var pendiente = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        func leerMas() -> Bool {
            let n = read(cliente, &buffer, buffer.count)
            if n <= 0 { return false }
            pendiente.append(contentsOf: buffer[0..<n])
            return true
        }
        while true {
            var finDeCabeceras = pendiente.range(of: Data("\r\n\r\n".utf8))
            while finDeCabeceras == nil {
                guard leerMas() else { return }
                finDeCabeceras = pendiente.range(of: Data("\r\n\r\n".utf8))
            }
            let fin = finDeCabeceras!
            let cabecera = String(decoding: pendiente[..<fin.lowerBound], as: UTF8.self)
            var lineas = cabecera.components(separatedBy: "\r\n")
            let primera = lineas.removeFirst().split(separator: " ")
            var cabeceras: [String: String] = [:]
            for linea in lineas {
                guard let dos = linea.firstIndex(of: ":") else { continue }
                cabeceras[linea[..<dos].lowercased()] = linea[linea.index(after: dos)...]
                    .trimmingCharacters(in: .whitespaces)
            }
            let longitud = Int(cabeceras["content-length"] ?? "0") ?? 0
            while pendiente.count - fin.upperBound < longitud {
                guard leerMas() else { break }
            }
            let finDelCuerpo = min(pendiente.count, fin.upperBound + longitud)
            let cuerpo = Data(pendiente[fin.upperBound..<finDelCuerpo])
            pendiente = Data(pendiente[finDelCuerpo...])
            let ruta = String(primera.dropFirst().first ?? "")
            recibidas.withLock {
                $0.append(
                    Peticion(
                        metodo: String(primera.first ?? ""), ruta: ruta, cabeceras: cabeceras,
                        cuerpo: cuerpo, llegada: Date()))
            }
            let seguir =
                primera.last == "HTTP/1.1" && cabeceras["connection"]?.lowercased() != "close"
            guard responder(cliente, ruta: ruta, seguir: seguir), seguir else { return }
        }
    }

    private func responder(_ cliente: Int32, ruta: String, seguir: Bool) -> Bool {
        defer { acabadas.withLock { $0[ruta, default: 0] += 1 } }
        let respuesta =
            rutas.withLock { $0[ruta] }
            ?? guion.withLock { $0.isEmpty ? porDefecto.withLock { $0 } : $0.removeFirst() }
        while respuesta.retenida && !suelto.withLock({ $0 }) { usleep(2_000) }
        if respuesta.espera > 0 { usleep(useconds_t(respuesta.espera * 1_000_000)) }
        let total = respuesta.cuerpo.count + respuesta.relleno
        var texto =
            "HTTP/1.1 \(respuesta.codigo) X\r\nContent-Length: \(total)\r\n"
            + "Connection: \(seguir ? "keep-alive" : "close")\r\n"
        for (nombre, valor) in respuesta.cabeceras { texto += "\(nombre): \(valor)\r\n" }
        texto += "\r\n"
        guard escribir(cliente, Data(texto.utf8)), escribir(cliente, respuesta.cuerpo) else {
            return false
        }
        enviados.withLock { $0[ruta, default: 0] += respuesta.cuerpo.count }
        var restante = respuesta.relleno
        let bloque = Data(count: 65536)
        while restante > 0 {
            let parte = bloque.prefix(restante)
            guard escribir(cliente, parte) else { return false }
            enviados.withLock { $0[ruta, default: 0] += parte.count }
            restante -= parte.count
        }
        return true
    }

    private func escribir(_ cliente: Int32, _ datos: Data) -> Bool {
        datos.withUnsafeBytes { bytes in
            var hecho = 0
            while hecho < bytes.count {
                let n = send(
                    cliente, bytes.baseAddress! + hecho, bytes.count - hecho, Int32(MSG_NOSIGNAL))
                if n <= 0 { return false }
                hecho += n
            }
            return true
        }
    }
}
