import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process is stopping (SIGINT, SIGTERM, SIGHUP): every wait on a store watches this, so a
/// call blocked on a server that does not answer gives up within `gracia` and the process
/// still ends within 250 ms (delivery.md, §13), while a store that answers still records the
/// end (CANCELADO, leases given back).
///
/// A signal handler cannot run Swift safely, so the one who hears the signal (a dispatch
/// source) calls `activar`, which writes to a pipe that waits poll(2) on; the flag lets code
/// that does not wait ask cheaply.
public enum Interrupcion {
    private static let activada = Atomic<Bool>(false)
    /// When it was activated (`reloj()`), as bits of a Double.
    private static let momento = Atomic<UInt64>(0)
    /// The signal that started it (0 when none did).
    private static let numero = Atomic<Int32>(0)

    /// The signal the process is stopping for, if one arrived.
    public static var senal: Int32? {
        let valor = numero.load(ordering: .acquiring)
        return valor == 0 ? nil : valor
    }

    /// How long, from the moment the process starts stopping, a store may still take to
    /// answer.
    public static let gracia = 0.15

    /// The pipe's two ends: the read end becomes readable once activated, and stays so.
    private static let tubo: (leer: Int32, escribir: Int32) = {
        var extremos: [Int32] = [-1, -1]
        guard pipe(&extremos) == 0 else { return (-1, -1) }
        for extremo in extremos {
            _ = fcntl(extremo, F_SETFD, FD_CLOEXEC)
            _ = fcntl(extremo, F_SETFL, fcntl(extremo, F_GETFL) | O_NONBLOCK)
        }
        return (extremos[0], extremos[1])
    }()

    /// Whether the process is stopping.
    public static var estaActivada: Bool { activada.load(ordering: .acquiring) }

    /// A descriptor that becomes readable when the process starts stopping: add it to poll(2).
    public static var descriptor: Int32 { tubo.leer }

    /// From now on every store wait gives up at once.
    public static func activar(senal: Int32 = 0) {
        _ = numero.compareExchange(expected: 0, desired: senal, ordering: .acquiringAndReleasing)
        momento.store(reloj().bitPattern, ordering: .releasing)
        guard !activada.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = write(tubo.escribir, &byte, 1)
    }

    /// The process is stopping and its grace is over: no wait may go on.
    public static var sinGracia: Bool { estaActivada && reloj() >= limite(.infinity) }

    /// The deadline a wait really has: `hasta`, or the end of the grace once stopping.
    private static func limite(_ hasta: Double) -> Double {
        guard estaActivada else { return hasta }
        return min(hasta, Double(bitPattern: momento.load(ordering: .acquiring)) + gracia)
    }

    /// Waits until `descriptor` is ready for `eventos` (POLLIN, POLLOUT), the deadline passes
    /// or the process starts stopping, whichever comes first.
    /// - Parameter hasta: a `CLOCK_MONOTONIC` instant in seconds (`Interrupcion.reloj()`).
    public static func esperar(_ descriptor: Int32, _ eventos: Int16, hasta: Double) -> Espera {
        while true {
            let parando = estaActivada
            let resto = limite(hasta) - reloj()
            guard resto > 0 else { return parando ? .interrumpida : .plazoAgotado }
            var esperas = [
                pollfd(fd: descriptor, events: eventos, revents: 0),
                // Once stopping, the pipe is always readable: only the descriptor is watched.
                pollfd(fd: parando ? -1 : tubo.leer, events: Int16(POLLIN), revents: 0),
            ]
            let milisegundos = Int32(min(resto * 1000, 1_000).rounded(.up))
            let listos = poll(&esperas, 2, milisegundos)
            if listos < 0 {
                if errno == EINTR { continue }
                return .lista  // the caller's next call reports the descriptor's error
            }
            if esperas[0].revents != 0 { return .lista }
        }
    }

    /// Sleeps `segundos` unless the process starts stopping first; `false` if it did.
    public static func dormir(_ segundos: Double) -> Bool {
        let hasta = reloj() + segundos
        while reloj() < hasta {
            if estaActivada { return false }
            var espera = pollfd(fd: tubo.leer, events: Int16(POLLIN), revents: 0)
            _ = poll(&espera, 1, Int32(max(1, min((hasta - reloj()) * 1000, 1_000))))
        }
        return !estaActivada
    }

    public enum Espera: Sendable { case lista, plazoAgotado, interrumpida }

    /// Monotonic seconds, for deadlines.
    public static func reloj() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
    }
}
