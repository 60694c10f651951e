import AlmacenSQL

/// Opens marcador's PostgreSQL store (DESIGN §12): `--db postgresql://…` or `MARCADOR_DB`.
public enum AlmacenPG {
    /// Whether `ruta` names a PostgreSQL database rather than a SQLite file.
    public static func esURL(_ ruta: String) -> Bool {
        ruta.hasPrefix("postgresql://") || ruta.hasPrefix("postgres://")
    }

    /// `postgresql://usuario:***@host/base`: the URL as messages may show it.
    public static func sinContrasena(_ url: String) -> String {
        guard let esquema = url.firstRange(of: "://"),
            let arroba = url[esquema.upperBound...].firstIndex(of: "@")
        else { return url }
        let credenciales = url[esquema.upperBound..<arroba]
        guard let dosPuntos = credenciales.firstIndex(of: ":") else { return url }
        return String(url[..<dosPuntos]) + ":***" + String(url[arroba...])
    }

    /// Connects, migrates and seeds once (under the migration lock, so processes starting
    /// together seed once and never over what another wrote).
    /// - Parameter reiniciarDatos: reload the seed matches after migrating.
    public static func abrir(url: String, reiniciarDatos: Bool = false) throws -> ColaPG {
        let cola = try ColaPG(url: url)
        try cola.read { conexion in
            try MigradorPG().migrar(conexion)
            // Checked once without the lock (the usual case: nothing to write), then again
            // under it, so processes starting together seed once.
            if !reiniciarDatos, try Semillas.cargadas(en: conexion) { return }
            try conexion.executeScript("BEGIN")
            do {
                try conexion.executeScript(MigradorPG.cerrojo)
                if reiniciarDatos {
                    try Semillas.cargarDentro(conexion)
                } else if try !Semillas.cargadas(en: conexion) {
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
