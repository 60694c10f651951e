import Almacen
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
