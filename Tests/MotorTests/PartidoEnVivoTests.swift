import ApoyoDePruebas
import Synchronization
import Testing
import Torneo

@testable import Motor

/// The lesson's four model tests, on the sample match (12' Ana, 55' Iván, 80' Ana).
@MainActor
@Suite("PartidoEnVivo: las pruebas de la lección")
struct PartidoEnVivoLeccionTests {
    @Test func jugarAplicaLosGolesDelGuion() async throws {
        let modelo = PartidoEnVivo(partido: Ejemplo.rayoContraToros, msPorMinuto: 0)
        try await modelo.jugar(duracion: 90)
        #expect(modelo.minuto == 90)
        #expect(modelo.marcador == Marcador(local: 2, visitante: 1))
        #expect(!modelo.corriendo)
        #expect(modelo.ultimoAviso == "minuto 90 con 2-1")
        #expect(modelo.estado == .terminado)
    }

    @Test func unPartidoDeSesentaMinutosIgnoraLosGolesPosteriores() async throws {
        let modelo = PartidoEnVivo(partido: Ejemplo.rayoContraToros, msPorMinuto: 0)
        try await modelo.jugar(duracion: 60)
        #expect(modelo.marcador == Marcador(local: 1, visitante: 1))
        #expect(modelo.minuto == 60)
    }

    @Test func losGolesAManoSeSumanAlDelGuion() throws {
        let modelo = PartidoEnVivo(partido: Ejemplo.rayoContraToros, msPorMinuto: 0)
        try modelo.golAMano(.local)
        try modelo.golAMano(.visitante)
        try modelo.golAMano(.visitante)
        #expect(modelo.marcador == Marcador(local: 1, visitante: 2))
    }

    /// As in the lesson, 20 ms minutes on a clock the test moves: cancelled after seven.
    @Test func cancelarLaTareaDetieneElPartido() async {
        let registro = RegistroEspia()
        let reloj = RelojManual()
        let modelo = PartidoEnVivo(
            partido: Ejemplo.rayoContraToros, msPorMinuto: 20, reloj: Reloj(reloj),
            registro: registro)
        let tarea = Task { try await modelo.jugar(duracion: 90) }
        for minuto in 1...7 {
            await esperarHasta { modelo.corriendo && modelo.minuto == minuto - 1 }
            reloj.avanzar(.milliseconds(20))
        }
        await esperarHasta { modelo.minuto == 7 }
        tarea.cancel()
        let fin = try? await tarea.value
        #expect(modelo.minuto == 7)
        #expect(!modelo.corriendo)
        #expect(fin == .cancelado(enElMinuto: modelo.minuto))
        #expect(
            registro.lineas == [
                "partido CANCELADO en el minuto \(modelo.minuto) (\(modelo.identificador))"
            ])
    }
}

@MainActor
@Suite("PartidoEnVivo")
struct PartidoEnVivoTests {
    /// A manual clock makes the cancellation minute exact: 7 minutes pass, then the task is cancelled.
    @Test func cancelarEnUnMinutoConcretoLoAnotaEnElRegistro() async throws {
        let reloj = RelojManual()
        let registro = RegistroEspia()
        let modelo = PartidoEnVivo(
            partido: Ejemplo.rayoContraToros, msPorMinuto: 250, reloj: Reloj(reloj),
            registro: registro,
            nuevoCodigo: { "fd045" })
        let tarea = Task { try await modelo.jugar(duracion: 90) }
        for minuto in 1...7 {
            await esperarHasta { modelo.corriendo }
            reloj.avanzar(.milliseconds(250))
            await esperarHasta { modelo.minuto == minuto }
        }
        tarea.cancel()
        #expect(try await tarea.value == .cancelado(enElMinuto: 7))
        #expect(registro.lineas == ["partido CANCELADO en el minuto 7 (fd045)"])
        #expect(modelo.estado == .cancelado(enElMinuto: 7))
    }

    /// Deadlines count from the start: a minute that is late does not push the next ones back.
    @Test func losPlazosSeCuentanDesdeElInicio() async throws {
        let reloj = RelojManual()
        let modelo = PartidoEnVivo(
            partido: Ejemplo.rayoContraToros, msPorMinuto: 100, reloj: Reloj(reloj))
        let tarea = Task { try await modelo.jugar(duracion: 60) }
        await esperarHasta { modelo.corriendo }
        reloj.avanzar(.milliseconds(350))
        await esperarHasta { modelo.minuto == 3 }
        #expect(modelo.minuto == 3)
        reloj.avanzar(.milliseconds(5_650))
        #expect(try await tarea.value == .terminado(enElMinuto: 60))
    }

    @Test func terminarLoAnotaConElCodigo() async throws {
        let registro = RegistroEspia()
        let modelo = PartidoEnVivo(
            partido: Ejemplo.rayoContraToros, msPorMinuto: 0, registro: registro,
            nuevoCodigo: { "ab123" })
        try await modelo.jugar(duracion: 90)
        #expect(registro.lineas == ["partido TERMINADO en el minuto 90 (ab123)"])
    }

    /// Added-time goals of 45 are played at 45, by offset, whatever their order in the script.
    @Test func losGolesDelTiempoAnadidoVanPorOrden() async throws {
        let a = Equipo("A")
        let b = Equipo("B")
        let partido = Partido(
            id: 2, local: a, visitante: b,
            eventos: [
                .gol(
                    Gol(
                        minuto: MinutoDeJuego(45, anadido: 2), jugador: Jugador("Segundo", de: b),
                        lado: .visitante)),
                .gol(
                    Gol(
                        minuto: MinutoDeJuego(45, anadido: 1), jugador: Jugador("Primero", de: a),
                        lado: .local)),
                .gol(
                    Gol(
                        minuto: MinutoDeJuego(90, anadido: 4), jugador: Jugador("Tarde", de: a),
                        lado: .local)),
            ])
        let modelo = PartidoEnVivo(partido: partido, msPorMinuto: 0)
        var goles: [(String, Int)] = []
        modelo.alCambiar = { cambio in
            if case .gol(let aviso) = cambio { goles.append((aviso.jugador, modelo.minuto)) }
        }
        try await modelo.jugar(duracion: 90)
        #expect(goles.map(\.0) == ["Primero", "Segundo", "Tarde"])
        #expect(goles.map(\.1) == [45, 45, 90])
        #expect(modelo.marcador == Marcador(local: 2, visitante: 1))
    }

    /// A scripted red card is played at its minute: its «Tarjeta roja» notice, in the order of
    /// the script, the score untouched; a 60-minute run never reaches a card at 78'.
    @Test func unaRojaDelGuionSeJuegaEnSuMinutoSinTocarElMarcador() async throws {
        let a = Equipo("A")
        let b = Equipo("B")
        let partido = Partido(
            id: 2, local: a, visitante: b,
            eventos: [
                .gol(Gol(minuto: MinutoDeJuego(23), jugador: Jugador("Zoë", de: a), lado: .local)),
                .roja(
                    TarjetaRoja(
                        minuto: MinutoDeJuego(78), jugador: "Björn", equipo: "B", lado: .visitante,
                        dobleAmarilla: true)),
            ])
        let modelo = PartidoEnVivo(partido: partido, msPorMinuto: 0)
        var vistos: [String] = []
        modelo.alCambiar = { cambio in
            switch cambio {
            case .gol(let aviso): vistos.append("gol \(aviso.cuerpo) \(aviso.marcador)")
            case .roja(let aviso):
                vistos.append(
                    "\(aviso.titulo) \(aviso.cuerpo) \(aviso.identificador) \(modelo.minuto)")
            default: break
            }
        }
        try await modelo.jugar(duracion: 90)
        #expect(
            vistos == [
                "gol Zoë (A), minuto 23 1-0",
                "Tarjeta roja Björn (B, doble amarilla), minuto 78 roja-78-Björn 78",
            ])
        #expect(modelo.marcador == Marcador(local: 1, visitante: 0))
        vistos = []
        try await modelo.jugar(duracion: 60)
        #expect(vistos == ["gol Zoë (A), minuto 23 1-0"])
    }

    @Test func volverAJugarLoPoneTodoACero() async throws {
        let codigos = Mutex(["aaaaa", "bbbbb", "ccccc"])
        let modelo = PartidoEnVivo(
            partido: Ejemplo.rayoContraToros, msPorMinuto: 0,
            nuevoCodigo: { codigos.withLock { $0.removeFirst() } })
        try await modelo.jugar(duracion: 60)
        try modelo.golAMano(.local)
        #expect(modelo.identificador == "bbbbb")
        var alEmpezar: (Int, Marcador, String, Bool)?
        modelo.alCambiar = { cambio in
            if case .inicio = cambio {
                alEmpezar = (modelo.minuto, modelo.marcador, modelo.ultimoAviso, modelo.corriendo)
            }
        }
        try await modelo.jugar(duracion: 90)
        let inicio = try #require(alEmpezar)
        #expect(inicio.0 == 0)
        #expect(inicio.1 == .cero)
        #expect(inicio.2 == "ninguno")
        #expect(inicio.3)
        #expect(modelo.golesAMano == .cero)
        #expect(modelo.marcador == Marcador(local: 2, visitante: 1))
        #expect(modelo.identificador == "ccccc")
    }

    @Test func elAvisoCadaQuinceMinutosLlevaElMarcador() async throws {
        let modelo = PartidoEnVivo(partido: Ejemplo.rayoContraToros, msPorMinuto: 0)
        var avisos: [String] = []
        modelo.alCambiar = { cambio in
            if case .minuto = cambio, avisos.last != modelo.ultimoAviso {
                avisos.append(modelo.ultimoAviso)
            }
        }
        try await modelo.jugar(duracion: 90)
        #expect(
            avisos == [
                "ninguno", "minuto 15 con 1-0", "minuto 30 con 1-0", "minuto 45 con 1-0",
                "minuto 60 con 1-1",
                "minuto 75 con 1-1", "minuto 90 con 2-1",
            ])
    }

    @Test func elCodigoAleatorioTieneCincoCifrasHexadecimales() {
        for _ in 0..<100 {
            let codigo = PartidoEnVivo.codigoAleatorio()
            #expect(codigo.count == 5)
            #expect(codigo.allSatisfy { $0.isHexDigit })
        }
    }
}
