import Foundation

/// Ten Serie A seasons from the one in the repository: each a season of its own (its name and
/// years shifted), 3,800 matches in all, written to the bench folder.
func temporadasDeSerieA() throws -> (una: String, carpeta: String) {
    let original = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Recursos/openfootball/serie-a-2024-25.json").path
    let texto = try String(contentsOfFile: original, encoding: .utf8)
    let destino = carpeta + "/temporadas"
    try FileManager.default.createDirectory(atPath: destino, withIntermediateDirectories: true)
    for atras in 0..<10 {
        let (primero, segundo) = (2024 - atras, 2025 - atras)
        let temporada =
            texto
            .replacingOccurrences(
                of: "Serie A 2024/25", with: "Serie A \(primero)/\(segundo % 100)"
            )
            .replacingOccurrences(of: "\"2024-", with: "\"\(primero)-")
            .replacingOccurrences(of: "\"2025-", with: "\"\(segundo)-")
        try temporada.write(
            toFile: destino + "/serie-a-\(primero).json", atomically: true, encoding: .utf8)
    }
    return (original, destino)
}

/// import.md's figures: importing a league season and ten of them in one command, and the
/// league table, each against the process floor (`marcador --version`: starting, opening
/// nothing, exiting).
@MainActor
func medirFutbolReal() async throws {
    informar("fútbol de verdad: importar la Serie A y diez temporadas, y su clasificación…")
    let (una, diez) = try temporadasDeSerieA()
    let repeticiones = rapido ? 3 : 10
    var suelo: [Double] = []
    var temporada: [Double] = []
    var temporadas: [Double] = []
    var tabla: [Double] = []
    var tablaDeDiez: [Double] = []
    for ronda in 0..<repeticiones {
        suelo.append(lanzar(binario, ["--version"]).segundos * 1000)
        // Into databases that exist (created, migrated and seeded before): the import's work.
        let (base, _) = try nuevaBase("serie-a-\(ronda)")
        temporada.append(lanzar(binario, ["--db", base, "importar", una]).segundos * 1000)
        tabla.append(
            lanzar(binario, ["--db", base, "clasificacion", "--competicion", "serie a 2024"])
                .segundos * 1000)
        let (otra, _) = try nuevaBase("serie-a-diez-\(ronda)")
        temporadas.append(lanzar(binario, ["--db", otra, "importar", diez]).segundos * 1000)
        tablaDeDiez.append(
            lanzar(binario, ["--db", otra, "clasificacion", "--competicion", "serie a 2015"])
                .segundos * 1000)
    }
    let base = "marcador --version (el suelo de un proceso)"
    medidas.append(
        Medida(
            nombre: "importar una temporada de la Serie A (380 partidos)", unidad: "ms",
            valores: temporada, base: base, valoresBase: suelo))
    medidas.append(
        Medida(
            nombre: "importar diez temporadas en una orden (3.800 partidos)", unidad: "ms",
            valores: temporadas, base: base, valoresBase: suelo))
    medidas.append(
        Medida(
            nombre: "clasificacion de una liga (380 partidos en la base)", unidad: "ms",
            valores: tabla, base: base, valoresBase: suelo))
    medidas.append(
        Medida(
            nombre: "clasificacion de una liga (3.800 partidos en la base)", unidad: "ms",
            valores: tablaDeDiez, base: base, valoresBase: suelo))
}
