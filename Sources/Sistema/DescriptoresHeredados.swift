#if canImport(Glibc)
    import Glibc
#endif

/// What a child started with posix_spawn must not inherit. Descriptors opened elsewhere in the
/// process without `O_CLOEXEC` (Foundation's pipes, other children's pipes) would otherwise stay
/// open in the child for its whole life: a daemon it leaves behind keeps a pipe's write end
/// open, and whoever reads that pipe to its end waits until the daemon dies.
public enum DescriptoresHeredados {
    private typealias CerrarDesde =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc ≥ 2.34 closes everything from a number up in the child, with no race against other
    /// threads opening descriptors; Swift's Glibc module does not declare it (it is a GNU
    /// extension), so it is looked up once by name.
    private static let cerrarDesde: CerrarDesde? = {
        guard let simbolo = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np")
        else { return nil }
        return unsafeBitCast(simbolo, to: CerrarDesde.self)
    }()

    /// Adds to `acciones` the closing of every descriptor from 3 up in the child.
    public static func cerrar(en acciones: inout posix_spawn_file_actions_t) {
        if let cerrarDesde, cerrarDesde(&acciones, 3) == 0 { return }
        // Older C libraries: the descriptors open now, as listed by the kernel.
        guard let carpeta = opendir("/proc/self/fd") else { return }
        defer { closedir(carpeta) }
        let propio = dirfd(carpeta)
        while let entrada = readdir(carpeta) {
            let nombre = withUnsafeBytes(of: entrada.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let fd = Int32(nombre), fd > 2, fd != propio {
                posix_spawn_file_actions_addclose(&acciones, fd)
            }
        }
    }
}
