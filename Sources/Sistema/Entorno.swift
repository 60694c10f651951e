#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's environment variables, read straight from `environ`.
///
/// `ProcessInfo.processInfo.environment` gives the same dictionary, but making `ProcessInfo`
/// first builds the whole object (its locks, host and argument copies), about a tenth of
/// `marcador --version`'s time; every command needs only these pairs.
public enum Entorno {
    /// Every `NOMBRE=valor` pair; an entry without `=` is skipped and, as `getenv` does, the
    /// first of two entries with one name wins.
    public static func actual() -> [String: String] {
        var variables: [String: String] = [:]
        var cursor = environ
        while let entrada = cursor.pointee {
            cursor += 1
            guard let igual = strchr(entrada, Int32(UInt8(ascii: "="))) else { continue }
            let nombre = String(
                decoding: UnsafeRawBufferPointer(start: entrada, count: igual - entrada),
                as: UTF8.self)
            if variables[nombre] == nil {
                variables[nombre] = String(cString: igual + 1)
            }
        }
        return variables
    }
}
