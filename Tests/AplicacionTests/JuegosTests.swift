import Aplicacion
import ApoyoDePruebas
import Motor
import Persistencia
import Testing
import Torneo

/// The runs a process plays, as the page and the terminal start them (runs.md, §13), in
/// process on a manual clock: a start stops the match's live run wherever it is — in this very
/// process too — and a stop request reaches a run of this process in place.
@MainActor
@Suite("Núcleo: los partidos de este proceso")
struct JuegosTests {
    let reloj = RelojManual()

    func estados(_ nucleo: Nucleo, _ partido: Int) throws -> [EjecucionGuardada.Estado] {
        try nucleo.tienda.ejecuciones.todas(partido: partido).map(\.estado)
    }

    /// Advances the clock minute by minute until the live run of `partido` reached `minuto`.
    func avanzar(hasta minuto: Int, _ nucleo: Nucleo, _ partido: Int, ms: Int = 10) async throws {
        while try (nucleo.tienda.ejecuciones.ultima(partido: partido)?.minuto ?? 0) < minuto {
            reloj.avanzar(.milliseconds(ms))
            for _ in 0..<50 { await Task.yield() }
        }
    }

    /// «Jugar» twice on the page: the second start stops the first run in the same
    /// transaction, the first hears it in place (no signal) and ends cancelled where it was;
    /// the second starts from zero. One run live, never two.
    @Test func jugarDosVecesRelanzaDesdeCero() async throws {
        let nucleo = try nucleoEnMemoria(reloj: reloj)
        let registro = RegistroEspia()
        let juegos = Juegos(nucleo: nucleo, registro: registro)
        let partido = try juegos.lanzar(partido: 1, msPorMinuto: 10)
        #expect(Frases.empieza(partido) == "El partido 1 empieza: Rayo FC contra Toros.")
        try await esperarHasta { try estados(nucleo, 1) == [.enJuego] }
        try await avanzar(hasta: 5, nucleo, 1)
        try juegos.lanzar(partido: 1, msPorMinuto: 10)
        try await esperarHasta { try estados(nucleo, 1) == [.cancelado, .enJuego] }
        let ejecuciones = try nucleo.tienda.ejecuciones.todas(partido: 1)
        #expect(ejecuciones[0].minuto == 5)
        #expect(ejecuciones[1].minuto == 0)
        await esperarHasta { juegos.cuantos == 1 }
        #expect(registro.lineas.contains { $0.hasPrefix("partido CANCELADO en el minuto 5 (") })
        await juegos.detenerTodos()
        #expect(try estados(nucleo, 1) == [.cancelado, .cancelado])
    }

    /// Five presses at once: one run live; the four others end cancelled.
    @Test func cincoVecesALaVezDejanUnaSola() async throws {
        let nucleo = try nucleoEnMemoria(reloj: reloj)
        let juegos = Juegos(nucleo: nucleo, registro: RegistroEspia())
        for _ in 0..<5 { try juegos.lanzar(partido: 2, msPorMinuto: 10) }
        try await esperarHasta {
            let todos = try estados(nucleo, 2)
            return todos.count == 5 && todos.filter { $0 == .enJuego }.count == 1
        }
        try await avanzar(hasta: 2, nucleo, 2)
        #expect(try estados(nucleo, 2).filter { $0 == .cancelado }.count == 4)
        await juegos.detenerTodos()
    }

    /// A duration change from any front end reaches the runs of this process in place: the
    /// run that follows the setting starts again with 60 minutes.
    @Test func cambiarLaDuracionRelanzaLosDeEsteProceso() async throws {
        let nucleo = try nucleoEnMemoria(reloj: reloj)
        let juegos = Juegos(nucleo: nucleo, registro: RegistroEspia())
        var relanzado: Int?
        let tarea = Task {
            try await juegos.jugar(
                PeticionDeJuego(partido: 1, msPorMinuto: 10), alRelanzar: { relanzado = $0 })
        }
        try await esperarHasta { try estados(nucleo, 1) == [.enJuego] }
        try await avanzar(hasta: 3, nucleo, 1)
        let relanzados = try nucleo.cambiarDuracion(60)
        #expect(relanzados == 1)
        #expect(
            Frases.duracion(60, relanzados: relanzados) == [
                "Duración: 60 minutos.",
                "Un partido en juego vuelve a empezar con la nueva duración.",
            ])
        await esperarHasta { relanzado == 60 }
        try await esperarHasta { try estados(nucleo, 1) == [.cancelado, .enJuego] }
        while try nucleo.tienda.ejecuciones.ultima(partido: 1)?.estado == .enJuego {
            reloj.avanzar(.milliseconds(10))
            for _ in 0..<20 { await Task.yield() }
        }
        #expect(try await tarea.value == .terminado(enElMinuto: 60))
        #expect(try nucleo.tienda.ejecuciones.ultima(partido: 1)?.duracion == 60)
    }

    /// What `jugar` refuses, it refuses before writing anything (what `--reiniciar-datos`
    /// rehearses).
    @Test func loQueNoSePuedeJugarSeRechazaSinEscribir() async throws {
        let nucleo = try nucleoEnMemoria(reloj: reloj)
        let juegos = Juegos(nucleo: nucleo, registro: RegistroEspia())
        #expect(
            throws: Fallo.noEncontrado(
                "No existe el partido 99. Mira los que hay con «marcador partidos».")
        ) {
            try juegos.comprobar(PeticionDeJuego(partido: 99))
        }
        #expect(
            throws: Fallo.uso(
                "Este partido no tuvo prórroga: indica una duración de 60 o 90 minutos, no «120».")
        ) {
            try juegos.comprobar(PeticionDeJuego(partido: 1, duracion: 120))
        }
        #expect(
            throws: Fallo.uso(
                "El partido 1 no ha empezado: no hay nada que reanudar. Júgalo con «marcador jugar 1»."
            )
        ) {
            try juegos.comprobar(PeticionDeJuego(partido: 1, reanudar: true))
        }
        #expect(throws: Fallo.uso("ms-por-minuto va de 0 a 600000, no «-1».")) {
            try juegos.lanzar(partido: 1, msPorMinuto: -1)
        }
        #expect(try nucleo.tienda.ejecuciones.todas(partido: 1).isEmpty)
    }
}
