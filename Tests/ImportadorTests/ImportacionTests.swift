import Almacen
import Importador
import Motor
import Persistencia
import Testing
import Torneo

/// The importer's and the engine's acceptance test at once: every imported match with goal
/// details, played at 0 ms with its duration, ends with the file's result.
@MainActor
@Suite("Importación")
struct ImportacionTests {
    let queue: DatabaseQueue

    init() throws {
        queue = try Almacen.enMemoria()
    }

    @discardableResult
    func importar(_ nombre: String) throws -> ResumenDeImportacion {
        let competicion = try LectorOpenFootball.leer(
            try Datos.bytes(nombre), nombrePorDefecto: nombre)
        let entradas = competicion.partidos.map { p in
            EntradaDeImportacion(
                clave: p.clave(competicion: competicion.nombre), local: p.local,
                visitante: p.visitante,
                competicion: competicion.nombre, ronda: p.ronda, fecha: p.fecha, hora: p.hora,
                grupo: p.grupo,
                estadio: p.estadio, finalDelPartido: p.finalDelPartido,
                trasLaProrroga: p.trasLaProrroga,
                penaltis: p.penaltis, tieneProrroga: p.tieneProrroga, goles: p.goles,
                conAvisos: !p.avisos.isEmpty)
        }
        return try ImportacionSQLite(queue).importar(entradas, soloComprobar: false)
    }

    /// Matches and goals in each file; both layouts.
    static let cuentas = [
        "worldcup-2018.json": (64, 169), "worldcup-2026.json": (104, 308),
        "euro-2020.json": (51, 142),
    ]

    @Test(arguments: ["worldcup-2018.json", "worldcup-2026.json", "euro-2020.json"])
    func cadaPartidoJugadoAcabaConElResultadoDelFichero(nombre: String) async throws {
        let resumen = try importar(nombre)
        #expect(resumen.nuevos == Self.cuentas[nombre]?.0)
        #expect(resumen.goles == Self.cuentas[nombre]?.1)
        let repositorio = PartidosSQLite(queue)
        let importados = try repositorio.partidos().filter { $0.competicion != nil }
        var jugados = 0
        for partido in importados where !partido.eventos.isEmpty {
            let esperado = try #require(
                try ImportacionSQLite(queue).resultadoEsperado(partido: partido.id))
            let modelo = PartidoEnVivo(partido: partido, msPorMinuto: 0)
            try await modelo.jugar(duracion: partido.tieneProrroga ? 120 : 90)
            #expect(
                modelo.marcador == esperado, "\(partido.local.nombre) – \(partido.visitante.nombre)"
            )
            jugados += 1
        }
        #expect(jugados > 40)
    }

    @Test func reimportarNoAnadeNada() throws {
        try importar("worldcup-2018.json")
        let otra = try importar("worldcup-2018.json")
        #expect(otra.nuevos == 0)
        #expect(otra.yaEstaban == 64)
        #expect(try PartidosSQLite(queue).partidos(competicion: "World Cup 2018").count == 64)
    }

    @Test func laFinalDe2018AcabaCuatroADosYLaPropiaPuertaSeAvisaConSuEquipo() async throws {
        try importar("worldcup-2018.json")
        let final = try #require(
            try PartidosSQLite(queue).partidos(competicion: "World Cup 2018").first {
                $0.local.nombre == "France" && $0.visitante.nombre == "Croatia"
            })
        let modelo = PartidoEnVivo(partido: final, msPorMinuto: 0)
        var avisos: [AvisoDeGol] = []
        modelo.alCambiar = { if case .gol(let aviso) = $0 { avisos.append(aviso) } }
        try await modelo.jugar(duracion: 90)
        #expect(modelo.marcador == Marcador(local: 4, visitante: 2))
        let propia = try #require(
            avisos.first { $0.jugador == "Mandžukić" && $0.minuto == MinutoDeJuego(18) })
        #expect(propia.cuerpo == "Mandžukić (Croatia, en propia puerta), minuto 18")
        #expect(propia.marcador == Marcador(local: 1, visitante: 0))
    }

    @Test func unGolDelTiempoAnadidoSeAvisaComoNoventaMas() async throws {
        try importar("worldcup-2018.json")
        let rusia = try #require(
            try PartidosSQLite(queue).partidos(competicion: "World Cup 2018").first {
                $0.local.nombre == "Russia" && $0.visitante.nombre == "Saudi Arabia"
            })
        let modelo = PartidoEnVivo(partido: rusia, msPorMinuto: 0)
        var avisos: [AvisoDeGol] = []
        modelo.alCambiar = { if case .gol(let aviso) = $0 { avisos.append(aviso) } }
        try await modelo.jugar(duracion: 90)
        #expect(modelo.marcador == Marcador(local: 5, visitante: 0))
        let cheryshev = try #require(avisos.first { $0.minuto == MinutoDeJuego(90, anadido: 1) })
        #expect(cheryshev.identificador == "gol-90+1-Cheryshev")
        #expect(cheryshev.cuerpo == "Cheryshev (Russia), minuto 90+1")
        #expect(avisos.last?.identificador == "gol-90+4-Golovin")
    }
}
