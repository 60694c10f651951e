#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The default matches of `seeds/`, loaded into a fresh database and by `--reiniciar-datos`.
public enum Semillas {
    /// Marks a database whose seeds were loaded, so they load once even if a crash interrupted
    /// the first start between migrating and seeding.
    static let claveCargadas = "semillas_cargadas"

    /// Replaces every match, team and player (and, through cascades, their runs) with the seed.
    /// Settings and the log are kept: they are the user's, not sample data.
    /// - Parameter carpeta: where the seed's other files (the attachment GIF) are written, and
    ///   what `{semillas}` in the SQL stands for.
    public static func cargar(en db: Database, carpeta: String = carpetaTemporal) throws {
        escribirFicheros(en: carpeta)
        let carpetaSQL = carpeta.replacingOcurrences(of: "'", with: "''")
        try db.transaction {
            try db.execute("DELETE FROM partido")
            try db.execute("DELETE FROM jugador")
            try db.execute("DELETE FROM equipo")
            for fichero in RecursosIncrustados.semillas where fichero.nombre.hasSuffix(".sql") {
                try db.executeScript(
                    fichero.texto.replacingOcurrences(of: "{semillas}", with: carpetaSQL))
            }
            try db.execute(
                "INSERT OR REPLACE INTO ajuste (clave, valor) VALUES (?, '1')", claveCargadas)
        }
    }

    /// For databases without a folder of their own (`:memory:`).
    public static let carpetaTemporal = "/tmp/marcador-semillas-\(getuid())"

    /// The seed folder of the database at `ruta`: `marcador-semillas` beside it.
    public static func carpeta(paraLaBase ruta: String) -> String {
        guard let barra = ruta.lastIndex(of: "/") else { return "marcador-semillas" }
        return String(ruta[..<barra]) + "/marcador-semillas"
    }

    /// Writes the non-SQL seed files; failing to is not fatal (the notice is then delivered
    /// as the original, saying the attachment is missing).
    private static func escribirFicheros(en carpeta: String) {
        mkdir(carpeta, 0o700)
        for fichero in RecursosIncrustados.semillas where !fichero.nombre.hasSuffix(".sql") {
            let ruta = carpeta + "/" + fichero.nombre
            guard let salida = fopen(ruta, "wb") else { continue }
            _ = fichero.bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, salida) }
            fclose(salida)
        }
    }

    static func cargadas(en db: Database) throws -> Bool {
        try db.scalarString("SELECT valor FROM ajuste WHERE clave = ?", claveCargadas) != nil
    }
}

extension String {
    /// Plain substring replacement (no Foundation here).
    func replacingOcurrences(of buscado: String, with nuevo: String) -> String {
        guard !buscado.isEmpty else { return self }
        var resultado = ""
        var resto = Substring(self)
        while let rango = resto.firstRange(of: buscado) {
            resultado += resto[..<rango.lowerBound] + nuevo
            resto = resto[rango.upperBound...]
        }
        return resultado + resto
    }
}
