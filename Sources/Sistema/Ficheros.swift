#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The bytes of a regular file, without following a symlink at the last step, or `nil` when it
/// is missing, not a regular file, unreadable or bigger than `maximo`.
public func leerFichero(_ ruta: String, maximo: Int) -> [UInt8]? {
    let descriptor = open(ruta, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
        Int(info.st_size) <= maximo
    else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
    var leidos = 0
    while leidos < bytes.count {
        let n = bytes.withUnsafeMutableBytes {
            read(descriptor, $0.baseAddress! + leidos, $0.count - leidos)
        }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return nil }
        leidos += n
    }
    return bytes
}

/// The names in folder `ruta` (not `.` or `..`), sorted; `nil` when it cannot be read.
public func contenidoDeCarpeta(_ ruta: String) -> [String]? {
    guard let carpeta = opendir(ruta) else { return nil }
    defer { closedir(carpeta) }
    var nombres: [String] = []
    while let entrada = readdir(carpeta) {
        let nombre = withUnsafeBytes(of: entrada.pointee.d_name) { crudo in
            String(decoding: crudo.prefix { $0 != 0 }, as: UTF8.self)
        }
        if nombre != "." && nombre != ".." { nombres.append(nombre) }
    }
    return nombres.sorted()
}

/// Whether `ruta` is a folder (following a symlink).
public func esCarpeta(_ ruta: String) -> Bool {
    var info = stat()
    return stat(ruta, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}
