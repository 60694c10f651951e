import Almacen
import AlmacenPostgreSQL
import ApoyoDePruebas
import Foundation
import Motor
import Persistencia
import Sistema
import Synchronization
import Testing
import Torneo

/// The store contract (postgresql.md): what every command relies on, through the protocols only,
/// run on SQLite (in memory) and on a real PostgreSQL server, case by case.
enum ContratoDeTienda: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case semillasYAjustes
    case unPartidoEnteroDejaSusAvisosYSusCambios
    case unaEjecucionNuevaDetieneLaAnterior
    case golesAMano
    case reclamosConArriendo
    case losAvisosDeUnaEjecucionSalenEnOrden
    case resultadosSoloConElArriendoPropio
    case canalesYSeguimiento
    case cadaAvisoVaALosCanalesQueLoSiguen
    case pruebasYBannersHuerfanos
    case cambiosYNotificaciones
    case poda
    case unaPodaPorIntervalo
    case importacion
    case registro
    case reanudarTrasUnaMuerte
    case quienPierdeLaEjecucionNoEscribeMas

    var testDescription: String { rawValue }

    /// Runs the case against `tienda`, a store freshly opened (migrated and seeded).
    func comprobar(_ tienda: any Tienda) async throws {
        switch self {
        case .semillasYAjustes: try semillasYAjustes(tienda)
        case .unPartidoEnteroDejaSusAvisosYSusCambios:
            try await unPartidoEnteroDejaSusAvisosYSusCambios(tienda)
        case .unaEjecucionNuevaDetieneLaAnterior: try unaEjecucionNuevaDetieneLaAnterior(tienda)
        case .golesAMano: try golesAMano(tienda)
        case .reclamosConArriendo: try await reclamosConArriendo(tienda)
        case .losAvisosDeUnaEjecucionSalenEnOrden:
            try await losAvisosDeUnaEjecucionSalenEnOrden(tienda)
        case .resultadosSoloConElArriendoPropio: try await resultadosSoloConElArriendoPropio(tienda)
        case .canalesYSeguimiento: try canalesYSeguimiento(tienda)
        case .cadaAvisoVaALosCanalesQueLoSiguen:
            try await cadaAvisoVaALosCanalesQueLoSiguen(tienda)
        case .pruebasYBannersHuerfanos: try await pruebasYBannersHuerfanos(tienda)
        case .cambiosYNotificaciones: try await cambiosYNotificaciones(tienda)
        case .poda: try await poda(tienda)
        case .unaPodaPorIntervalo: try unaPodaPorIntervalo(tienda)
        case .importacion: try importacion(tienda)
        case .registro: try registro(tienda)
        case .reanudarTrasUnaMuerte: try await reanudarTrasUnaMuerte(tienda)
        case .quienPierdeLaEjecucionNoEscribeMas: try quienPierdeLaEjecucionNoEscribeMas(tienda)
        }
    }

    static let partidoUno = [
        "gol-10-Ana", "gol-10-Iván", "gol-35-Luis", "gol-35-Sofía", "gol-60-Marta",
    ]

    /// Plays partido 1 to the end at 0 ms a minute with notices on; its run.
    @MainActor
    static func jugarPartidoUno(
        _ tienda: any Tienda, propietario: Propietario = .actual, propios: [String] = []
    ) async throws -> Int {
        var ajustes = try tienda.partidos.ajustes()
        ajustes.avisosPermitidos = true
        try tienda.partidos.guardar(ajustes)
        let partido = try #require(try tienda.partidos.partido(id: 1))
        let cronica = tienda.ejecuciones.cronica(
            partido: 1, duracionFija: true, canalesPropios: propios, propietario: propietario)
        let fin = try await PartidoEnVivo(partido: partido, msPorMinuto: 0, cronica: cronica)
            .jugar(duracion: 90)
        #expect(fin == .terminado(enElMinuto: 90))
        return try #require(cronica.ejecucion)
    }

    static func reclamo(_ arrendatario: String, ahora: Double = segundosUnix(), limite: Int = 100)
        -> Reclamo
    {
        Reclamo(
            canal: "registro", arrendatario: arrendatario, ahora: ahora, arriendo: 60,
            limite: limite)
    }

    // MARK: - Cases

    func semillasYAjustes(_ tienda: any Tienda) throws {
        let partidos = try tienda.partidos.partidos()
        #expect(partidos.map(\.id) == [1, 2, 3])
        #expect(partidos.map(\.local.nombre) == ["Rayo FC", "Águilas CF", "Dragones del Norte"])
        #expect(partidos[0].eventos.count == 5)
        #expect(partidos[2].tieneProrroga)
        let resumenes = try tienda.partidos.resumenes()
        #expect(resumenes.map(\.estado) == [.sinEmpezar, .sinEmpezar, .sinEmpezar])
        #expect(resumenes.map(\.duracion) == [90, 90, 120])
        var ajustes = try tienda.partidos.ajustes()
        #expect(ajustes.duracion == 90)
        #expect(ajustes.avisosPermitidos == nil)
        #expect(try !tienda.partidos.avisosPermitidos())
        ajustes.duracion = 60
        ajustes.sinAvisosEnPrimerPlano = true
        ajustes.avisosPermitidos = true
        ajustes.plazoDeAdjuntos = 2.5
        try tienda.partidos.guardar(ajustes)
        #expect(try tienda.partidos.ajustes() == ajustes)
        #expect(try tienda.partidos.avisosPermitidos())
        #expect(try tienda.partidos.equipos().count == 6)
        let competiciones = try tienda.partidos.competiciones()
        #expect(competiciones.map(\.partidos) == [3])
        #expect(try tienda.partidos.ficha(id: 1)?.partido.eventos.count == 5)
        #expect(try tienda.partidos.ficha(id: 99) == nil)
    }

    @MainActor
    func unPartidoEnteroDejaSusAvisosYSusCambios(_ tienda: any Tienda) async throws {
        let antes = try tienda.cambios.ultimo()
        let ejecucion = try await Self.jugarPartidoUno(tienda)
        let guardada = try #require(try tienda.ejecuciones.ultima(partido: 1))
        #expect(guardada.id == ejecucion)
        #expect(guardada.estado == .terminado)
        #expect(guardada.goles == Marcador(local: 3, visitante: 2))
        #expect(guardada.ultimoAviso == "minuto 90 con 3-2")
        #expect(try tienda.partidos.resumenes().first?.estado == .terminado)
        #expect(try tienda.buzon.pendientesPorCanal(ejecucion: ejecucion) == ["registro": 5])
        let ultimos = try tienda.buzon.ultimos(limite: 10)
        #expect(ultimos.map(\.aviso.identificador).reversed() == Self.partidoUno)
        #expect(ultimos.first?.aviso.cuerpo == "Marta (Rayo FC), minuto 60")
        // One change when the run starts, one per minute, one for the final whistle.
        let cambios = try tienda.cambios.desde(antes, limite: 1_000).filter { $0.clase == .partido }
        #expect(cambios.compactMap(\.instantanea?.minuto) == Array(0...90) + [90])
        #expect(cambios.last?.instantanea?.estado == .terminado)
        #expect(cambios.last?.instantanea?.ultimoAviso == "minuto 90 con 3-2")
        #expect(zip(cambios, cambios.dropFirst()).allSatisfy { $0.id < $1.id })
        #expect(try tienda.ejecuciones.todas(partido: 1).count == 1)
    }

    func unaEjecucionNuevaDetieneLaAnterior(_ tienda: any Tienda) throws {
        let partido = try #require(try tienda.partidos.partido(id: 2))
        // Another process, alive (this one, under another identity): it must be asked to stop.
        let otro = Propietario(
            anfitrion: Propietario.actual.anfitrion, pid: Propietario.actual.pid, inicio: 0)
        let primera = tienda.ejecuciones.cronica(
            partido: 2, duracionFija: true, canalesPropios: [], propietario: otro)
        try primera.empezar(partido: partido, duracion: 90, msPorMinuto: 0, codigo: "aaaaa")
        // A minute that leaves the last notice alone is written by the fast path.
        #expect(
            try primera.registrar(minuto: 1, goles: .cero, avisos: [], ultimoAviso: nil)
                == .hecha(golesAMano: .cero))
        #expect(try tienda.ejecuciones.ultima(partido: 2)?.minuto == 1)
        let segunda = tienda.ejecuciones.cronica(
            partido: 2, duracionFija: true, canalesPropios: [], propietario: .actual)
        let detenidas = try segunda.empezar(
            partido: partido, duracion: 90, msPorMinuto: 0, codigo: "bbbbb")
        #expect(detenidas.map(\.id) == [try #require(primera.ejecucion)])
        #expect(
            try tienda.ejecuciones.cancelacionPedida(ejecucion: primera.ejecucion!) == .reemplazo)
        // The replaced run writes nothing more and cannot finish.
        #expect(
            try primera.registrar(minuto: 2, goles: .cero, avisos: [], ultimoAviso: { _ in "" })
                == .parada)
        #expect(
            try primera.registrar(minuto: 2, goles: .cero, avisos: [], ultimoAviso: nil)
                == .parada)
        #expect(
            try tienda.ejecuciones.todas(partido: 2).first { $0.id == primera.ejecucion }?.minuto
                == 1)
        #expect(try primera.terminar(minuto: 2) == .parada)
        try primera.cancelar(minuto: 1)
        #expect(try segunda.terminar(minuto: 0) == .hecha(golesAMano: .cero))
        #expect(try tienda.ejecuciones.ultima(partido: 2)?.id == segunda.ejecucion)
        // Changing the duration asks the live runs that follow it to stop.
        let tercera = tienda.ejecuciones.cronica(
            partido: 3, duracionFija: false, canalesPropios: [], propietario: otro)
        let partido3 = try #require(try tienda.partidos.partido(id: 3))
        try tercera.empezar(partido: partido3, duracion: 120, msPorMinuto: 0, codigo: "ccccc")
        let afectadas = try tienda.ejecuciones.cambiarDuracion(60, propietario: .actual)
        #expect(afectadas.map(\.id) == [try #require(tercera.ejecucion)])
        #expect(
            try tienda.ejecuciones.cancelacionPedida(ejecucion: tercera.ejecucion!) == .duracion)
        #expect(try tienda.partidos.ajustes().duracion == 60)
    }

    func golesAMano(_ tienda: any Tienda) throws {
        #expect(
            try tienda.ejecuciones.golAMano(
                partido: 1, lado: .local, quitar: true, duracion: 90, codigo: "x") == nil)
        let uno = try #require(
            try tienda.ejecuciones.golAMano(
                partido: 1, lado: .local, quitar: false, duracion: 90, codigo: "x"))
        #expect(uno.estado == .sinEmpezar)
        #expect(uno.golesAMano == Marcador(local: 1, visitante: 0))
        _ = try tienda.ejecuciones.golAMano(
            partido: 1, lado: .visitante, quitar: false, duracion: 90, codigo: "x")
        let quitado = try #require(
            try tienda.ejecuciones.golAMano(
                partido: 1, lado: .local, quitar: true, duracion: 90, codigo: "x"))
        #expect(quitado.golesAMano == Marcador(local: 0, visitante: 1))
        #expect(
            try tienda.ejecuciones.golAMano(
                partido: 1, lado: .local, quitar: true, duracion: 90, codigo: "x") == nil)
        #expect(try tienda.ejecuciones.todas(partido: 1).count == 1)
    }

    @MainActor
    func reclamosConArriendo(_ tienda: any Tienda) async throws {
        _ = try await Self.jugarPartidoUno(tienda)
        let ahora = segundosUnix()
        let uno = try tienda.buzon.reclamar(Self.reclamo("uno", ahora: ahora, limite: 2))
        #expect(uno.map(\.aviso.identificador) == Array(Self.partidoUno.prefix(2)))
        #expect(uno.allSatisfy { $0.intento == 1 })
        // Leased by «uno»: «dos» gets nothing of that run (its notices go out in order).
        #expect(try tienda.buzon.reclamar(Self.reclamo("dos", ahora: ahora)).isEmpty)
        // Only what the holder names is renewed or given back, and only if it holds it.
        let primera = [uno[0].canal: [uno[0].avisoId]]
        #expect(try tienda.buzon.renovar(primera, arrendatario: "dos", hasta: ahora + 120) == 0)
        #expect(try tienda.buzon.renovar(primera, arrendatario: "uno", hasta: ahora + 120) == 1)
        #expect(try tienda.buzon.soltar(primera, arrendatario: "uno", ahora: ahora) == 1)
        #expect(try tienda.buzon.liberar(arrendatario: "uno", canal: nil, ahora: ahora) == 1)
        let dos = try tienda.buzon.reclamar(Self.reclamo("dos", ahora: ahora))
        #expect(dos.map(\.aviso.identificador) == Self.partidoUno)
        // A lease that expired can be taken again, with the attempt counted once.
        let tarde = try tienda.buzon.reclamar(Self.reclamo("tres", ahora: ahora + 61))
        #expect(tarde.count == 5)
    }

    @MainActor
    func losAvisosDeUnaEjecucionSalenEnOrden(_ tienda: any Tienda) async throws {
        _ = try await Self.jugarPartidoUno(tienda)
        let ahora = segundosUnix()
        #expect(try tienda.buzon.quedanReclamables(Self.reclamo("uno", ahora: ahora)))
        let primero = try tienda.buzon.reclamar(Self.reclamo("uno", ahora: ahora, limite: 1))
        #expect(primero.map(\.aviso.identificador) == ["gol-10-Ana"])
        // The rest wait while Ana's is leased (and are not claimable: a drain may end)…
        #expect(try tienda.buzon.reclamar(Self.reclamo("dos", ahora: ahora)).isEmpty)
        #expect(try !tienda.buzon.quedanReclamables(Self.reclamo("dos", ahora: ahora)))
        try tienda.buzon.registrar(
            [
                ResultadoDeEntrega(
                    avisoId: primero[0].avisoId, canal: "registro", desenlace: .entregada)
            ],
            arrendatario: "uno", ahora: ahora)
        // …and go once it is delivered.
        let resto = try tienda.buzon.reclamar(Self.reclamo("dos", ahora: ahora))
        #expect(resto.map(\.aviso.identificador) == Array(Self.partidoUno.dropFirst()))
        // A notice waiting for its retry holds back the later ones of its run (the order
        // holds across retries), for every dispatcher, until it is due…
        try tienda.buzon.registrar(
            [
                ResultadoDeEntrega(
                    avisoId: resto[0].avisoId, canal: "registro",
                    desenlace: .reintentar(cuando: ahora + 10, error: "503"))
            ], arrendatario: "dos", ahora: ahora)
        let tras = ahora + 100
        try tienda.buzon.liberar(arrendatario: "dos", canal: nil, ahora: ahora)
        #expect(try tienda.buzon.reclamar(Self.reclamo("tres", ahora: ahora + 1)).isEmpty)
        #expect(try !tienda.buzon.quedanReclamables(Self.reclamo("tres", ahora: ahora + 1)))
        // …a first-attempts-only lane (the one inside `jugar`) never takes it, so it takes none
        // of the later ones either…
        var soloPrimeros = Self.reclamo("tres", ahora: tras)
        soloPrimeros.soloPrimerosIntentos = true
        #expect(try tienda.buzon.reclamar(soloPrimeros).isEmpty)
        #expect(try !tienda.buzon.quedanReclamables(soloPrimeros))
        // …a full dispatcher takes it first and the rest behind it, in order…
        #expect(try tienda.buzon.quedanReclamables(Self.reclamo("cuatro", ahora: tras)))
        let enOrden = try tienda.buzon.reclamar(Self.reclamo("cuatro", ahora: tras))
        #expect(enOrden.map(\.aviso.identificador) == Array(Self.partidoUno.dropFirst()))
        try tienda.buzon.liberar(arrendatario: "cuatro", canal: nil, ahora: tras)
        // …and once it is older than its time-to-live it holds nothing back.
        var tarde = Self.reclamo("cinco", ahora: ahora + 10_000)
        tarde.soloPrimerosIntentos = true
        #expect(
            try tienda.buzon.reclamar(tarde).map(\.aviso.identificador)
                == Array(Self.partidoUno.dropFirst(2)))
    }

    @MainActor
    func resultadosSoloConElArriendoPropio(_ tienda: any Tienda) async throws {
        _ = try await Self.jugarPartidoUno(tienda)
        let ahora = segundosUnix()
        let lote = try tienda.buzon.reclamar(Self.reclamo("uno", ahora: ahora))
        let desenlaces: [ResultadoDeEntrega.Desenlace] = [
            .entregada, .reintentar(cuando: ahora + 30, error: "503"), .fallida(error: "410"),
            .descartada(motivo: "sin permiso"), .descartada(motivo: "sin permiso"),
        ]
        let resultados = zip(lote, desenlaces).map { entrega, desenlace in
            ResultadoDeEntrega(
                avisoId: entrega.avisoId, canal: "registro", desenlace: desenlace,
                anotacion: .init("línea de \(entrega.aviso.identificador)", partido: 1))
        }
        func lineas() throws -> [String] {
            try tienda.lineasDelRegistro(partido: 1, limite: nil).map(\.linea).filter {
                $0.hasPrefix("línea de ")
            }
        }
        // Someone else's outcomes are ignored, and write no line.
        #expect(
            try tienda.buzon.registrar(resultados, arrendatario: "otro", ahora: ahora)
                == ResultadosGuardados())
        #expect(try lineas().isEmpty)
        // The holder's are stored; the delivered one's line goes in with it (issue 41), once.
        let guardado = try tienda.buzon.registrar(resultados, arrendatario: "uno", ahora: ahora)
        #expect(guardado == ResultadosGuardados(guardados: 5, anotados: [lote[0].avisoId]))
        #expect(try lineas() == ["línea de \(lote[0].aviso.identificador)"])
        #expect(
            try tienda.buzon.registrar(resultados, arrendatario: "uno", ahora: ahora).guardados
                == 0)
        #expect(try lineas().count == 1)
        let recuento = try tienda.buzon.recuento()
        #expect(recuento[.entregada] == 1)
        #expect(recuento[.pendiente] == 1)
        #expect(recuento[.fallida] == 1)
        #expect(recuento[.descartada] == 2)
        let proximo = try #require(try tienda.buzon.proximoVencimiento(canal: "registro"))
        #expect(abs(proximo - (ahora + 30)) < 0.001)
        #expect(try tienda.buzon.reintentarFallidas(ahora: ahora) == 1)
        #expect(try tienda.buzon.recuento()[.fallida] == 0)
        let entregas = try tienda.buzon.entregas(aviso: lote[0].avisoId)
        #expect(entregas.map(\.estado) == [.entregada])
        #expect(entregas.first?.intentos == 1)
        try tienda.buzon.anotarEnriquecimiento(
            aviso: lote[2].avisoId, enriquecido: true, motivo: nil)
        #expect(
            try tienda.buzon.ultimos(limite: 5).first { $0.id == lote[2].avisoId }?.enriquecido
                == true)
    }

    func canalesYSeguimiento(_ tienda: any Tienda) throws {
        #expect(try tienda.buzon.canales().map(\.nombre) == ["registro"])
        let toros = CanalConfigurado(
            nombre: "toros", tipo: .webhook, ajustes: #"{"url":"http://127.0.0.1:9/x"}"#,
            filtros: FiltrosDeCanal(equipos: ["Toros"], partidos: [3]))
        #expect(try tienda.buzon.guardar(toros, reemplazar: false))
        #expect(try !tienda.buzon.guardar(toros, reemplazar: false))
        var cambiado = toros
        cambiado.activo = false
        #expect(try tienda.buzon.guardar(cambiado, reemplazar: true))
        let leidos = try tienda.buzon.canales()
        #expect(leidos.map(\.nombre) == ["registro", "toros"])
        #expect(leidos[1] == cambiado)
        #expect(try tienda.buzon.cambiarFiltros("toros", FiltrosDeCanal(competiciones: ["Liga"])))
        #expect(try tienda.buzon.canales()[1].filtros.competiciones == ["Liga"])
        #expect(try !tienda.buzon.cambiarFiltros("nadie", FiltrosDeCanal()))
        #expect(try tienda.buzon.activarCanal("toros", activo: true))
        #expect(try !tienda.buzon.activarCanal("nadie", activo: true))
        #expect(try tienda.buzon.quitarCanal("toros"))
        #expect(try !tienda.buzon.quitarCanal("toros"))
        #expect(try tienda.buzon.canales().map(\.nombre) == ["registro"])
    }

    /// Following (fans.md), decided in the minute's transaction: each goal reaches the
    /// channels without filters, those following its team, match or competition, and the
    /// playing process's own channels; a paused channel gets nothing.
    @MainActor
    func cadaAvisoVaALosCanalesQueLoSiguen(_ tienda: any Tienda) async throws {
        let url = #"{"url":"http://127.0.0.1:9/x"}"#
        let canales = [
            CanalConfigurado(
                nombre: "toros", tipo: .webhook, ajustes: url,
                filtros: FiltrosDeCanal(equipos: ["Toros"])),
            CanalConfigurado(
                nombre: "tres", tipo: .webhook, ajustes: url,
                filtros: FiltrosDeCanal(partidos: [3])),
            CanalConfigurado(
                nombre: "uno", tipo: .webhook, ajustes: url,
                filtros: FiltrosDeCanal(equipos: ["Nadie"], partidos: [1])),
            CanalConfigurado(nombre: "pausa", tipo: .webhook, activo: false, ajustes: url),
        ]
        for canal in canales { #expect(try tienda.buzon.guardar(canal, reemplazar: false)) }
        _ = try await Self.jugarPartidoUno(tienda, propios: ["terminal"])
        let avisos = try tienda.buzon.ultimos(limite: 10)
        var destinos: [String: [String]] = [:]
        for aviso in avisos {
            destinos[aviso.aviso.identificador] = aviso.entregas.map(\.canal).sorted()
            #expect(aviso.entregas.allSatisfy { $0.estado == .pendiente })
        }
        let todos = ["registro", "terminal", "uno"]
        #expect(
            destinos == [
                "gol-10-Ana": todos, "gol-10-Iván": (todos + ["toros"]).sorted(),
                "gol-35-Luis": todos, "gol-35-Sofía": (todos + ["toros"]).sorted(),
                "gol-60-Marta": todos,
            ])
    }

    @MainActor
    func pruebasYBannersHuerfanos(_ tienda: any Tienda) async throws {
        var ajustes = try tienda.partidos.ajustes()
        ajustes.avisosPermitidos = true
        try tienda.partidos.guardar(ajustes)
        let prueba = try tienda.buzon.encolarPrueba(canal: nil, ahora: segundosUnix())
        #expect(try tienda.buzon.entregas(aviso: prueba).map(\.canal) == ["registro"])
        #expect(try tienda.buzon.ultimos(limite: 1).first?.aviso.tipo == .prueba)
        // A run whose watching process is gone: its banners expire.
        let muerto = Propietario(anfitrion: Propietario.actual.anfitrion, pid: 999_999, inicio: 1)
        _ = try await Self.jugarPartidoUno(
            tienda, propietario: muerto, propios: [TipoDeCanal.nombreTerminal])
        #expect(try tienda.buzon.caducarBannersHuerfanos(ahora: segundosUnix()) == 5)
        #expect(try tienda.buzon.recuento()[.caducada] == 5)
    }

    @MainActor
    func cambiosYNotificaciones(_ tienda: any Tienda) async throws {
        #expect(try tienda.cambios.primero() != nil)  // the seed's list change
        let antes = try tienda.cambios.ultimo()
        let ejecucion = try await Self.jugarPartidoUno(tienda)
        let avisos = try tienda.buzon.reclamar(Self.reclamo("uno")).map(\.aviso)
        #expect(avisos.allSatisfy { $0.ejecucion == ejecucion })
        let conImagen = avisos[2].conAdjuntoDescargado(ruta: "/tmp/gol.gif", tipo: "gif")
        try tienda.cambios.notificar([avisos[0], avisos[1], conImagen])
        let notificaciones = try tienda.cambios.desde(antes, limite: 1_000).filter {
            $0.clase == .notificacion
        }
        #expect(
            notificaciones.compactMap(\.aviso?.identificador) == Array(Self.partidoUno.prefix(3)))
        #expect(notificaciones.map(\.partidoId) == [1, 1, 1])
        #expect(try tienda.cambios.imagen(de: notificaciones[2].id) == "/tmp/gol.gif")
        #expect(try tienda.cambios.imagen(de: notificaciones[0].id) == nil)
        // Settings and list changes are changes too.
        let ultimo = try tienda.cambios.ultimo()
        try tienda.partidos.guardar(try tienda.partidos.ajustes())
        #expect(try tienda.cambios.desde(ultimo, limite: 10).map(\.clase) == [.ajustes])
    }

    @MainActor
    func poda(_ tienda: any Tienda) async throws {
        var ajustes = try tienda.partidos.ajustes()
        ajustes.lineasDeRegistro = 100
        try tienda.partidos.guardar(ajustes)
        let registro = tienda.registro(eco: false)
        registro.anotar(lineas: (0..<250).map { ("línea \($0)", nil) })
        // A channel no dispatcher serves: its deliveries must not stay pending for ever.
        _ = try tienda.buzon.guardar(
            CanalConfigurado(nombre: "lejano", tipo: .registro), reemplazar: false)
        _ = try await Self.jugarPartidoUno(tienda)
        let ahora = segundosUnix()
        let lote = try tienda.buzon.reclamar(Self.reclamo("uno", ahora: ahora))
        try tienda.buzon.registrar(
            lote.map {
                ResultadoDeEntrega(avisoId: $0.avisoId, canal: "registro", desenlace: .entregada)
            },
            arrendatario: "uno", ahora: ahora)
        // Two hours later the delivered notices are past any use.
        let poda = try tienda.mantenimiento.podar(ahora: ahora + 7_200)
        #expect(poda.caducadas == 5)
        #expect(poda.avisos == 5)
        #expect(poda.lineasDeRegistro >= 150)
        #expect(try tienda.lineasDelRegistro(partido: nil, limite: nil).count <= 101)
        #expect(try tienda.buzon.ultimos(limite: 10).isEmpty)
        let recuento = try tienda.buzon.recuento()
        #expect(recuento[.entregada] == 5)
        #expect(recuento[.caducada] == 5)
        #expect(recuento[.pendiente] == 0)
    }

    /// The routine prune is claimed by one caller per interval, whoever asks and however
    /// many ask at once; a clock that went back before the last prune claims it again.
    func unaPodaPorIntervalo(_ tienda: any Tienda) throws {
        let mantenimiento = tienda.mantenimiento
        let t = 1_000_000.0
        #expect(try mantenimiento.tocaPodar(ahora: t, intervalo: 60))
        #expect(try !mantenimiento.tocaPodar(ahora: t, intervalo: 60))
        #expect(try !mantenimiento.tocaPodar(ahora: t + 59.5, intervalo: 60))
        #expect(try mantenimiento.tocaPodar(ahora: t + 60, intervalo: 60))
        #expect(try !mantenimiento.tocaPodar(ahora: t + 61, intervalo: 60))
        // Back in time (a clock set right after it ran ahead): pruned again, not never.
        #expect(try mantenimiento.tocaPodar(ahora: t - 3_600, intervalo: 60))
        #expect(try !mantenimiento.tocaPodar(ahora: t - 3_599, intervalo: 60))
        // Eight callers at the same instant of a new interval: exactly one prunes.
        let ganadores = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if (try? mantenimiento.tocaPodar(ahora: t + 10_000, intervalo: 60)) == true {
                ganadores.withLock { $0 += 1 }
            }
        }
        #expect(ganadores.withLock { $0 } == 1)
    }

    func importacion(_ tienda: any Tienda) throws {
        let entrada = EntradaDeImportacion(
            clave: "prueba|2030-06-01|Azul|Rojo", local: "Azul", visitante: "Rojo",
            competicion: "Prueba", ronda: "Final", fecha: "2030-06-01", hora: nil, grupo: nil,
            estadio: nil, finalDelPartido: Marcador(local: 1, visitante: 1),
            trasLaProrroga: Marcador(local: 2, visitante: 1), penaltis: nil, tieneProrroga: true,
            goles: [
                Gol(
                    minuto: MinutoDeJuego(5), jugador: Jugador("Uno", de: Equipo("Azul")),
                    lado: .local),
                Gol(
                    minuto: MinutoDeJuego(50), jugador: Jugador("Dos", de: Equipo("Rojo")),
                    lado: .visitante),
                Gol(
                    minuto: MinutoDeJuego(110), jugador: Jugador("Uno", de: Equipo("Azul")),
                    lado: .local),
            ], conAvisos: false)
        let comprobado = try tienda.importacion.importar([entrada], soloComprobar: true)
        #expect(comprobado.nuevos == 1)
        #expect(try tienda.partidos.partidos().count == 3)
        let hecho = try tienda.importacion.importar([entrada], soloComprobar: false)
        #expect(hecho.nuevos == 1 && hecho.goles == 3)
        #expect(try tienda.importacion.importar([entrada], soloComprobar: false).yaEstaban == 1)
        let partido = try #require(try tienda.partidos.partidos(competicion: "Prueba").first)
        #expect(partido.eventos.count == 3)
        #expect(partido.tieneProrroga)
        #expect(
            try tienda.importacion.resultadoEsperado(partido: partido.id)
                == Marcador(local: 2, visitante: 1))
        #expect(
            try tienda.partidos.fichas(competicion: "Prueba", conEventos: true).first?.oficial?
                .prorroga == Marcador(local: 2, visitante: 1))
    }

    func registro(_ tienda: any Tienda) throws {
        let registro = tienda.registro(eco: false)
        registro.anotar("uno", partido: 1)
        registro.anotar("dos\u{1B}[2J", partido: nil)
        registro.anotar(lineas: [("tres", 1), ("cuatro", 2)])
        let todas = try tienda.lineasDelRegistro(partido: nil, limite: nil)
        #expect(todas.suffix(4).map(\.linea) == ["uno", "dos\\x1B[2J", "tres", "cuatro"])
        #expect(
            try tienda.lineasDelRegistro(partido: 1, limite: nil).map(\.linea).suffix(2) == [
                "uno", "tres",
            ])
        #expect(try tienda.lineasDelRegistro(partido: nil, limite: 1).map(\.linea) == ["cuatro"])
        #expect(todas.last?.momento.hasSuffix("Z") == true)
    }

    /// A run whose process died (SIGKILL) is «Interrumpido» and can be resumed.
    @MainActor
    func reanudarTrasUnaMuerte(_ tienda: any Tienda) async throws {
        let partido = try #require(try tienda.partidos.partido(id: 1))
        let muerto = Propietario(anfitrion: Propietario.actual.anfitrion, pid: 999_999, inicio: 1)
        let cronica = tienda.ejecuciones.cronica(
            partido: 1, duracionFija: true, canalesPropios: [], propietario: muerto)
        try cronica.empezar(partido: partido, duracion: 90, msPorMinuto: 0, codigo: "ddddd")
        for minuto in 1...40 {
            _ = try cronica.registrar(
                minuto: minuto, goles: .cero, avisos: [], ultimoAviso: { _ in "ninguno" })
        }
        let interrumpida = try #require(try tienda.ejecuciones.ultima(partido: 1))
        #expect(interrumpida.estadoDelPartido == .interrumpido(enElMinuto: 40))
        let control = ControlDeEjecuciones(
            ejecuciones: tienda.ejecuciones, duracionAjustada: { 90 }, propietario: .actual,
            despertar: { _ in })
        let guardada = try control.reanudable(partido: 1)
        let desenlace = try await control.jugar(
            ControlDeEjecuciones.Peticion(partido: partido, msPorMinuto: 0, reanudar: guardada))
        #expect(desenlace == .terminado(enElMinuto: 90))
        #expect(try tienda.ejecuciones.ultima(partido: 1)?.id == interrumpida.id)
    }
}

extension ContratoDeTienda {
    /// Fenced ownership (architecture.md): once another process took a run over (its owner looked
    /// gone), every write of the former owner finds the run lost and changes nothing — not the
    /// minute, not the heartbeat, not the end — while the new owner goes on.
    func quienPierdeLaEjecucionNoEscribeMas(_ tienda: any Tienda) throws {
        let partido = try #require(try tienda.partidos.partido(id: 1))
        // Looks dead to this host (no such pid): as a process paused past its heartbeat looks
        // to another host.
        let dormido = Propietario(anfitrion: Propietario.actual.anfitrion, pid: 999_998, inicio: 1)
        let antigua = tienda.ejecuciones.cronica(
            partido: 1, duracionFija: true, canalesPropios: [], propietario: dormido)
        try antigua.empezar(partido: partido, duracion: 90, msPorMinuto: 0, codigo: "eeeee")
        #expect(
            try antigua.registrar(minuto: 7, goles: .cero, avisos: [], ultimoAviso: { _ in "" })
                == .hecha(golesAMano: .cero))
        let guardada = try #require(try tienda.ejecuciones.ultima(partido: 1))
        #expect(guardada.estadoDelPartido == .interrumpido(enElMinuto: 7))
        let nueva = tienda.ejecuciones.cronica(
            partido: 1, duracionFija: true, canalesPropios: [], propietario: .actual)
        try nueva.reanudar(guardada)
        let gol = AvisoDeGol(
            gol: Gol(
                minuto: MinutoDeJuego(8), jugador: Jugador("Ana", de: partido.local),
                lado: .local),
            en: partido, marcador: Marcador(local: 1, visitante: 0))
        #expect(
            try antigua.registrar(
                minuto: 8, goles: Marcador(local: 1, visitante: 0), avisos: [gol],
                ultimoAviso: { _ in "" }) == .perdida)
        #expect(try antigua.terminar(minuto: 90) == .perdida)
        try antigua.cancelar(minuto: 8)
        let despues = try #require(try tienda.ejecuciones.ultima(partido: 1))
        #expect(despues.estadoDelPartido == .enJuego)
        #expect(despues.minuto == 7)
        #expect(despues.goles == .cero)
        #expect(try tienda.buzon.ultimos(limite: 10).isEmpty, "the lost owner's goal is not queued")
        #expect(
            try nueva.registrar(minuto: 8, goles: .cero, avisos: [], ultimoAviso: { _ in "" })
                == .hecha(golesAMano: .cero))
        #expect(try nueva.terminar(minuto: 90) == .hecha(golesAMano: .cero))
        #expect(try tienda.ejecuciones.ultima(partido: 1)?.estado == .terminado)
    }
}

@Suite("Contrato de la tienda · SQLite")
struct ContratoSQLiteTests {
    @Test(arguments: ContratoDeTienda.allCases)
    func contrato(_ caso: ContratoDeTienda) async throws {
        try await caso.comprobar(TiendaSQLite(try Almacen.enMemoria()))
    }
}

/// One case at a time, and the migration of each new database on a thread of its own: the
/// store's calls block on the server, and the cooperative pool they run on (one thread per
/// core) is shared with suites that time real processes.
@Suite(
    "Contrato de la tienda · PostgreSQL", .serialized,
    .enabled(if: ServidorPostgres.falta == nil, Comment(rawValue: ServidorPostgres.falta ?? "")))
struct ContratoPostgreSQLTests {
    @Test(arguments: ContratoDeTienda.allCases)
    func contrato(_ caso: ContratoDeTienda) async throws {
        let url = try await ServidorPostgres.compartido().baseNueva()
        let cola = try await fueraDelPool { try AlmacenPG.abrir(url: url) }
        try await caso.comprobar(TiendaPG(cola))
    }
}

/// What only PostgreSQL's concurrent claims can show.
@Suite(
    "Reclamos simultáneos · PostgreSQL", .serialized,
    .enabled(if: ServidorPostgres.falta == nil, Comment(rawValue: ServidorPostgres.falta ?? "")))
struct ReclamosSimultaneosPostgreSQLTests {
    /// The routine prune claimed from six connections at the same instant (six processes
    /// starting together): one of them prunes, the row lock makes the others see its claim.
    @Test func seisConexionesYUnaSolaPoda() async throws {
        let url = try await ServidorPostgres.compartido().baseNueva()
        try await fueraDelPool {
            let tiendas = try (0..<6).map { _ in TiendaPG(try AlmacenPG.abrir(url: url)) }
            let ahora = tiendas[0].ahora()
            for ronda in 0..<3 {
                let ganadores = Mutex(0)
                DispatchQueue.concurrentPerform(iterations: tiendas.count) { i in
                    let toca = try? tiendas[i].mantenimiento.tocaPodar(
                        ahora: ahora + Double(ronda) * 60, intervalo: 60)
                    if toca == true { ganadores.withLock { $0 += 1 } }
                }
                #expect(ganadores.withLock { $0 } == 1, "ronda \(ronda)")
            }
        }
    }

    /// A claim beside another one skips the rows that one has locked and may come back empty
    /// with work left (round 3: three `avisos enviar` ended with 44 of 20,000 pending): the
    /// drain's check still sees those rows, so it claims again instead of ending.
    @MainActor
    @Test func unReclamoVacioJuntoAOtroNoDaPorTerminadaLaCola() async throws {
        let url = try await ServidorPostgres.compartido().baseNueva()
        let tienda = TiendaPG(try await fueraDelPool { try AlmacenPG.abrir(url: url) })
        let otra = try await fueraDelPool { try AlmacenPG.abrir(url: url) }
        _ = try await ContratoDeTienda.jugarPartidoUno(tienda)
        let ahora = segundosUnix()
        let reclamo = ContratoDeTienda.reclamo("uno", ahora: ahora)
        let (vacio, quedan) = try otra.writeConcurrente { db in
            // Another claim's transaction, holding the row locks of every delivery.
            _ = try db.rows("SELECT aviso_id FROM entrega WHERE canal = 'registro' FOR UPDATE") {
                $0.int(0)
            }
            return (
                try tienda.buzon.reclamar(reclamo).isEmpty,
                try tienda.buzon.quedanReclamables(reclamo)
            )
        }
        #expect(vacio)
        #expect(quedan)
        // The locks gone, the same claim takes the whole run, in order; then nothing is left.
        let lote = try tienda.buzon.reclamar(reclamo)
        #expect(lote.map(\.aviso.identificador) == ContratoDeTienda.partidoUno)
        #expect(try !tienda.buzon.quedanReclamables(ContratoDeTienda.reclamo("dos", ahora: ahora)))
    }
}

/// A transaction's opening and a statement's first PREPARE travel in one pipeline with the
/// statement (issue 25): what fails there fails exactly as it would one request at a time.
@Suite(
    "Tubería de la conexión · PostgreSQL", .serialized,
    .enabled(if: ServidorPostgres.falta == nil, Comment(rawValue: ServidorPostgres.falta ?? "")))
struct TuberiaPostgreSQLTests {
    @Test func unaSentenciaQueFallaAlEstrenarseVuelveAEjecutarse() async throws {
        let url = try await ServidorPostgres.compartido().baseNueva()
        try await fueraDelPool {
            let cola = try AlmacenPG.abrir(url: url)
            try cola.read { try $0.executeScript("CREATE TABLE t (n bigint PRIMARY KEY)") }
            // What another session sees of this one's connection between two calls: its
            // backend (the same one throughout: failures here never cost the connection) and
            // whether a transaction is left open.
            let otra = try AlmacenPG.abrir(url: url)
            let sesion = {
                let pid = try cola.read { try $0.scalarInt("SELECT pg_backend_pid()") }
                let estado = try otra.read { db in
                    try db.row("SELECT state FROM pg_stat_activity WHERE pid = ?", pid) {
                        $0.string("state")
                    }
                }
                return "\(pid ?? 0) \(estado ?? "")"
            }
            let inicial = try sesion()
            #expect(inicial.hasSuffix(" idle"))
            let insertar = "INSERT INTO t (n) VALUES (?)"
            try cola.write { try $0.execute(insertar, 1) }
            // Prepared and run in a new transaction at once; the run breaks the key, the
            // transaction rolls back, and the statement stays prepared under its name.
            #expect(throws: ErrorPG.self) { try cola.write { try $0.execute(insertar, 1) } }
            try cola.write { try $0.execute(insertar, 2) }
            // A statement that does not even prepare fails alone: the next one runs.
            #expect(throws: ErrorPG.self) {
                try cola.write { try $0.execute("INSERT INTO falta (n) VALUES (?)", 3) }
            }
            try cola.write { db in
                try db.execute(insertar, 3)
                try db.execute("INSERT INTO t (n) SELECT n + 10 FROM t WHERE n = ?", 3)
            }
            // A body that throws before sending anything leaves no opening behind.
            #expect(throws: CancellationError.self) {
                try cola.write { _ in throw CancellationError() }
            }
            let filas = try cola.read { try $0.rows("SELECT n FROM t ORDER BY n") { $0.int(0) } }
            #expect(filas == [1, 2, 3, 13])
            // …and no transaction is left open between calls, on the same connection.
            #expect(try sesion() == inicial)
        }
    }
    /// The session's settings (the idle-in-transaction timeout that frees a paused client's
    /// locks, generic plans, no JIT) travel in the startup packet, costing no request; a URL
    /// with options of its own keeps them and gets ours by a request once connected.
    @Test func losAjustesDeLaSesionLleganConLaConexion() async throws {
        let url = try await ServidorPostgres.compartido().baseNueva()
        try await fueraDelPool {
            let conOpciones = url + "&options=-c%20statement_timeout%3D4321"
            for (direccion, viajes) in [(url, 0), (conOpciones, 1)] {
                let conexion = try ConexionPG(url: direccion)
                #expect(conexion.roundTrips == viajes, "\(direccion)")
                let ajustes = try conexion.rows(
                    """
                    SELECT current_setting('client_min_messages'),
                        current_setting('idle_in_transaction_session_timeout'),
                        current_setting('plan_cache_mode'), current_setting('jit')
                    """
                ) { [$0.string(0), $0.string(1), $0.string(2), $0.string(3)] }
                #expect(ajustes == [["warning", "10s", "force_generic_plan", "off"]])
            }
            let propia = try ConexionPG(url: conOpciones).scalarString(
                "SELECT current_setting('statement_timeout')")
            #expect(propia == "4321ms")
        }
    }

    /// A write nothing reads travels with the transaction's next request (issue 25: the
    /// notices' deliveries, a minute's «último aviso», log lines): it is done before what
    /// follows it, its failure fails the transaction where it is sent, and outside a
    /// transaction it is done when the call returns.
    @Test func unaEscrituraAplazadaViajaConLaSiguientePeticion() async throws {
        let url = try await ServidorPostgres.compartido().baseNueva()
        try await fueraDelPool {
            let cola = try AlmacenPG.abrir(url: url)
            let otra = try AlmacenPG.abrir(url: url)
            try cola.write { try $0.executeScript("CREATE TABLE t (n bigint PRIMARY KEY)") }
            func filas() throws -> [Int] {
                try otra.read { try $0.rows("SELECT n FROM t ORDER BY n") { $0.int(0) } }
            }
            let insertar = "INSERT INTO t (n) VALUES (?)"
            let viajes = { try cola.read { $0.roundTrips } }
            // Held back, then sent before the read that follows it, which sees it: the
            // opening, both writes and the read in one round trip, the commit in another.
            var antes = try viajes()
            let vistas = try cola.write { db in
                try db.executeLater(insertar, 1)
                try db.executeLater(insertar, 2)
                return try db.scalarInt("SELECT count(*) FROM t")
            }
            #expect(vistas == 2)
            #expect(try viajes() - antes == 2)
            // Held back until the commit, which carries it: one round trip in all.
            antes = try viajes()
            try cola.writeConcurrente { db in try db.executeLater(insertar, 3) }
            #expect(try viajes() - antes == 1)
            #expect(try filas() == [1, 2, 3])
            // A held-back write that fails: the commit it travels with fails with its error,
            // and nothing of the transaction stays, the earlier statement's row included.
            do {
                try cola.write { db in
                    try db.execute(insertar, 4)
                    try db.executeLater(insertar, 1)
                }
                Issue.record("una clave repetida aplazada no hizo fallar la transacción")
            } catch let error as ErrorPG {
                #expect(error.estado == "23505")
                #expect(error.sql == insertar)
            }
            #expect(try filas() == [1, 2, 3])
            // …and the connection goes on, with no transaction left open.
            #expect(try cola.read { try $0.scalarInt("SELECT count(*) FROM t") } == 3)
            // A failure thrown at the next statement of the body: the body stops there.
            var despues = false
            #expect(throws: ErrorPG.self) {
                try cola.write { db in
                    try db.executeLater(insertar, 2)
                    _ = try db.scalarInt("SELECT count(*) FROM t")
                    despues = true
                }
            }
            #expect(!despues)
            // Outside a transaction: done when the call returns.
            try cola.read { db in try db.executeLater(insertar, 5) }
            #expect(try filas() == [1, 2, 3, 5])
        }
    }

    /// A short-lived process runs each statement a few times: planning it for its parameters
    /// each time (PostgreSQL's default for the first five runs) was half the server's time.
    @Test func cadaSentenciaSePlaneaUnaVezEnLaConexion() async throws {
        let url = try await ServidorPostgres.compartido().baseNueva()
        try await fueraDelPool {
            let cola = try AlmacenPG.abrir(url: url)
            try cola.write { db in
                try db.executeScript("CREATE TABLE t (n bigint PRIMARY KEY, dato text)")
                for n in 1...3 { try db.execute("INSERT INTO t (n, dato) VALUES (?, ?)", n, "x") }
            }
            for n in 1...3 {
                _ = try cola.read { try $0.scalarInt("SELECT count(*) FROM t WHERE n >= ?", n) }
            }
            let planes = try cola.read { db in
                try db.rows(
                    "SELECT generic_plans, custom_plans FROM pg_prepared_statements "
                        + "WHERE statement IN ('INSERT INTO t (n, dato) VALUES ($1, $2)', "
                        + "'SELECT count(*) FROM t WHERE n >= $1')"
                ) { ($0.int(0), $0.int(1)) }
            }
            // Three runs each, every one on the one generic plan (none planned for its values).
            #expect(planes.count == 2)
            for (genericos, aMedida) in planes {
                #expect(genericos == 3 && aMedida == 0, "\(planes)")
            }
        }
    }

    /// A generic plan's cost is a guess for any value; the outbox's check guessed past
    /// `jit_above_cost` and compiling it took most of its 700 ms. No statement is compiled.
    @Test func ningunaSentenciaSeCompilaConJIT() async throws {
        let url = try await ServidorPostgres.compartido().baseNueva()
        try await fueraDelPool {
            let cola = try AlmacenPG.abrir(url: url)
            let plan = try cola.read { db in
                try db.rows(
                    "EXPLAIN SELECT sum(a.n * b.n) FROM generate_series(1, 3000) AS a(n), "
                        + "generate_series(1, 3000) AS b(n)"
                ) { $0.string(0) }
            }
            #expect(plan.contains { $0.contains("generate_series") }, "\(plan)")
            #expect(!plan.contains { $0.hasPrefix("JIT") }, "\(plan)")
        }
    }
}

/// The change log's rule lives in the schema for every writer (migration 0017): a change gets
/// its number from the column's default, which rings `marcador_cambios` once per transaction
/// that appends, and a run's UPDATE appends only when a shown column changed.
@Suite(
    "Registro de cambios · PostgreSQL", .serialized,
    .enabled(if: ServidorPostgres.falta == nil, Comment(rawValue: ServidorPostgres.falta ?? "")))
struct CambiosPostgreSQLTests {
    @Test func cadaTransaccionQueAnotaSuenaUnaVez() async throws {
        let url = try await ServidorPostgres.compartido().baseNueva()
        let cola = try await fueraDelPool { try AlmacenPG.abrir(url: url) }
        let cargas = Mutex<[String]>([])
        let escucha = cola.escuchar(.cambios) { carga in cargas.withLock { $0.append(carga) } }
        defer { escucha?.parar() }
        // The listener's LISTEN is in effect once its session sits idle after it.
        let escuchando = try await sondearQue(limite: .seconds(20)) {
            try await fueraDelPool {
                try cola.read {
                    try $0.scalarInt(
                        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                            + " AND state = 'idle' AND query = 'LISTEN marcador_cambios'")
                }
            } == 1
        }
        #expect(escuchando)
        let (antes, despues) = try await fueraDelPool {
            let antes = try cola.read { try $0.scalarInt("SELECT count(*) FROM cambio") }
            // Nothing appended: no ring. Three rows in one transaction: one ring.
            try cola.write {
                try $0.execute("INSERT INTO cambio (clase) SELECT 'ajustes' WHERE false")
            }
            try cola.write {
                try $0.execute(
                    "INSERT INTO cambio (clase) SELECT 'ajustes' FROM generate_series(1, 3)")
            }
            // A run's UPDATE that leaves every shown column as it was appends nothing; one that
            // moves the minute appends that minute, and rings.
            try cola.write { db in
                try db.execute(
                    "INSERT INTO ejecucion (partido_id, codigo, duracion, estado) VALUES (1, 'c', 90, 'en_juego')"
                )
                try db.execute(
                    "UPDATE ejecucion SET minuto = minuto, latido = 'x' WHERE codigo = 'c'")
            }
            try cola.write {
                try $0.execute("UPDATE ejecucion SET minuto = minuto WHERE codigo = 'c'")
            }
            try cola.write { try $0.execute("UPDATE ejecucion SET minuto = 7 WHERE codigo = 'c'") }
            // Rings arrive in commit order: once this one is here, every earlier one is too.
            try cola.write { try $0.execute("SELECT pg_notify('marcador_cambios', 'fin')") }
            let despues = try cola.read { try $0.scalarInt("SELECT count(*) FROM cambio") }
            return (antes, despues)
        }
        let llego = await sondearQue(limite: .seconds(20)) { cargas.withLock { $0.last == "fin" } }
        #expect(llego)
        // The three rows, the run's first change (its INSERT) and minute 7.
        #expect((despues ?? 0) - (antes ?? 0) == 5)
        #expect(cargas.withLock { $0 } == ["", "", "", "fin"])
        let minutos = try await fueraDelPool {
            try cola.read { db in
                try db.rows(
                    "SELECT c.minuto FROM cambio c JOIN ejecucion e ON e.id = c.ejecucion_id"
                        + " WHERE e.codigo = 'c' ORDER BY c.id"
                ) { $0.int(0) }
            }
        }
        #expect(minutos == [0, 7])
    }
}
