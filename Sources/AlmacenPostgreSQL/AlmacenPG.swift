import AlmacenSQL

/// Opens marcador's PostgreSQL store (postgresql.md): `--db postgresql://…` or `MARCADOR_DB`.
public enum AlmacenPG {
    /// Whether `ruta` names a PostgreSQL database rather than a SQLite file.
    public static func esURL(_ ruta: String) -> Bool {
        ruta.hasPrefix("postgresql://") || ruta.hasPrefix("postgres://")
    }

    /// `postgresql://usuario:***@host/base?password=***`: the URL as messages may show it. No
    /// password survives, however the URL is written (user info, a `password` parameter of the
    /// URL or of a `clave=valor` string, a malformed URL with several `@`).
    public static func sinContrasena(_ url: String) -> String {
        var texto = url
        if let esquema = texto.firstRange(of: "://") {
            let resto = texto[esquema.upperBound...]
            // The user info ends at the last `@`: a password with an unescaped `@` or `/` in it
            // is still hidden whole.
            if let arroba = resto.lastIndex(of: "@"),
                let dosPuntos = resto[..<arroba].firstIndex(of: ":")
            {
                texto = String(texto[..<dosPuntos]) + ":***" + String(texto[arroba...])
            }
        }
        return enmascararParametros(texto)
    }

    /// The password `url` carries (user info or a `password` parameter), to scrub it from
    /// whatever libpq writes back.
    static func contrasena(de url: String) -> String? {
        if let esquema = url.firstRange(of: "://") {
            let resto = url[esquema.upperBound...]
            if let arroba = resto.lastIndex(of: "@"),
                let dosPuntos = resto[..<arroba].firstIndex(of: ":")
            {
                return String(resto[resto.index(after: dosPuntos)..<arroba])
            }
        }
        for separador in ["password=", "PASSWORD="] {
            if let inicio = url.firstRange(of: separador) {
                let valor = url[inicio.upperBound...].prefix { $0 != "&" && $0 != " " }
                if !valor.isEmpty { return String(valor) }
            }
        }
        return nil
    }

    /// Every `password=…` value (of a URL query or of a `clave=valor` string, any case) as
    /// `***`.
    private static func enmascararParametros(_ texto: String) -> String {
        let clave = Array("password=".utf8)
        let bytes = Array(texto.utf8)
        var salida: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let coincide =
                i + clave.count <= bytes.count
                && zip(bytes[i..<i + clave.count], clave).allSatisfy { a, b in
                    a == b || (a >= 65 && a <= 90 && a + 32 == b)
                }
            guard coincide else {
                salida.append(bytes[i])
                i += 1
                continue
            }
            salida += bytes[i..<i + clave.count] + Array("***".utf8)
            i += clave.count
            while i < bytes.count && bytes[i] != UInt8(ascii: "&") && bytes[i] != UInt8(ascii: " ")
            {
                i += 1
            }
        }
        return String(decoding: salida, as: UTF8.self)
    }

    /// Connects, migrates and seeds once (under the migration lock, so processes starting
    /// together seed once and never over what another wrote).
    /// - Parameter paciencia: how long the store keeps reconnecting, through a server restart,
    ///   before a call fails (architecture.md: 60 s for the commands that run for long).
    public static func abrir(url: String, paciencia: Double = 0) throws -> ColaPG {
        let cola = try ColaPG(url: url, paciencia: paciencia)
        try cola.read { conexion in
            try MigradorPG().migrar(conexion)
            if try Inicios.faltan(conexion) {
                try conexion.executeScript("BEGIN")
                do {
                    try Inicios.completar(conexion)
                    try conexion.executeScript("COMMIT")
                } catch {
                    try? conexion.executeScript("ROLLBACK")
                    throw error
                }
            }
            // Checked once without the lock (the usual case: nothing to write), then again
            // under it, so processes starting together seed once.
            if try Semillas.cargadas(en: conexion) { return }
            try conexion.executeScript("BEGIN")
            do {
                try conexion.executeScript(MigradorPG.cerrojo)
                if try !Semillas.cargadas(en: conexion) {
                    try Semillas.cargarDentro(conexion)
                }
                try conexion.executeScript("COMMIT")
            } catch {
                try? conexion.executeScript("ROLLBACK")
                throw error
            }
        }
        return cola
    }
}
