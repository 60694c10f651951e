import Almacen
import CSQLite
import Foundation

/// A database with `n` matches (teams `Local i` – `Visitante i`) for the command-line figures.
func baseConPartidos(_ nombre: String, _ n: Int) throws -> String {
    let (ruta, _) = try nuevaBase(nombre)
    let c = CSQLiteMinimo(ruta)
    c.exec("BEGIN IMMEDIATE")
    for i in 0..<n {
        c.run("INSERT OR IGNORE INTO equipo (nombre) VALUES (?)", [.t("Local \(i)")])
        let local = Int(sqlite3_last_insert_rowid(c.db))
        c.run("INSERT OR IGNORE INTO equipo (nombre) VALUES (?)", [.t("Visitante \(i)")])
        let visitante = Int(sqlite3_last_insert_rowid(c.db))
        c.run(
            "INSERT INTO partido (local_id, visitante_id, competicion) VALUES (?, ?, 'Banco')",
            [.i(local), .i(visitante)])
    }
    c.exec("COMMIT")
    return ruta
}

/// `marcador partidos` as one query for `sqlite3 -column -header`: the same table — the same
/// headers, the Spanish states, the score with manual goals, the duration — computed by SQLite
/// and laid out by the shell's column mode (which, like marcador, reads every row before it
/// writes one, to size the columns). Only the alignment of numbers differs.
let consultaDePartidos = """
    SELECT p.id AS ID, l.nombre AS LOCAL, v.nombre AS VISITANTE,
        CASE e.estado
            WHEN 'en_juego' THEN 'En juego'
            WHEN 'terminado' THEN 'Partido terminado'
            WHEN 'cancelado' THEN 'Cancelado en el minuto ' || e.minuto
            WHEN 'interrumpido' THEN 'Interrumpido en el minuto ' || e.minuto
            ELSE 'Sin empezar' END AS ESTADO,
        coalesce(e.minuto, 0) AS MINUTO,
        coalesce(e.goles_local + e.mano_local, 0) || '-'
            || coalesce(e.goles_visitante + e.mano_visitante, 0) AS MARCADOR,
        coalesce(e.duracion, CASE WHEN p.prorroga THEN 120 ELSE 90 END) AS "DURACIÓN"
    FROM partido p JOIN equipo l ON l.id = p.local_id JOIN equipo v ON v.id = p.visitante_id
    LEFT JOIN ejecucion e ON e.id = (SELECT max(id) FROM ejecucion WHERE partido_id = p.id)
    ORDER BY p.id
    """

/// The baseline's command line: column mode with headers, as marcador prints its table.
func sqlite3DePartidos(_ ruta: String) -> [String] {
    ["-column", "-header", ruta, consultaDePartidos]
}

@MainActor
func medirCLI() async throws {
    for (n, repeticiones) in [(1_000, rapido ? 5 : 20), (100_000, rapido ? 2 : 10)] {
        informar("CLI: marcador partidos con \(n) partidos…")
        let ruta = try baseConPartidos("cli-\(n)", n)
        var nuestro: [Double] = []
        var base: [Double] = []
        var memoria: [Double] = []
        var memoriaBase: [Double] = []
        // Alternating, and the order turned every round.
        for ronda in 0..<repeticiones {
            if ronda % 2 == 1 {
                base.append(lanzar("sqlite3", sqlite3DePartidos(ruta)).segundos * 1000)
            }
            nuestro.append(lanzar(binario, ["--db", ruta, "partidos"]).segundos * 1000)
            if ronda % 2 == 0 {
                base.append(lanzar("sqlite3", sqlite3DePartidos(ruta)).segundos * 1000)
            }
        }
        medidas.append(
            Medida(
                nombre: "CLI: marcador partidos (\(n) partidos)", unidad: "ms", valores: nuestro,
                base: "sqlite3 -column con la misma tabla", valoresBase: base))
        if n > 1_000 {
            for _ in 0..<(rapido ? 1 : 10) {
                memoria.append(Double(memoriaPico(binario, ["--db", ruta, "partidos"])) / 1024)
                memoriaBase.append(
                    Double(memoriaPico("sqlite3", sqlite3DePartidos(ruta))) / 1024)
            }
            medidas.append(
                Medida(
                    nombre: "memoria: pico de marcador partidos (\(n) partidos)", unidad: "MB",
                    valores: memoria, base: "sqlite3 -column con la misma tabla",
                    valoresBase: memoriaBase))
        }
    }
    informar("CLI: arranque…")
    var version: [Double] = []
    var vacio: [Double] = []
    for _ in 0..<(rapido ? 10 : 30) {
        version.append(lanzar(binario, ["--version"]).segundos * 1000)
        vacio.append(lanzar(suelo, []).segundos * 1000)
    }
    medidas.append(
        Medida(
            nombre: "CLI: marcador --version", unidad: "ms", valores: version,
            base: "el programa Swift mínimo con FoundationEssentials", valoresBase: vacio))
    informar("CLI: importar el Mundial 2018…")
    let fichero = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Recursos/openfootball/worldcup-2018.json").path
    // Into a new database (what a first `importar` does: create, migrate, seed, import) and
    // into an existing one (the import's own work).
    let (existente, _) = try nuevaBase("importar-existente")
    let copia = carpeta + "/importar-copia.sqlite3"
    var nueva: [Double] = []
    var yaCreada: [Double] = []
    for ronda in 0..<(rapido ? 5 : 15) {
        let ruta = carpeta + "/importar-\(ronda).sqlite3"
        nueva.append(lanzar(binario, ["--db", ruta, "importar", fichero]).segundos * 1000)
        try? FileManager.default.removeItem(atPath: copia)
        try FileManager.default.copyItem(atPath: existente, toPath: copia)
        yaCreada.append(lanzar(binario, ["--db", copia, "importar", fichero]).segundos * 1000)
    }
    // The target: 1.5 × the process floor (`--version`) + 10 ms.
    let objetivo = version.map { $0 * 1.5 + 10 }
    medidas.append(
        Medida(
            nombre: "CLI: importar worldcup-2018.json (base existente)", unidad: "ms",
            valores: yaCreada, base: "1,5 × marcador --version + 10 ms", valoresBase: objetivo))
    medidas.append(
        Medida(
            nombre: "CLI: importar worldcup-2018.json (base nueva)", unidad: "ms", valores: nueva,
            base: "1,5 × marcador --version + 10 ms", valoresBase: objetivo))
}

@MainActor
func medirMemoria() async throws {
    let (ruta, _) = try nuevaBase("memoria")
    var jugar: [Double] = []
    var vacio: [Double] = []
    var sqlite: [Double] = []
    for _ in 0..<10 {
        jugar.append(
            Double(memoriaPico(binario, ["--db", ruta, "jugar", "1", "--ms-por-minuto", "0"]))
                / 1024)
        vacio.append(Double(memoriaPico(suelo, [])) / 1024)
        sqlite.append(
            Double(memoriaPico("sqlite3", [ruta, "SELECT count(*) FROM partido"])) / 1024)
    }
    medidas.append(
        Medida(
            nombre: "memoria: pico de jugar (90' a 0 ms)", unidad: "MB", valores: jugar,
            base: "el programa Swift mínimo con FoundationEssentials", valoresBase: vacio))
    medidas.append(
        Medida(
            nombre: "memoria: pico de jugar, frente a sqlite3", unidad: "MB", valores: jugar,
            base: "sqlite3 con una consulta", valoresBase: sqlite))
    let filas = rapido ? 20_000 : 100_000
    let (rutaCola, _) = try nuevaBase("memoria-cola")
    llenarCola(rutaCola, filas)
    let vigilar = memoriaPico(
        binario, ["--db", rutaCola, "avisos", "vigilar"], senalTras: rapido ? 2 : 4)
    medidas.append(
        Medida(
            nombre: "memoria: pico de avisos vigilar (\(filas) pendientes)", unidad: "MB",
            valores: [Double(vigilar) / 1024], base: "sqlite3 con una consulta", valoresBase: sqlite
        ))
}
