import ApoyoDePruebas
import Foundation
import Testing

/// `marcador dispositivos importar` through the built binary (contract.md §19, §20): what a
/// user sees for a wrong file, and two imports started at once, on both stores.
@Suite("Importar dispositivos (binario)")
struct ImportarDispositivosE2ETests {
    static func lineas(_ desde: Int, _ hasta: Int) -> String {
        (desde..<hasta).map { i in
            let hex = String(i, radix: 16)
            let token = String(repeating: "0", count: 64 - hex.count) + hex
            return #"{"apns":"\#(token)","equipos":["Toros"]}"#
        }.joined(separator: "\n") + "\n"
    }

    @Test func unFicheroMaloNoGuardaNadaYDiceQue() async throws {
        let escenario = Escenario()
        let carpeta = escenario.carpeta
        let falta = try await escenario.marcador("dispositivos", "importar", carpeta + "/no-existe")
        #expect(
            falta.codigo == 66 && falta.error.contains("No existe el fichero"), "\(falta.error)")
        let carpetaEnVezDeFichero = try await escenario.marcador(
            "dispositivos", "importar", carpeta)
        #expect(carpetaEnVezDeFichero.codigo == 66, "\(carpetaEnVezDeFichero.error)")
        try (Self.lineas(0, 3) + "{\"apns\": \"zz\"}\n" + Self.lineas(3, 5)).write(
            toFile: carpeta + "/malo.jsonl", atomically: true, encoding: .utf8)
        let malo = try await escenario.marcador("dispositivos", "importar", carpeta + "/malo.jsonl")
        #expect(malo.codigo == 65, "\(malo.error)")
        #expect(malo.error.contains("Línea 4: No se añade el dispositivo: el token de APNs"))
        #expect(malo.salida.isEmpty)
        let sinArgumento = try await escenario.marcador("dispositivos", "importar")
        #expect(sinArgumento.codigo == 64)
        let lista = try await escenario.marcador("dispositivos", "--json")
        #expect(lista.salida.trimmingCharacters(in: .whitespacesAndNewlines) == "[\n\n]")
    }

    /// Two imports of overlapping files at the same instant: the store takes one after the
    /// other, every device is stored once, and the two counts add up.
    @Test(arguments: ["SQLite", "PostgreSQL"])
    func dosImportacionesALaVez(_ almacen: String) async throws {
        let escenario = try await RelevoE2ETests.escenario(almacen)
        let carpeta = escenario.carpeta
        // The store exists (migrated, seeded) before the race: the race is the imports'.
        #expect(try await escenario.marcador("dispositivos").codigo == 0)
        try Self.lineas(0, 5_000).write(
            toFile: carpeta + "/a.jsonl", atomically: true, encoding: .utf8)
        try Self.lineas(2_500, 7_500).write(
            toFile: carpeta + "/b.jsonl", atomically: true, encoding: .utf8)
        let procesos = try ["a", "b"].map {
            try Proceso(
                ["--db", escenario.db, "dispositivos", "importar", carpeta + "/\($0).jsonl"],
                carpeta: carpeta)
        }
        var nuevos = 0
        for proceso in procesos {
            let fin = await proceso.esperar()
            #expect(fin.codigo == 0, "\(fin.error)")
            let cifras = fin.salida.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            #expect(cifras.count == 2 && cifras.reduce(0, +) == 5_000, "\(fin.salida)")
            nuevos += cifras.first ?? 0
        }
        #expect(nuevos == 7_500)
        let lista = try await escenario.marcador("dispositivos", "--json")
        let dispositivos =
            try JSONSerialization.jsonObject(with: Data(lista.salida.utf8)) as? [[String: Any]]
        #expect(dispositivos?.count == 7_500)
    }
}
