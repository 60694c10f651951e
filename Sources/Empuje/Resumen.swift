import CCifrado

/// SHA-256, for names derived from what they name (a device's id from its token).
public enum Resumen {
    public static func sha256(_ datos: [UInt8]) -> [UInt8] {
        var resumen = [UInt8](repeating: 0, count: 32)
        _ = cifrado_sha256(datos, datos.count, &resumen)
        return resumen
    }
}
