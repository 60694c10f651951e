import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A plain HTTP/1.1 client on POSIX sockets for the server tests: every byte it sends is the
/// test's choice (a wrong `Host`, a missing `Origin`, a huge body), and it reads event streams
/// as they arrive, stamping each event with the instant it was read.
public enum ClienteDePrueba {
    public struct Respuesta: Sendable {
        public var estado: Int
        /// Header names in lower case.
        public var cabeceras: [String: String]
        public var cuerpo: Data

        public var texto: String { String(decoding: cuerpo, as: UTF8.self) }
        public func json() -> [String: Any]? {
            (try? JSONSerialization.jsonObject(with: cuerpo)) as? [String: Any]
        }
    }

    public enum Fallo: Error, CustomStringConvertible {
        /// The call that failed (`socket`, `connect`, `send`…) and its errno.
        case sinConexion(String, Int32)
        case respuestaRota

        /// The failing call with the errno's text: a CI log says what happened.
        public static func sinConexion(_ llamada: String) -> Fallo {
            .sinConexion(llamada, errno)
        }

        public var description: String {
            switch self {
            case .sinConexion(let llamada, let codigo):
                "sin conexión: \(llamada): \(String(cString: strerror(codigo))) (errno \(codigo))"
            case .respuestaRota: "respuesta rota"
            }
        }
    }

    /// One request on its own connection (`Connection: close`); `host` defaults to the real one.
    public static func pedir(
        puerto: Int, _ metodo: String, _ ruta: String, host: String? = nil,
        cabeceras: [String: String] = [:], cuerpo: Data = Data(), limite: Double = 10
    ) throws -> Respuesta {
        let socket = try conectar(puerto: puerto, limite: limite)
        defer { close(socket) }
        var peticion = "\(metodo) \(ruta) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(puerto)")\r\n"
        for (nombre, valor) in cabeceras { peticion += "\(nombre): \(valor)\r\n" }
        if !cuerpo.isEmpty || metodo == "POST" { peticion += "Content-Length: \(cuerpo.count)\r\n" }
        peticion += "Connection: close\r\n\r\n"
        return try enBruto(socket, Data(peticion.utf8) + cuerpo)
    }

    /// `bytes` as they are (a request no well-behaved client would write) on a new connection,
    /// and the answer read to the end.
    public static func pedirEnBruto(puerto: Int, _ bytes: Data, limite: Double = 10) throws
        -> Respuesta
    {
        let socket = try conectar(puerto: puerto, limite: limite)
        defer { close(socket) }
        return try enBruto(socket, bytes)
    }

    private static func enBruto(_ socket: Int32, _ bytes: Data) throws -> Respuesta {
        try escribir(socket, bytes)
        var recibido = Data()
        var bloque = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(socket, &bloque, bloque.count)
            if n <= 0 { break }
            recibido.append(contentsOf: bloque[..<n])
        }
        return try analizar(recibido)
    }

    /// `pedir` with a JSON body and the headers a page of the server sends.
    public static func enviar(
        puerto: Int, _ ruta: String, json: [String: Any]?, clave: String?,
        origen: String? = nil
    ) throws -> Respuesta {
        var cabeceras = ["Origin": origen ?? "http://127.0.0.1:\(puerto)"]
        if let clave { cabeceras["X-Marcador-Token"] = clave }
        var cuerpo = Data()
        if let json {
            cuerpo = try JSONSerialization.data(withJSONObject: json)
            cabeceras["Content-Type"] = "application/json"
        }
        return try pedir(puerto: puerto, "POST", ruta, cabeceras: cabeceras, cuerpo: cuerpo)
    }

    static func conectar(puerto: Int, limite: Double) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Fallo.sinConexion("socket") }
        var tiempo = timeval(tv_sec: Int(limite), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &tiempo, socklen_t(MemoryLayout<timeval>.size))
        var direccion = sockaddr_in()
        direccion.sin_family = sa_family_t(AF_INET)
        direccion.sin_port = UInt16(puerto).bigEndian
        direccion.sin_addr.s_addr = inet_addr("127.0.0.1")
        let conectado = withUnsafePointer(to: &direccion) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard conectado else {
            let fallo = Fallo.sinConexion("connect")
            close(socket)
            throw fallo
        }
        return socket
    }

    static func escribir(_ socket: Int32, _ datos: Data) throws {
        try datos.withUnsafeBytes { bytes in
            var enviados = 0
            while enviados < bytes.count {
                let n = send(socket, bytes.baseAddress! + enviados, bytes.count - enviados, 0)
                guard n > 0 else { throw Fallo.sinConexion("send") }
                enviados += n
            }
        }
    }

    static func analizar(_ datos: Data) throws -> Respuesta {
        guard let fin = datos.firstRange(of: Data("\r\n\r\n".utf8)) else {
            throw Fallo.respuestaRota
        }
        let cabecera = String(decoding: datos[..<fin.lowerBound], as: UTF8.self)
        var lineas = cabecera.components(separatedBy: "\r\n")
        let estado = Int(lineas.removeFirst().split(separator: " ").dropFirst().first ?? "") ?? 0
        var cabeceras: [String: String] = [:]
        for linea in lineas {
            guard let dos = linea.firstIndex(of: ":") else { continue }
            cabeceras[linea[..<dos].lowercased()] = linea[linea.index(after: dos)...]
                .trimmingCharacters(in: .whitespaces)
        }
        var cuerpo = Data(datos[fin.upperBound...])
        if cabeceras["transfer-encoding"]?.lowercased() == "chunked" {
            cuerpo = desfragmentar(cuerpo)
        }
        return Respuesta(estado: estado, cabeceras: cabeceras, cuerpo: cuerpo)
    }

    /// The body of a chunked transfer, as far as it arrived.
    static func desfragmentar(_ datos: Data) -> Data {
        var salida = Data()
        var resto = datos[...]
        while let linea = resto.firstRange(of: Data("\r\n".utf8)) {
            let tamano =
                Int(String(decoding: resto[..<linea.lowerBound], as: UTF8.self), radix: 16) ?? 0
            let inicio = linea.upperBound
            guard tamano > 0, resto.distance(from: inicio, to: resto.endIndex) >= tamano else {
                if tamano > 0 { salida.append(resto[inicio...]) }
                break
            }
            let fin = resto.index(inicio, offsetBy: tamano)
            salida.append(resto[inicio..<fin])
            resto =
                resto[
                    min(
                        resto.index(fin, offsetBy: 2, limitedBy: resto.endIndex) ?? resto.endIndex,
                        resto.endIndex)...]
        }
        return salida
    }
}

/// An open `GET /eventos` stream, read on a thread of its own until closed.
public final class FlujoDePrueba: Sendable {
    public struct Evento: Sendable {
        public var id: Int
        public var nombre: String
        public var datos: String
        /// When the test read it.
        public var llegada: Date

        public func json() -> [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(datos.utf8))) as? [String: Any]
        }
    }

    private let socket: Int32
    private let estado = Mutex<(eventos: [Evento], cabecera: String?, cerrado: Bool)>(
        ([], nil, false))

    /// Opens the stream; `ultimo` is sent as `Last-Event-ID`, `desde` as `?desde=`, `cookie`
    /// as the `Cookie` header (a session of a server with `--token`).
    public init(puerto: Int, ultimo: Int? = nil, desde: Int? = nil, cookie: String? = nil) throws {
        socket = try ClienteDePrueba.conectar(puerto: puerto, limite: 30)
        var peticion = "GET /eventos\(desde.map { "?desde=\($0)" } ?? "") HTTP/1.1\r\n"
        peticion += "Host: 127.0.0.1:\(puerto)\r\nAccept: text/event-stream\r\n"
        if let ultimo { peticion += "Last-Event-ID: \(ultimo)\r\n" }
        if let cookie { peticion += "Cookie: \(cookie)\r\n" }
        peticion += "\r\n"
        try ClienteDePrueba.escribir(socket, Data(peticion.utf8))
        let socket = self.socket
        Thread.detachNewThread { [self] in self.leer(socket) }
    }

    private func leer(_ socket: Int32) {
        var crudo = Data()
        var bloque = [UInt8](repeating: 0, count: 65_536)
        var cabeceraLeida = false
        var pendiente = ""
        while true {
            let n = read(socket, &bloque, bloque.count)
            if n <= 0 { break }
            crudo.append(contentsOf: bloque[..<n])
            if !cabeceraLeida {
                guard let fin = crudo.firstRange(of: Data("\r\n\r\n".utf8)) else { continue }
                let cabecera = String(decoding: crudo[..<fin.lowerBound], as: UTF8.self)
                estado.withLock { $0.cabecera = cabecera }
                crudo = Data(crudo[fin.upperBound...])
                cabeceraLeida = true
            }
            // Chunk framing: take whole chunks, keep the rest for the next read.
            var resto = crudo[...]
            while let linea = resto.firstRange(of: Data("\r\n".utf8)),
                let tamano = Int(
                    String(decoding: resto[..<linea.lowerBound], as: UTF8.self), radix: 16),
                resto.distance(from: linea.upperBound, to: resto.endIndex) >= tamano + 2
            {
                let fin = resto.index(linea.upperBound, offsetBy: tamano)
                pendiente += String(decoding: resto[linea.upperBound..<fin], as: UTF8.self)
                resto = resto[resto.index(fin, offsetBy: 2)...]
            }
            crudo = Data(resto)
            let ahora = Date()
            while let separador = pendiente.range(of: "\n\n") {
                let bloqueDeTexto = String(pendiente[..<separador.lowerBound])
                pendiente = String(pendiente[separador.upperBound...])
                var id: Int?
                var nombre = "message"
                var datos: [String] = []
                for linea in bloqueDeTexto.split(separator: "\n", omittingEmptySubsequences: false)
                {
                    if linea.hasPrefix("id: ") { id = Int(linea.dropFirst(4)) }
                    if linea.hasPrefix("event: ") { nombre = String(linea.dropFirst(7)) }
                    if linea.hasPrefix("data: ") { datos.append(String(linea.dropFirst(6))) }
                }
                // An event without an id (the `hola` greeting) is kept with id -1: it does not
                // move the stream's position, but a test may still wait for it.
                if id != nil || !datos.isEmpty {
                    let evento = Evento(
                        id: id ?? -1, nombre: nombre, datos: datos.joined(separator: "\n"),
                        llegada: ahora)
                    estado.withLock { $0.eventos.append(evento) }
                }
            }
        }
        estado.withLock {
            $0.cerrado = true
            close(socket)
        }
    }

    /// The events that carry a position (an `id`), in arrival order.
    public var eventos: [Evento] { estado.withLock { $0.eventos.filter { $0.id >= 0 } } }
    /// The events sent without a position, such as the server's `hola`.
    public var sinPosicion: [Evento] { estado.withLock { $0.eventos.filter { $0.id < 0 } } }
    public var cabecera: String? { estado.withLock { $0.cabecera } }
    public var cerradoPorElServidor: Bool { estado.withLock { $0.cerrado } }

    /// Waits (polling, up to `limite` seconds) until `condicion` holds for the events so far.
    public func esperar(limite: Double = 20, _ condicion: ([Evento]) -> Bool) async -> Bool {
        await sondearQue(limite: .seconds(limite)) { condicion(eventos) }
    }

    /// Waits until the server answered with the stream's headers: from then on, every change
    /// reaches this stream.
    public func esperarAbierto(limite: Double = 20) async -> Bool {
        await sondearQue(limite: .seconds(limite)) { cabecera != nil }
    }

    /// Hangs up, and returns once the reader has read its last byte and closed the socket, so
    /// `eventos` is final.
    public func cerrar() async {
        estado.withLock { if !$0.cerrado { shutdown(socket, Int32(SHUT_RDWR)) } }
        _ = await sondearQue(limite: .seconds(3600)) { cerradoPorElServidor }
    }
}
