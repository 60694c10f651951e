import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Calls back when a file is written (inotify's `IN_MODIFY`), on a thread of its own: how
/// `servir` learns at once that another process committed to a SQLite database (every commit
/// appends to its `-wal`), without polling.
public final class VigilanteDeFichero: Sendable {
    private let descriptor: Int32
    private let parado = Atomic<Bool>(false)

    /// `nil` where inotify is not available (or the file does not exist): the caller polls.
    public init?(_ ruta: String, alCambiar: @escaping @Sendable () -> Void) {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { return nil }
        guard inotify_add_watch(descriptor, ruta, UInt32(IN_MODIFY)) >= 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        Hilo.lanzar(pila: 256 << 10) { [self] in
            var espera = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            var bytes = [UInt8](repeating: 0, count: 4096)
            while !self.parado.load(ordering: .acquiring) {
                // A short timeout so that `parar` is seen without closing under a poll.
                guard poll(&espera, 1, 200) > 0 else { continue }
                var leido = false
                while read(descriptor, &bytes, bytes.count) > 0 { leido = true }
                if leido && !self.parado.load(ordering: .acquiring) { alCambiar() }
            }
            close(descriptor)
        }
    }

    public func parar() { parado.store(true, ordering: .releasing) }
}
