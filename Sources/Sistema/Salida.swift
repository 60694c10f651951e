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

/// Writes all of `texto` to `descriptor`, retrying short writes and interrupted calls.
/// - Returns: 0, or the `errno` of the write that failed (`EPIPE`: the reader left;
///   `ENOSPC`: a full disk), so the caller can tell the user what did not get written.
@discardableResult
public func escribirEnDescriptor(_ descriptor: Int32, _ texto: String) -> Int32 {
    var texto = texto
    return texto.withUTF8 { escribirEnDescriptor(descriptor, UnsafeRawBufferPointer($0)) }
}

/// Writes all of `bytes` to `descriptor`, with the same rules as for text.
@discardableResult
public func escribirEnDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    guard let base = bytes.baseAddress else { return 0 }
    var escritos = 0
    while escritos < bytes.count {
        let n = write(descriptor, base + escritos, bytes.count - escritos)
        if n < 0 && errno == EINTR { continue }
        if n < 0 { return errno }
        if n == 0 { return EIO }
        escritos += n
    }
    return 0
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
