import Almacen
import Aplicacion
import ApoyoDePruebas
import Avisos
import Foundation
import Persistencia
import Synchronization
import Testing
import Torneo

/// The use cases every front end calls (architecture.md), in process on an in-memory store: the
/// same sentences and the same kinds of failure for the terminal and the page.
@Suite("Núcleo: los casos de uso")
struct UsosTests {
    let nucleo: Nucleo

    init() throws { nucleo = try nucleoEnMemoria() }

    @Test func golAManoYSuDeshacer() throws {
        let anadido = try nucleo.golAMano(partido: 1, lado: .visitante, quitar: false)
        #expect(anadido.marcador == Marcador(local: 0, visitante: 1) && !anadido.quitado)
        #expect(Frases.golAMano(anadido) == "Gol a mano de Toros: Rayo FC 0-1 Toros.")
        let quitado = try nucleo.golAMano(partido: 1, lado: .visitante, quitar: true)
        #expect(quitado.marcador == .cero && quitado.quitado)
        #expect(Frases.golAMano(quitado) == "Gol a mano quitado a Toros: Rayo FC 0-0 Toros.")
        // Nothing left to undo: a conflict (64 on the command line, 409 on the page).
        #expect(throws: Fallo.conflicto("Toros no tiene goles a mano que quitar en el partido 1."))
        {
            try nucleo.golAMano(partido: 1, lado: .visitante, quitar: true)
        }
        #expect(throws: Fallo.self) { try nucleo.golAMano(partido: 9, lado: .local, quitar: false) }
        let lineas = try nucleo.registro(partido: 1, ultimas: nil).map(\.linea)
        #expect(lineas.count == 2)
        #expect(lineas.first?.hasPrefix("gol a mano de Toros: Rayo FC 0-1 Toros (") == true)
    }

    @Test func ajustesConSusFrasesYSusLimites() throws {
        try nucleo.cambiarMsPorMinuto(40)
        #expect(Frases.msPorMinuto(40) == "Milisegundos por minuto: 40.")
        try nucleo.cambiarSilencio(true)
        #expect(Frases.silencio(true) == "Silencio: sí (sin banner ni campana en la terminal).")
        #expect(Frases.silencio(false) == "Silencio: no.")
        try nucleo.permitirAvisos(true)
        #expect(Frases.permiso(true) == "Avisos de gol: activados")
        #expect(Frases.permiso(false) == "Avisos de gol: desactivados")
        #expect(try nucleo.cambiarDuracion(60) == 0)
        #expect(Frases.duracion(60, relanzados: 0) == ["Duración: 60 minutos."])
        #expect(
            Frases.duracion(90, relanzados: 2) == [
                "Duración: 90 minutos.",
                "2 partidos en juego vuelven a empezar con la nueva duración.",
            ])
        #expect(Frases.plazoDeAdjuntos(2.5) == "Plazo de los adjuntos: 2.5 s.")
        #expect(Frases.diasDeRegistro(1) == "El registro guarda 1 día.")
        #expect(Frases.lineasDeRegistro(500) == "El registro guarda 500 líneas como mucho.")
        let ajustes = try nucleo.ajustes()
        #expect(ajustes.msPorMinuto == 40 && ajustes.sinAvisosEnPrimerPlano)
        #expect(ajustes.avisosPermitidos == true && ajustes.duracion == 60)
        #expect(throws: Fallo.uso("Indica una duración de 60 o 90 minutos, no «45».")) {
            try nucleo.cambiarDuracion(45)
        }
        #expect(throws: Fallo.uso("registro-dias va de 1 a 3650, no «0».")) {
            try nucleo.cambiarDiasDeRegistro(0)
        }
        #expect(try nucleo.ajustes().duracion == 60)
    }

    @Test func losNombresSeBuscanSinMayusculasNiAcentos() throws {
        var vistos: [Int] = []
        try nucleo.recorrerPartidos(FiltroDePartidos(equipo: "toros")) { vistos.append($0.id) }
        #expect(vistos == [1])
        #expect(throws: Fallo.self) {
            try nucleo.recorrerPartidos(FiltroDePartidos(equipo: "Torso")) { _ in }
        }
        do {
            try nucleo.recorrerPartidos(FiltroDePartidos(equipo: "Torso")) { _ in }
        } catch let fallo as Fallo {
            #expect(fallo.clase == .noEncontrado)
            #expect(fallo.mensaje == "No hay ningún equipo llamado «Torso». ¿Quizá «Toros»?")
        }
        #expect(
            throws: Fallo.noEncontrado(
                "No hay ninguna competición llamada «x». Todavía no hay competiciones.")
        ) {
            try nucleo.clasificacion(competicion: "x")
        }
    }

    @Test func laFichaDeUnPartido() throws {
        let ficha = try nucleo.ficha(2)
        #expect(ficha.ficha.partido.local.nombre == "Águilas CF")
        #expect(ficha.goles.first?.minuto == "23")
        #expect(ficha.ejecuciones.isEmpty)
        #expect(ficha.resumen?.estado == .sinEmpezar)
        #expect(throws: Fallo.self) { try nucleo.ficha(99) }
    }

    @Test func canales() throws {
        let nombre = try nucleo.anadirCanal(
            .registro, nombre: "bitacora", ajustes: AjustesDeCanal(),
            seguimiento: Seguimiento(equipos: ["TOROS"]))
        #expect(nombre == "bitacora")
        #expect(
            Frases.canalGuardado(nombre, .registro, reemplazado: false)
                == "Canal «bitacora» (registro) añadido.")
        #expect(
            Frases.canalGuardado(nombre, .registro, reemplazado: true)
                == "Canal «bitacora» (registro) guardado.")
        #expect(try nucleo.canales().map(\.nombre) == ["bitacora", "registro"])
        #expect(try nucleo.canales().first?.sigue.equipos == ["Toros"])
        #expect(throws: Fallo.self) {
            try nucleo.anadirCanal(.registro, nombre: "bitacora", ajustes: AjustesDeCanal())
        }
        #expect(
            throws: Fallo.uso(
                "La URL del webhook debe empezar por http:// o https://: «ftp://***».")
        ) {
            try nucleo.anadirCanal(.webhook, nombre: nil, ajustes: AjustesDeCanal(url: "ftp://x"))
        }
        try nucleo.activarCanal("bitacora", activo: false)
        #expect(try nucleo.canales().first { $0.nombre == "bitacora" }?.activo == false)
        #expect(Frases.canalActivo("bitacora", false) == "Canal «bitacora» en pausa.")
        try nucleo.quitarCanal("bitacora")
        #expect(Frases.canalQuitado("bitacora") == "Canal «bitacora» quitado.")
        #expect(throws: Fallo.noEncontrado("No hay ningún canal llamado «bitacora».")) {
            try nucleo.quitarCanal("bitacora")
        }
    }

    @Test func importarSimulandoNoEscribeNada() throws {
        let ruta = FileManager.default.temporaryDirectory.path + "/nucleo-\(UUID()).json"
        try """
        {"name": "Prueba", "matches": [{"team1": "A", "team2": "B", "date": "2026-01-02",
          "score": {"ft": [1, 0]}, "goals1": [{"name": "Uno", "minute": 5}]}]}
        """.write(toFile: ruta, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: ruta) }
        let competicion = try Nucleo.leerPartidos(ruta)
        #expect(try nucleo.importar(competicion, simular: true).resumen.nuevos == 1)
        #expect(try nucleo.competiciones().compactMap(\.nombre).isEmpty)
        #expect(try nucleo.importar(competicion, simular: false).resumen.nuevos == 1)
        #expect(try nucleo.importar(competicion, simular: false).resumen.yaEstaban == 1)
        #expect(throws: Fallo.noEncontrado("No existe el fichero «/no/existe.json».")) {
            try Nucleo.leerPartidos("/no/existe.json")
        }
    }
}

/// A drain the store fails (architecture.md): work is left undone, so `avisos enviar` must not end
/// as if it were done — it fails (74) saying how much is left, with the leases given back.
@Suite("Núcleo: un envío que la tienda no deja terminar")
struct EnvioFallidoTests {
    struct Averia: Error {}

    /// Every call goes to the real outbox, but a claim throws.
    struct BuzonQueFalla: Buzon {
        let base: any Buzon
        func reclamar(_ reclamo: Reclamo) throws -> [EntregaReclamada] { throw Averia() }
        func quedanReclamables(_ reclamo: Reclamo) throws -> Bool { throw Averia() }
        func registrar(_ r: [ResultadoDeEntrega], arrendatario: String, ahora: Double) throws
            -> ResultadosGuardados
        {
            try base.registrar(r, arrendatario: arrendatario, ahora: ahora)
        }
        func renovar(_ e: [String: [Int]], arrendatario: String, hasta: Double) throws -> Int {
            try base.renovar(e, arrendatario: arrendatario, hasta: hasta)
        }
        func conArriendo(_ a: [Int], canal: String, arrendatario: String, ahora: Double) throws
            -> Set<Int>
        {
            try base.conArriendo(a, canal: canal, arrendatario: arrendatario, ahora: ahora)
        }
        func soltar(_ e: [String: [Int]], arrendatario: String, ahora: Double) throws -> Int {
            try base.soltar(e, arrendatario: arrendatario, ahora: ahora)
        }
        func arrendatarios() throws -> Set<String> { try base.arrendatarios() }
        func sesionesDeMarcador() throws -> Set<String>? { try base.sesionesDeMarcador() }
        func liberar(arrendatario: String, canal: String?, ahora: Double) throws -> Int {
            try base.liberar(arrendatario: arrendatario, canal: canal, ahora: ahora)
        }
        func caducarBannersHuerfanos(ahora: Double) throws -> Int { 0 }
        func anotarEnriquecimiento(aviso: Int, enriquecido: Bool, motivo: String?) throws {}
        func reintentarFallidas(ahora: Double) throws -> Int { 0 }
        func recuento() throws -> [EstadoDeEntrega: Int] { try base.recuento() }
        func pendientesPorCanal(ejecucion: Int?) throws -> [String: Int] {
            try base.pendientesPorCanal(ejecucion: ejecucion)
        }
        func ultimos(limite: Int) throws -> [AvisoEnBuzon] { try base.ultimos(limite: limite) }
        func avisosDelDirecto(partido: Int, tipos: [TipoDeAviso]) throws -> [AvisoDeGol] {
            try base.avisosDelDirecto(partido: partido, tipos: tipos)
        }
        func proximoVencimiento(canal: String) throws -> Double? { nil }
        func canales() throws -> [CanalConfigurado] { try base.canales() }
        func dispositivos() throws -> [CanalConfigurado] { try base.dispositivos() }
        func dispositivosDeNombreAntiguo(_ nombre: String?) throws -> [String: String] {
            try base.dispositivosDeNombreAntiguo(nombre)
        }
        func existe(_ nombre: String) throws -> TipoDeCanal? { try base.existe(nombre) }
        func guardar(_ canales: [CanalConfigurado]) throws -> Int { try base.guardar(canales) }
        func guardar(_ canal: CanalConfigurado, reemplazar: Bool) throws -> Bool { false }
        func cambiarFiltros(_ nombre: String, _ filtros: FiltrosDeCanal) throws -> Bool { false }
        func encolarPrueba(canal: String?, ahora: Double) throws -> Int { 0 }
        func encolarRecordatorios(
            _ recordatorios: [(aviso: AvisoDeGol, saque: Double)], ahora: Double
        ) throws -> Int { throw Averia() }
        func entregas(aviso: Int) throws -> [EntregaDeAviso] { [] }
        func quitarCanal(_ nombre: String) throws -> Bool { false }
        func activarCanal(_ nombre: String, activo: Bool) throws -> Bool { false }
        func credenciales() throws -> [String: String] { [:] }
        func guardarCredenciales(_ valores: [String: String?], siFalta: Bool) throws
            -> [String: String]
        { throw Averia() }
    }

    @MainActor
    @Test func enviarFallaYDiceCuantoQueda() async throws {
        let base = TiendaSQLite(try Almacen.enMemoria())
        _ = try base.partidos.actualizarAjustes { $0.avisosPermitidos = true }
        let nucleoReal = Nucleo(tienda: base, entorno: [:])
        _ = try await Juegos(nucleo: nucleoReal, registro: RegistroEspia()).jugar(
            PeticionDeJuego(partido: 1, msPorMinuto: 0))
        // The store as it is, but for claims, which fail.
        let tienda = TiendaCambiada(base: base, buzon: BuzonQueFalla(base: base.buzon))
        let nucleo = Nucleo(tienda: tienda, entorno: [:])
        let reparto = Reparto(nucleo) { _ in }
        do {
            _ = try await reparto.enviar(configuracion: Despachador.Configuracion())
            Issue.record("un envío que no pudo reclamar nada no puede acabar bien")
        } catch let fallo as Fallo {
            #expect(fallo.clase == .entradaSalida)
            #expect(fallo.mensaje.contains("5 entregas quedan pendientes"), "\(fallo.mensaje)")
        }
    }
}

/// The prune commands and dispatchers run as they go (safety.md) happens once per
/// `Nucleo.intervaloDePoda` of the store's clock; a retention setting prunes at once.
@Suite("Núcleo: la poda de cada minuto")
struct PodaPorIntervaloTests {
    @Test func unaPodaPorMinutoYLaDeUnAjusteEnSeguida() throws {
        // The store as it is, with its clock in the test's hands.
        let hora = Mutex(1e9)
        let tienda = TiendaCambiada(
            base: TiendaSQLite(try Almacen.enMemoria()), ahora: { hora.withLock { $0 } })
        let nucleo = Nucleo(tienda: tienda, entorno: [:], reloj: Reloj(RelojManual()))
        var ajustes = try tienda.partidos.ajustes()
        ajustes.lineasDeRegistro = 100
        try tienda.partidos.guardar(ajustes)
        let registro = tienda.registro(eco: false)
        func lineas() throws -> Int {
            try tienda.lineasDelRegistro(partido: nil, limite: nil).count
        }
        func anotar(_ n: Int) { registro.anotar(lineas: (0..<n).map { ("línea \($0)", nil) }) }

        anotar(250)
        try nucleo.podarSiToca()
        #expect(try lineas() == 100)
        anotar(250)
        // Within the minute: another command does not prune again.
        hora.withLock { $0 += Nucleo.intervaloDePoda - 1 }
        try nucleo.podarSiToca()
        #expect(try lineas() == 350)
        // A minute after the last prune, the next one does.
        hora.withLock { $0 += 1 }
        try nucleo.podarSiToca()
        #expect(try lineas() == 100)
        // A retention setting changed within the minute prunes at once.
        anotar(250)
        _ = try nucleo.cambiarLineasDeRegistro(100)
        #expect(try lineas() <= 101)
    }
}
