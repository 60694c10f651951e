import Almacen
import Foundation
import Motor
import Persistencia
import Sistema
import Synchronization
import Testing
import Torneo

@testable import Avisos

/// The engine, the outbox and the dispatcher together on an in-memory database, with spies as
/// channels: the lesson's notification tests and the outbox rules of delivery.md.
@MainActor
@Suite("Despachador")
struct DespachadorTests {
    let queue: DatabaseQueue
    let reloj = RelojDePared()

    init() throws {
        queue = try Almacen.enMemoria()
        try permitir(true)
    }

    /// Deliveries by state, leaving out the states with none.
    func recuento() throws -> [String: Int] {
        Dictionary(
            uniqueKeysWithValues: try BuzonSQLite(queue).recuento().filter { $0.value > 0 }
                .map { ($0.key.rawValue, $0.value) })
    }

    func permitir(_ permitido: Bool?) throws {
        let repositorio = PartidosSQLite(queue)
        var ajustes = try repositorio.ajustes()
        ajustes.avisosPermitidos = permitido
        try repositorio.guardar(ajustes)
    }

    func despachador(
        _ canales: [any Notificador], registro: any Registro = RegistroEspia(),
        configuracion: Despachador.Configuracion = Despachador.Configuracion(),
        arrendatario: String = "uno"
    ) -> Despachador {
        let repositorio = PartidosSQLite(queue)
        let reloj = reloj
        return Despachador(
            buzon: BuzonSQLite(queue), canales: canales, registro: registro,
            configuracion: configuracion,
            arrendatario: arrendatario, ahora: { reloj.ahora },
            permitido: { try repositorio.ajustes().avisosPermitidos == true })
    }

    /// Plays `partido` (stored under id 1 for the foreign key) with the outbox behind it.
    func jugar(_ partido: Partido, duracion: Int, antes: (PartidoEnVivo) throws -> Void = { _ in })
        async throws -> PartidoEnVivo
    {
        let reloj = reloj
        let modelo = PartidoEnVivo(
            partido: partido, msPorMinuto: 0,
            cronica: CronicaSQLite(queue, partidoId: 1, duracionFija: true, ahora: { reloj.ahora })
        )
        try antes(modelo)
        try await modelo.jugar(duracion: duracion)
        return modelo
    }

    // MARK: - The lesson's spy tests (sample match: 12' Ana, 55' Iván, 80' Ana)

    @Test func cadaGolDelGuionAvisaAlNotificador() async throws {
        let espia = NotificadorEspia()
        _ = try await jugar(Ejemplo.rayoContraToros, duracion: 90)
        try await despachador([espia]).enviarPendientes()
        #expect(espia.avisos.map(\.minuto.minuto) == [12, 55, 80])
        #expect(espia.avisos.map(\.jugador) == ["Ana", "Iván", "Ana"])
        #expect(espia.avisos.first?.equipo == "Rayo FC")
    }

    @Test func losGolesAManoNoAvisanYLosPosterioresALaDuracionTampoco() async throws {
        let espia = NotificadorEspia()
        let modelo = try await jugar(Ejemplo.rayoContraToros, duracion: 60)
        try modelo.golAMano(.local)
        try await despachador([espia]).enviarPendientes()
        #expect(espia.avisos.map(\.minuto.minuto) == [12, 55])
        #expect(modelo.marcador == Marcador(local: 2, visitante: 1))
    }

    /// The lanes call the store synchronously: they must run on the dispatcher's own threads,
    /// never on the cooperative pool (two blocked lanes would stop every task on 2 cores).
    @Test func losCarrilesNoOcupanElPoolCooperativo() async throws {
        final class HilosEspia: Notificador {
            let canal = "registro"
            let hilos = Mutex<[String]>([])
            func notificarGol(_ aviso: AvisoDeGol) async throws {
                hilos.withLock { $0.append(EjecutorDedicado.hiloActual) }
            }
        }
        let espia = HilosEspia()
        _ = try await jugar(Ejemplo.rayoContraToros, duracion: 90)
        try await despachador([espia]).enviarPendientes()
        let hilos = espia.hilos.withLock { $0 }
        #expect(hilos.count == 3)
        #expect(hilos.allSatisfy { $0 == EjecutorDedicado.deLaTienda.nombre }, "\(hilos)")
    }

    // MARK: - Partido 1 of the seed

    @Test func elPartidoUnoPublicaCuatroAvisosEnLosMinutosDiezYTreintaYCinco() async throws {
        let partido = try #require(try PartidosSQLite(queue).partido(id: 1))
        _ = try BuzonSQLite(queue).guardar(
            CanalConfigurado(nombre: "espia", tipo: .registro), reemplazar: false)
        _ = try await jugar(partido, duracion: 90)
        let registro = RegistroEspia()
        let espia = NotificadorEspia(canal: "espia")
        try await despachador([espia, CanalRegistro(registro: registro)], registro: registro)
            .enviarPendientes()
        let primeros = espia.avisos.filter { $0.minuto.minuto <= 35 }
        #expect(primeros.count == 4)
        #expect(Set(primeros.map(\.identificador)).count == 4)
        #expect(
            primeros.map(\.identificador) == [
                "gol-10-Ana", "gol-10-Iván", "gol-35-Luis", "gol-35-Sofía",
            ])
        #expect(primeros.map(\.cuerpo).first == "Ana (Rayo FC), minuto 10")
        #expect(
            Array(registro.lineas.prefix(4)) == [
                "notificación «¡Gol!» enviada: Ana, minuto 10 (Rayo FC)",
                "notificación «¡Gol!» enviada: Iván, minuto 10 (Toros)",
                "notificación «¡Gol!» enviada: Luis, minuto 35 (Rayo FC)",
                "notificación «¡Gol!» enviada: Sofía, minuto 35 (Toros)",
            ])
    }

    @Test func sinPermisoNoSeLlamaANingunCanalYQuedanDescartados() async throws {
        try permitir(false)
        let espia = NotificadorEspia()
        _ = try await jugar(Ejemplo.rayoContraToros, duracion: 90)
        try await despachador([espia]).enviarPendientes()
        #expect(espia.intentos == 0)
        #expect(try recuento() == ["descartada": 3])
        // Never asked counts as off too.
        try permitir(nil)
        _ = try await jugar(Ejemplo.rayoContraToros, duracion: 90)
        try await despachador([espia]).enviarPendientes()
        #expect(espia.intentos == 0)
        #expect(try recuento() == ["descartada": 6])
    }

    /// Permission revoked after enqueueing: the dispatcher discards instead of publishing.
    @Test func sinPermisoAlEntregarTambienSeDescarta() async throws {
        let espia = NotificadorEspia()
        _ = try await jugar(Ejemplo.rayoContraToros, duracion: 90)
        try permitir(false)
        let resumen = try await despachador([espia]).enviarPendientes()
        #expect(resumen.descartadas == 3)
        #expect(espia.intentos == 0)
    }

    /// Each run's notices go out in order; two runs are independent (a lane delivers one run's
    /// notices one after another and different runs concurrently: `Carril`), so the two runs'
    /// notices may interleave.
    @Test func volverAJugarAvisaOtraVez() async throws {
        let espia = NotificadorEspia()
        let modelo = try await jugar(Ejemplo.rayoContraToros, duracion: 90)
        try await modelo.jugar(duracion: 90)
        try await despachador([espia]).enviarPendientes()
        let porEjecucion = Dictionary(grouping: espia.avisos, by: { $0.ejecucion ?? 0 })
        #expect(porEjecucion.count == 2)
        for (_, avisos) in porEjecucion {
            #expect(avisos.map(\.minuto.minuto) == [12, 55, 80])
        }
        #expect(Set(espia.avisos.map(\.claveDeIdempotencia)).count == 6)
    }

    // MARK: - Dedup and leases

    @Test func elMismoGolEncoladoDosVecesSeEntregaUnaVezPorCanal() async throws {
        let uno = NotificadorEspia(canal: "uno")
        let dos = NotificadorEspia(canal: "dos")
        _ = try BuzonSQLite(queue).guardar(
            CanalConfigurado(nombre: "uno", tipo: .registro), reemplazar: false)
        _ = try BuzonSQLite(queue).guardar(
            CanalConfigurado(nombre: "dos", tipo: .registro), reemplazar: false)
        let cronica = CronicaSQLite(queue, partidoId: 1, duracionFija: false, ahora: { 1_000_000 })
        _ = try cronica.empezar(
            partido: Ejemplo.rayoContraToros, duracion: 90, msPorMinuto: 0, codigo: "x")
        let gol = Gol(
            minuto: MinutoDeJuego(12), jugador: Jugador("Ana", de: Equipo("Rayo FC")), lado: .local)
        let aviso = AvisoDeGol(
            gol: gol, en: Ejemplo.rayoContraToros, marcador: Marcador(local: 1, visitante: 0))
        _ = try cronica.registrar(
            minuto: 12, goles: aviso.marcador, avisos: [aviso], ultimoAviso: { _ in "" })
        _ = try cronica.registrar(
            minuto: 12, goles: aviso.marcador, avisos: [aviso, aviso], ultimoAviso: { _ in "" })
        try await despachador([uno, dos]).enviarPendientes()
        try await despachador([uno, dos], arrendatario: "otro").enviarPendientes()
        #expect(uno.avisos.map(\.identificador) == ["gol-12-Ana"])
        #expect(dos.avisos.map(\.identificador) == ["gol-12-Ana"])
    }

    /// A holder whose process is gone from this host has its deliveries taken at once, not
    /// when its lease runs out (issue 40); a living holder, and a holder of another host or of
    /// an older marcador (a name that does not say its process), keep theirs.
    @Test func lasEntregasDeUnArrendatarioMuertoSeTomanEnseguida() async throws {
        _ = try await jugar(Ejemplo.rayoContraToros, duracion: 90)
        let buzon = BuzonSQLite(queue)
        // A process that no longer exists: a child that has been waited for.
        let hijo = Process()
        hijo.executableURL = URL(fileURLWithPath: "/bin/true")
        try hijo.run()
        hijo.waitUntilExit()
        let muerto = Arrendatario(
            etiqueta: "despachador-muerto",
            propietario: Propietario(
                anfitrion: Propietario.actual.anfitrion, pid: Int(hijo.processIdentifier),
                inicio: 1))
        let vivo = Arrendatario(etiqueta: "despachador-vivo", propietario: .actual)
        let lejano = Arrendatario(
            etiqueta: "despachador-lejano",
            propietario: Propietario(anfitrion: "otra-maquina", pid: 1, inicio: 1))
        #expect(Arrendatario(texto: muerto.texto) == muerto)
        #expect(Arrendatario(texto: "despachador-123-456") == nil)
        func reclamar(_ quien: String) throws -> Int {
            try buzon.reclamar(
                Reclamo(
                    canal: "registro", arrendatario: quien, ahora: reloj.ahora, arriendo: 60,
                    limite: 10)
            ).count
        }
        #expect(try reclamar(muerto.texto) == 3)
        let registro = RegistroEspia()
        let espia = NotificadorEspia(canal: "registro")
        #expect(try await despachador([espia], registro: registro).enviarPendientes().total == 3)
        #expect(espia.avisos.count == 3)
        #expect(
            registro.lineas.contains(
                "3 avisos vuelven a la cola: su despachador (pid \(hijo.processIdentifier)) ya no existe"
            ))
        // The others keep their leases: nothing is delivered behind their back.
        _ = try await jugar(Ejemplo.rayoContraToros, duracion: 90)
        for otro in [vivo.texto, lejano.texto, "despachador-123-456"] {
            #expect(try reclamar(otro) == 3)
            #expect(try await despachador([espia]).enviarPendientes().total == 0)
            #expect(try buzon.arrendatarios() == [otro])
            try buzon.liberar(arrendatario: otro, canal: nil, ahora: reloj.ahora)
        }
    }

    /// A claimed delivery belongs to its dispatcher until the lease expires; then another one
    /// takes it and delivers it with the same identifier.
    @Test func unArriendoVencidoSeVuelveAReclamarConElMismoIdentificador() async throws {
        _ = try await jugar(Ejemplo.rayoContraToros, duracion: 90)
        let buzon = BuzonSQLite(queue)
        let primero = try buzon.reclamar(
            Reclamo(
                canal: "registro", arrendatario: "muerto", ahora: reloj.ahora, arriendo: 60,
                limite: 10))
        #expect(primero.count == 3)
        let espia = NotificadorEspia(canal: "registro")
        #expect(try await despachador([espia]).enviarPendientes().total == 0)
        reloj.avanzar(61)
        try await despachador([espia]).enviarPendientes()
        #expect(espia.avisos.map(\.identificador) == primero.map(\.aviso.identificador))
        #expect(espia.avisos.map(\.claveDeIdempotencia) == primero.map(\.aviso.claveDeIdempotencia))
        // The dead dispatcher's late outcome is ignored: the delivery is no longer its own.
        let tarde = try buzon.registrar(
            [
                ResultadoDeEntrega(
                    avisoId: primero[0].avisoId, canal: "registro", desenlace: .fallida(error: "x"))
            ],
            arrendatario: "muerto", ahora: reloj.ahora)
        #expect(tarde.guardados == 0)
        #expect(try recuento() == ["entregada": 3])
    }

    // MARK: - Channels that answer at once

    /// Two runs' notices in one claim go to the log in one call (one transaction): cutting
    /// the batch at every run made a commit per match, 4,000 for 20,000 notices of 5-goal
    /// matches, and halved `avisos enviar` (issue 25).
    @Test func unCanalInmediatoRecibeElLoteEnteroAunqueSeaDeVariasEjecuciones() async throws {
        let espia = InmediatoEspia()
        _ = try await jugar(Ejemplo.rayoContraToros, duracion: 90)
        _ = try await jugar(Ejemplo.rayoContraToros, duracion: 60)
        #expect(try await despachador([espia]).enviarPendientes().entregadas == 5)
        let todos = ["gol-12-Ana", "gol-55-Iván", "gol-80-Ana", "gol-12-Ana", "gol-55-Iván"]
        #expect(espia.llamadas == [todos])
        #expect(espia.avisos == todos)
    }

    /// A failure inside such a call: what was not attempted goes back, and no notice of any of
    /// those runs overtakes one of its own that waits. The other run goes out at the next
    /// claim; the failed one, after its backoff, in order; each notice once.
    @Test func unFalloDentroDelLoteRetieneLoQueFaltaDeCadaEjecucion() async throws {
        let espia = InmediatoEspia(falloEn: (llamada: 1, posicion: 1))
        var configuracion = Despachador.Configuracion()
        configuracion.politica = PoliticaDeReintentos(aleatorio: { 0.999 })
        let despachador = despachador([espia], configuracion: configuracion)
        _ = try await jugar(Ejemplo.rayoContraToros, duracion: 90)
        _ = try await jugar(Ejemplo.rayoContraToros, duracion: 60)
        let primera = try await despachador.enviarPendientes()
        #expect(primera.entregadas == 3)
        #expect(primera.reintentos == 1)
        #expect(
            espia.llamadas == [
                ["gol-12-Ana", "gol-55-Iván", "gol-80-Ana", "gol-12-Ana", "gol-55-Iván"],
                ["gol-12-Ana", "gol-55-Iván"],
            ])
        // The first run's 80th minute waits behind its 55th, which waits for its backoff.
        #expect(try recuento() == ["entregada": 3, "pendiente": 2])
        reloj.avanzar(2)
        #expect(try await despachador.enviarPendientes().entregadas == 2)
        #expect(espia.llamadas.last == ["gol-55-Iván", "gol-80-Ana"])
        #expect(
            espia.avisos == [
                "gol-12-Ana", "gol-12-Ana", "gol-55-Iván", "gol-55-Iván", "gol-80-Ana",
            ])
        #expect(try recuento() == ["entregada": 5])
    }

    // MARK: - Retries

    @Test func unCanalQueFallaDosVecesSeEntregaEnElTercerIntento() async throws {
        let transitorio = FalloDeEntrega("HTTP 503", reintentable: true)
        let espia = NotificadorEspia(canal: "registro", fallos: [transitorio, transitorio])
        let registro = RegistroEspia()
        var configuracion = Despachador.Configuracion()
        configuracion.politica = PoliticaDeReintentos(aleatorio: { 0.999 })
        let despachador = despachador([espia], registro: registro, configuracion: configuracion)
        _ = try await jugar(
            Partido(
                id: 1, local: Equipo("A"), visitante: Equipo("B"),
                eventos: [Ejemplo.rayoContraToros.eventos[0]]),
            duracion: 90)
        #expect(try await despachador.enviarPendientes().reintentos == 1)
        #expect(try await despachador.enviarPendientes().total == 0)  // not due yet: backoff
        reloj.avanzar(1)
        #expect(try await despachador.enviarPendientes().reintentos == 1)
        reloj.avanzar(1.5)
        #expect(try await despachador.enviarPendientes().total == 0)
        reloj.avanzar(0.5)
        #expect(try await despachador.enviarPendientes().entregadas == 1)
        #expect(espia.intentos == 3)
        #expect(espia.avisos.count == 1)
        #expect(
            registro.lineas
                == Array(
                    repeating: "no se pudo publicar la notificación: registro: HTTP 503", count: 2))
    }

    @Test func unCanalQueSiempreFallaAcabaFallidoYReintentarLoDevuelveALaCola() async throws {
        let roto = NotificadorRoto(
            canal: "registro", fallo: FalloDeEntrega("HTTP 500", reintentable: true))
        var configuracion = Despachador.Configuracion()
        configuracion.caducidad = 1_000_000
        let despachador = despachador([roto], configuracion: configuracion)
        _ = try await jugar(
            Partido(
                id: 1, local: Equipo("A"), visitante: Equipo("B"),
                eventos: [Ejemplo.rayoContraToros.eventos[0]]),
            duracion: 90)
        for _ in 0..<10 {
            try await despachador.enviarPendientes()
            reloj.avanzar(400)
        }
        let buzon = BuzonSQLite(queue)
        #expect(try recuento() == ["fallida": 1])
        let entrega = try #require(try buzon.ultimos(limite: 1).first?.entregas.first)
        #expect(entrega.intentos == 5)
        #expect(entrega.ultimoError == "HTTP 500")
        #expect(try buzon.reintentarFallidas(ahora: reloj.ahora) == 1)
        let espia = NotificadorEspia(canal: "registro")
        try await self.despachador([espia], configuracion: configuracion).enviarPendientes()
        #expect(espia.avisos.count == 1)
        #expect(try recuento() == ["entregada": 1])
    }

    @Test func unFalloPermanenteNoSeReintenta() async throws {
        let roto = NotificadorRoto(
            canal: "registro", fallo: FalloDeEntrega("HTTP 404", reintentable: false))
        _ = try await jugar(Ejemplo.rayoContraToros, duracion: 90)
        #expect(try await despachador([roto]).enviarPendientes().fallidas == 3)
    }

    @Test func unAvisoViejoCaducaEnVezDeLlegarTarde() async throws {
        let espia = NotificadorEspia(canal: "registro")
        let registro = RegistroEspia()
        _ = try await jugar(Ejemplo.rayoContraToros, duracion: 90)
        reloj.avanzar(601)
        let resumen = try await despachador([espia], registro: registro).enviarPendientes()
        #expect(resumen.caducadas == 3)
        #expect(espia.intentos == 0)
        #expect(
            registro.lineas.first
                == "aviso caducado, no se entrega por registro: gol-12-Ana (más de 600 s sin entregar)"
        )
    }

    /// The terminal banner is the playing process's own: another run's banners are not taken.
    @Test func elBannerSoloLoEntregaElProcesoDeSuEjecucion() async throws {
        let reloj = reloj
        let cronica = CronicaSQLite(
            queue, partidoId: 1, duracionFija: false, canalesPropios: ["terminal"],
            ahora: { reloj.ahora })
        let modelo = PartidoEnVivo(
            partido: Ejemplo.rayoContraToros, msPorMinuto: 0, cronica: cronica)
        try await modelo.jugar(duracion: 90)
        let ajeno = NotificadorEspia(canal: "terminal")
        let otro = despachador([ajeno])
        otro.atender(ejecucion: 999)
        try await otro.enviarPendientes()
        #expect(ajeno.intentos == 0)
        let propio = NotificadorEspia(canal: "terminal")
        let suyo = despachador([propio, NotificadorEspia(canal: "registro")])
        suyo.atender(ejecucion: cronica.ejecucion)
        try await suyo.enviarPendientes()
        #expect(propio.avisos.count == 3)
    }

    @Test func laEsperaCreceYTieneTope() {
        let politica = PoliticaDeReintentos(aleatorio: { 0.999_999 })
        #expect(abs(politica.demora(trasElIntento: 1) - 1) < 0.001)
        #expect(abs(politica.demora(trasElIntento: 4) - 8) < 0.01)
        #expect(politica.demora(trasElIntento: 20) <= 300)
        #expect(politica.demora(trasElIntento: 2, pedida: 30) == 30)
        let minima = PoliticaDeReintentos(aleatorio: { 0 })
        #expect(minima.demora(trasElIntento: 3) == 2)
    }
}
