import Almacen
import Foundation
import Testing
import Torneo

extension Escenario {
    /// `ejecuciones` runs of partido 1's five goals, queued as `jugar` would queue them.
    func encolarEjecuciones(_ ejecuciones: Int) throws {
        let queue = try Almacen.abrir(ruta: db)
        let partido = try #require(try PartidosSQLite(queue).partido(id: 1))
        for n in 0..<ejecuciones {
            let cronica = CronicaSQLite(queue, partidoId: 1, duracionFija: true)
            try cronica.empezar(partido: partido, duracion: 90, msPorMinuto: 0, codigo: "e2e\(n)")
            var marcador = Marcador.cero
            for case .gol(let gol) in partido.eventos {
                marcador = marcador.sumando(gol.lado)
                _ = try cronica.registrar(
                    minuto: gol.minuto.minuto, goles: marcador,
                    avisos: [AvisoDeGol(gol: gol, en: partido, marcador: marcador)],
                    ultimoAviso: { _ in "" })
            }
            _ = try cronica.terminar(minuto: 90)
        }
    }
}

extension Escenario {
    /// `fecha`'s day and time in UTC (`2026-12-05`, `16:00`): how a file with the offset
    /// `UTC` writes a kick-off.
    static func enUTC(_ fecha: Date) -> (dia: String, hora: String) {
        var calendario = Calendar(identifier: .gregorian)
        calendario.timeZone = TimeZone(identifier: "UTC")!
        let p = calendario.dateComponents([.year, .month, .day, .hour, .minute], from: fecha)
        return (
            String(format: "%04d-%02d-%02d", p.year!, p.month!, p.day!),
            String(format: "%02d:%02d", p.hour!, p.minute!)
        )
    }

    /// Imports competition «Amistosos» with these matches (day, time in UTC, teams).
    func importarAmistosos(
        _ partidos: [(dia: String, hora: String, local: String, visitante: String)]
    )
        async throws
    {
        let lista = partidos.map {
            "{\"date\": \"\($0.dia)\", \"time\": \"\($0.hora) UTC\", "
                + "\"team1\": \"\($0.local)\", \"team2\": \"\($0.visitante)\"}"
        }
        let fichero = carpeta + "/amistosos.json"
        try Data(
            "{\"name\": \"Amistosos\", \"matches\": [\(lista.joined(separator: ", "))]}".utf8
        ).write(to: URL(fileURLWithPath: fichero))
        let importado = try await marcador("importar", fichero)
        #expect(importado.codigo == 0, "\(importado.error)")
    }
}
