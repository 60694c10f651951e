#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes straight to file descriptor 2, unbuffered, so log lines interleave correctly with the
/// status line on stdout.
public func escribirEnStderr(_ texto: String) {
    escribirEnDescriptor(2, texto)
}

/// Writes all of `texto` to `descriptor`, retrying short writes and interrupted calls; gives up
/// silently on a closed pipe (the reader left: nothing useful can be done).
public func escribirEnDescriptor(_ descriptor: Int32, _ texto: String) {
    var texto = texto
    texto.withUTF8 { escribirEnDescriptor(descriptor, UnsafeRawBufferPointer($0)) }
}

/// Writes all of `bytes` to `descriptor`, with the same rules as for text.
public func escribirEnDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    var escritos = 0
    while escritos < bytes.count {
        let n = write(descriptor, base + escritos, bytes.count - escritos)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return }
        escritos += n
    }
}

/// An OS error in Spanish, with the system's own words after it for a search.
public func errorDelSistema(_ codigo: Int32) -> String {
    let explicacion: String
    switch codigo {
    case ENOSPC, EDQUOT: explicacion = "no queda espacio en el disco"
    case EACCES, EPERM: explicacion = "no hay permiso"
    case ENOENT: explicacion = "no existe"
    case EROFS: explicacion = "el sistema de ficheros es de solo lectura"
    case ENAMETOOLONG: explicacion = "el nombre es demasiado largo"
    case ELOOP: explicacion = "es un enlace simbólico"
    case ENOTDIR: explicacion = "no es una carpeta"
    default: explicacion = "error del sistema"
    }
    return "\(explicacion) (\(String(cString: strerror(codigo))))"
}
