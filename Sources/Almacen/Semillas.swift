/// The default matches of `seeds/`, loaded into a fresh database and by `--reiniciar-datos`.
public enum Semillas {
    /// Marks a database whose seeds were loaded, so they load once even if a crash interrupted
    /// the first start between migrating and seeding.
    static let claveCargadas = "semillas_cargadas"

    /// Replaces every match, team and player (and, through cascades, their runs) with the seed.
    /// Settings and the log are kept: they are the user's, not sample data.
    public static func cargar(en db: Database) throws {
        try db.transaction { try cargarDentro(db) }
    }

    /// Loads the seed only if no process did yet: check and load in one write transaction, so
    /// N processes opening a new file seed it once and never wipe what another one wrote.
    static func cargarSiFaltan(en db: Database) throws {
        if try cargadas(en: db) { return }
        try db.transaction {
            if try cargadas(en: db) { return }
            try cargarDentro(db)
        }
    }

    private static func cargarDentro(_ db: Database) throws {
        try db.execute("DELETE FROM partido")
        try db.execute("DELETE FROM jugador")
        try db.execute("DELETE FROM equipo")
        for fichero in RecursosIncrustados.semillas where fichero.nombre.hasSuffix(".sql") {
            try db.executeScript(fichero.texto)
        }
        try db.execute(
            "INSERT OR REPLACE INTO ajuste (clave, valor) VALUES (?, '1')", claveCargadas)
        try RegistroDeCambios.anotar(.partidos, en: db)
    }

    static func cargadas(en db: Database) throws -> Bool {
        try db.scalarString("SELECT valor FROM ajuste WHERE clave = ?", claveCargadas) != nil
    }

    /// The scheme of attachments that ship inside the binary (`semilla:gol.gif`).
    public static let esquemaDeAdjuntos = "semilla:"

    /// The bytes of an embedded seed file (`gol.gif`), or `nil` when there is no such file.
    public static func fichero(_ nombre: String) -> [UInt8]? {
        RecursosIncrustados.semillas.first { $0.nombre == nombre && !$0.nombre.hasSuffix(".sql") }?
            .bytes
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
