import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP proxy in front of a PostgreSQL server's Unix socket that can lose one COMMIT's reply
/// (architecture.md's fault): armed with a piece of SQL, it lets through the COMMIT of the first
/// transaction that ran it, waits until the server answers (so the commit happened), throws
/// the answer away and cuts the connection. The client is left not knowing whether its
/// transaction committed. Connect with `sslmode=disable`, so the first message is the startup.
public final class ProxyDePostgres: Sendable {
    public let puerto: Int
    private let escucha: Int32
    private let socketDelServidor: String
    private let estado = Mutex<(marca: String?, cortes: Int, cerrado: Bool)>((nil, 0, false))

    /// - Parameter servidor: the server's folder (where its socket `.s.PGSQL.5432` is).
    public init(servidor: ServidorPostgres) throws {
        socketDelServidor = servidor.carpeta + "/.s.PGSQL.5432"
        let escucha = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard escucha >= 0 else { throw ClienteDePrueba.Fallo.sinConexion("socket") }
        var direccion = sockaddr_in()
        direccion.sin_family = sa_family_t(AF_INET)
        direccion.sin_addr.s_addr = inet_addr("127.0.0.1")
        direccion.sin_port = 0
        let atado = withUnsafePointer(to: &direccion) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(escucha, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard atado == 0, listen(escucha, 64) == 0 else {
            throw ClienteDePrueba.Fallo.sinConexion("bind/listen")
        }
        var longitud = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &direccion) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(escucha, $0, &longitud)
            }
        }
        puerto = Int(UInt16(bigEndian: direccion.sin_port))
        self.escucha = escucha
        Thread.detachNewThread { [self] in aceptar() }
    }

    /// A URL to `base` through the proxy.
    public func url(base: String) -> String {
        "postgresql://postgres@127.0.0.1:\(puerto)/\(base)?sslmode=disable&gssencmode=disable"
    }

    /// The next transaction that runs `sql` (a piece of its text) loses its COMMIT's reply.
    public func cortarTrasElCommit(de sql: String) {
        estado.withLock { $0.marca = sql }
    }

    /// How many COMMIT replies were lost.
    public var cortes: Int { estado.withLock { $0.cortes } }

    public func cerrar() {
        estado.withLock { $0.cerrado = true }
        shutdown(escucha, Int32(SHUT_RDWR))
        close(escucha)
    }

    private func aceptar() {
        while !estado.withLock({ $0.cerrado }) {
            let cliente = accept(escucha, nil, nil)
            if cliente < 0 { return }
            let servidor = conectarAlServidor()
            guard servidor >= 0 else {
                close(cliente)
                continue
            }
            let conexion = Conexion(cliente: cliente, servidor: servidor)
            Thread.detachNewThread { [self] in delCliente(conexion) }
            Thread.detachNewThread { [self] in delServidor(conexion) }
        }
    }

    private func conectarAlServidor() -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var direccion = sockaddr_un()
        direccion.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &direccion.sun_path) { destino in
            let bytes = Array(socketDelServidor.utf8.prefix(destino.count - 1))
            destino.copyBytes(from: bytes)
        }
        let conectado = withUnsafePointer(to: &direccion) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if conectado != 0 {
            close(descriptor)
            return -1
        }
        return descriptor
    }

    /// One client's connection and whether the server's next answer is to be lost.
    private final class Conexion: Sendable {
        let cliente: Int32
        let servidor: Int32
        let perderRespuesta = Atomic<Bool>(false)

        init(cliente: Int32, servidor: Int32) {
            self.cliente = cliente
            self.servidor = servidor
        }

        func cortar() {
            shutdown(cliente, Int32(SHUT_RDWR))
            shutdown(servidor, Int32(SHUT_RDWR))
        }
    }

    /// Client to server, message by message (the startup first, untyped; then type byte and
    /// length), watching for the armed SQL and the COMMIT after it.
    private func delCliente(_ conexion: Conexion) {
        defer { conexion.cortar() }
        var pendiente: [UInt8] = []
        var arrancado = false
        var marcaVista = false
        var bloque = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(conexion.cliente, &bloque, bloque.count)
            if n <= 0 { return }
            pendiente += bloque[..<n]
            while true {
                let cabecera = arrancado ? 5 : 4
                guard pendiente.count >= cabecera else { break }
                let inicio = arrancado ? 1 : 0
                let longitud = pendiente[inicio..<inicio + 4].reduce(0) { $0 << 8 | Int($1) }
                let total = inicio + longitud
                guard pendiente.count >= total else { break }
                let mensaje = Array(pendiente[..<total])
                pendiente.removeFirst(total)
                if arrancado, mensaje[0] == UInt8(ascii: "P") || mensaje[0] == UInt8(ascii: "Q") {
                    let texto = String(decoding: mensaje[5...], as: UTF8.self)
                    let marca = estado.withLock { $0.marca }
                    if let marca, texto.contains(marca) { marcaVista = true }
                    if marcaVista, mensaje[0] == UInt8(ascii: "Q"), texto.contains("COMMIT") {
                        let propia = estado.withLock { estado -> Bool in
                            guard estado.marca != nil else { return false }
                            estado.marca = nil
                            estado.cortes += 1
                            return true
                        }
                        if propia { conexion.perderRespuesta.store(true, ordering: .releasing) }
                        marcaVista = false
                    }
                }
                arrancado = true
                guard escribir(conexion.servidor, mensaje) else { return }
            }
        }
    }

    /// Server to client; once the lost COMMIT's answer comes, it is dropped and both ends cut.
    private func delServidor(_ conexion: Conexion) {
        defer { conexion.cortar() }
        var bloque = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(conexion.servidor, &bloque, bloque.count)
            if n <= 0 { return }
            if conexion.perderRespuesta.load(ordering: .acquiring) { return }
            guard escribir(conexion.cliente, Array(bloque[..<n])) else { return }
        }
    }

    private func escribir(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var hecho = 0
        while hecho < bytes.count {
            let n = bytes[hecho...].withUnsafeBytes {
                send(descriptor, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { return false }
            hecho += n
        }
        return true
    }
}
