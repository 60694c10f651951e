import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A task executor on threads of its own, for work whose code may block: the dispatcher's
/// lanes call the store synchronously (SQLite waiting on its busy timeout, a round trip to
/// PostgreSQL, a log line written). Tasks started with this executor as their preference —
/// and every child task they make — run here, so a lane waiting on the store never holds a
/// thread of the cooperative pool, which on Linux has one thread per core.
///
/// See https://github.com/swiftlang/swift-evolution/blob/main/proposals/0417-task-executor-preference.md
public final class EjecutorDedicado: TaskExecutor, Sendable {
    private let pendientes = Mutex<[UnownedJob]>([])
    private let hayTrabajo = DispatchSemaphore(value: 0)

    /// The one every dispatcher of this process uses.
    public static let deLaTienda = EjecutorDedicado(nombre: "marcador-tienda", hilos: 4)

    /// The name its threads carry (what `top -H` and `ps -L` show).
    public let nombre: String

    /// - Parameters:
    ///   - nombre: up to 15 bytes (the kernel's limit for a thread's name).
    ///   - hilos: how many jobs may block at once before others wait their turn.
    public init(nombre: String, hilos: Int) {
        self.nombre = nombre
        for _ in 0..<max(1, hilos) {
            Hilo.lanzar(pila: 1 << 20) { [self] in
                NombreDeHilo.poner(nombre)
                trabajar()
            }
        }
    }

    /// The name of the thread running now (to check where work runs).
    public static var hiloActual: String { NombreDeHilo.actual }

    public func enqueue(_ job: consuming ExecutorJob) {
        let trabajo = UnownedJob(job)
        pendientes.withLock { $0.append(trabajo) }
        hayTrabajo.signal()
    }

    private func trabajar() {
        while true {
            hayTrabajo.wait()
            guard let trabajo = pendientes.withLock({ $0.isEmpty ? nil : $0.removeFirst() })
            else { continue }
            trabajo.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Threads' names (glibc's `pthread_setname_np`, a GNU extension Swift's Glibc module does not
/// declare, looked up once by name).
enum NombreDeHilo {
    private typealias Poner = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32
    private typealias Leer = @convention(c) (pthread_t, UnsafeMutablePointer<CChar>, Int) -> Int32

    private static let poner: Poner? = simbolo("pthread_setname_np")
    private static let leer: Leer? = simbolo("pthread_getname_np")

    private static func simbolo<T>(_ nombre: String) -> T? {
        guard let puntero = dlsym(dlopen(nil, RTLD_NOW), nombre) else { return nil }
        return unsafeBitCast(puntero, to: T.self)
    }

    /// Names the calling thread (the kernel keeps 15 bytes).
    static func poner(_ nombre: String) {
        let corto = String(decoding: nombre.utf8.prefix(15), as: UTF8.self)
        _ = poner?(pthread_self(), corto)
    }

    static var actual: String {
        var buffer = [CChar](repeating: 0, count: 32)
        guard leer?(pthread_self(), &buffer, buffer.count) == 0 else { return "" }
        return String(
            decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
