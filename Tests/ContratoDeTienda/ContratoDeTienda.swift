// Test support only: a release or plain `swift build` builds every target, and there the
// Testing module does not exist, so the target is empty outside test builds.
#if canImport(Testing)
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
    /// run on SQLite (in memory, `AlmacenTests`) and on a real PostgreSQL server (`ServidoresTests`),
    /// case by case.
    public enum ContratoDeTienda: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case semillasYAjustes
        case unPartidoEnteroDejaSusAvisosYSusCambios
        case unaEjecucionNuevaDetieneLaAnterior
        case golesAMano
        case reclamosConArriendo
        case losAvisosDeUnaEjecucionSalenEnOrden
        case resultadosSoloConElArriendoPropio
        case canalesYSeguimiento
        case cadaAvisoVaALosCanalesQueLoSiguen
        case unCanalConRetraso
        case unRecordatorioPorPartido
        case pruebasYBannersHuerfanos
        case cambiosYNotificaciones
        case poda
        case unaPodaPorIntervalo
        case importacion
        case registro
        case reanudarTrasUnaMuerte
        case quienPierdeLaEjecucionNoEscribeMas
        case dispositivosYCredenciales
        case tramosDeDiezMilDispositivos

        public var testDescription: String { rawValue }

        /// Runs the case against `tienda`, a store freshly opened (migrated and seeded).
        public func comprobar(_ tienda: any Tienda) async throws {
            switch self {
            case .semillasYAjustes: try semillasYAjustes(tienda)
            case .unPartidoEnteroDejaSusAvisosYSusCambios:
                try await unPartidoEnteroDejaSusAvisosYSusCambios(tienda)
            case .unaEjecucionNuevaDetieneLaAnterior: try unaEjecucionNuevaDetieneLaAnterior(tienda)
            case .golesAMano: try golesAMano(tienda)
            case .reclamosConArriendo: try await reclamosConArriendo(tienda)
            case .losAvisosDeUnaEjecucionSalenEnOrden:
                try await losAvisosDeUnaEjecucionSalenEnOrden(tienda)
            case .resultadosSoloConElArriendoPropio:
                try await resultadosSoloConElArriendoPropio(tienda)
            case .canalesYSeguimiento: try canalesYSeguimiento(tienda)
            case .cadaAvisoVaALosCanalesQueLoSiguen:
                try await cadaAvisoVaALosCanalesQueLoSiguen(tienda)
            case .unCanalConRetraso: try await unCanalConRetraso(tienda)
            case .unRecordatorioPorPartido: try unRecordatorioPorPartido(tienda)
            case .pruebasYBannersHuerfanos: try await pruebasYBannersHuerfanos(tienda)
            case .cambiosYNotificaciones: try await cambiosYNotificaciones(tienda)
            case .poda: try await poda(tienda)
            case .unaPodaPorIntervalo: try unaPodaPorIntervalo(tienda)
            case .importacion: try importacion(tienda)
            case .registro: try registro(tienda)
            case .reanudarTrasUnaMuerte: try await reanudarTrasUnaMuerte(tienda)
            case .quienPierdeLaEjecucionNoEscribeMas: try quienPierdeLaEjecucionNoEscribeMas(tienda)
            case .dispositivosYCredenciales: try await dispositivosYCredenciales(tienda)
            case .tramosDeDiezMilDispositivos: try await tramosDeDiezMilDispositivos(tienda)
            }
        }

        public static let partidoUno = [
            "gol-10-Ana", "gol-10-Iván", "gol-35-Luis", "gol-35-Sofía", "gol-60-Marta",
        ]

        /// Plays partido 1 to the end at 0 ms a minute with notices on; its run.
        @MainActor
        public static func jugarPartidoUno(
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

        public static func reclamo(
            _ arrendatario: String, ahora: Double = segundosUnix(), limite: Int = 100
        )
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
            #expect(
                partidos.map(\.local.nombre) == ["Rayo FC", "Águilas CF", "Dragones del Norte"])
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
            let cambios = try tienda.cambios.desde(antes, limite: 1_000).filter {
                $0.clase == .partido
            }
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
                try tienda.ejecuciones.cancelacionPedida(ejecucion: primera.ejecucion!)
                    == .reemplazo)
            // The replaced run writes nothing more and cannot finish.
            #expect(
                try primera.registrar(minuto: 2, goles: .cero, avisos: [], ultimoAviso: { _ in "" })
                    == .parada)
            #expect(
                try primera.registrar(minuto: 2, goles: .cero, avisos: [], ultimoAviso: nil)
                    == .parada)
            #expect(
                try tienda.ejecuciones.todas(partido: 2).first { $0.id == primera.ejecucion }?
                    .minuto
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
                try tienda.ejecuciones.cancelacionPedida(ejecucion: tercera.ejecucion!) == .duracion
            )
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

        /// Push credentials (a key pair written only where there is none), and a device that
        /// is gone: its outcome removes it, and what it still had queued is discarded, in one
        /// write (contract.md §19).
        /// 20,001 phones: each notice is written as one shard, which its claims cut into shards
        /// of 10,000 at the 1st, 10,001st and 20,001st id (§20), each claimable as soon as it
        /// is cut, the three held at once by three holders.
        func tramosDeDiezMilDispositivos(_ tienda: any Tienda) async throws {
            func nombre(_ i: Int) -> String {
                let cifras = String(i, radix: 16)
                return "apns-" + String(repeating: "0", count: 16 - cifras.count) + cifras
            }
            let moviles = (0...2 * TramoReclamado.tamanoMaximo).map {
                CanalConfigurado(
                    nombre: nombre($0), tipo: .dispositivoAPNs, ajustes: #"{"token":"ab"}"#)
            }
            #expect(try tienda.buzon.guardar(moviles.reversed()) == moviles.count)
            _ = try await Self.jugarPartidoUno(tienda)
            #expect(try tienda.difusiones.recuentoDeDifusion(aviso: nil).pendientes == 5)
            let ahora = segundosUnix()
            var tramos: [TramoReclamado] = []
            for quien in ["uno", "dos", "tres", "cuatro"] {
                if let tramo = try tienda.difusiones.reclamarTramo(
                    ReclamoDeTramo(arrendatario: quien, ahora: ahora, arriendo: 60))
                {
                    tramos.append(tramo)
                }
            }
            let diez = TramoReclamado.tamanoMaximo
            #expect(tramos.count == 3 && Set(tramos.map(\.avisoId)).count == 1)
            #expect(
                tramos.map(\.desde).sorted() == [nombre(0), nombre(diez), nombre(2 * diez)])
            #expect(
                Set(tramos.map(\.hasta)) == [nombre(diez), nombre(2 * diez), nil])
            // The cuts are stored: the first notice has three shards, the other four one each.
            #expect(try tienda.difusiones.recuentoDeDifusion(aviso: nil).pendientes == 3 + 4)
            #expect(
                try tienda.difusiones.recuentoDeDifusion(aviso: tramos[0].avisoId).pendientes
                    == 3)
            // Each holds its own devices: every phone once across the three.
            var vistos: [String] = []
            for tramo in tramos {
                var despues: String?
                while true {
                    let pagina = try tienda.difusiones.dispositivos(
                        de: tramo, despues: despues, limite: 4_000)
                    guard let ultimo = pagina.last else { break }
                    vistos += pagina.map(\.canal.nombre)
                    despues = ultimo.canal.nombre
                }
            }
            #expect(vistos.count == moviles.count && Set(vistos) == Set(moviles.map(\.nombre)))
            // A shard resumed from a cursor is not cut again: devices added since its first
            // claim stay in it.
            var avance = AvanceDeTramo(tramo: tramos[2])
            avance.cursor = nombre(2 * diez)
            #expect(
                try tienda.difusiones.avanzar(
                    avance, arrendatario: "tres", ahora: ahora, arriendo: 60))
            let mas = (1...diez + 1).map {
                CanalConfigurado(
                    nombre: nombre(2 * diez + $0), tipo: .dispositivoAPNs,
                    ajustes: #"{"token":"ab"}"#)
            }
            #expect(try tienda.buzon.guardar(mas) == mas.count)
            #expect(try tienda.buzon.liberar(arrendatario: "tres", canal: nil, ahora: ahora) == 1)
            let retomado = try #require(
                try tienda.difusiones.reclamarTramo(
                    ReclamoDeTramo(arrendatario: "cinco", ahora: ahora, arriendo: 60)))
            #expect(retomado.id == tramos[2].id && retomado.hasta == nil)
            #expect(try tienda.difusiones.recuentoDeDifusion(aviso: nil).pendientes == 3 + 4)
        }

        func dispositivosYCredenciales(_ tienda: any Tienda) async throws {
            let buzon = tienda.buzon
            #expect(try buzon.credenciales().isEmpty)
            #expect(
                try buzon.guardarCredenciales(["vapid.privada": "uno", "x": "1"], siFalta: true)
                    == ["vapid.privada": "uno", "x": "1"])
            #expect(
                try buzon.guardarCredenciales(["vapid.privada": "dos"], siFalta: true)
                    == ["vapid.privada": "uno", "x": "1"])
            #expect(
                try buzon.guardarCredenciales(["vapid.privada": "dos", "x": nil], siFalta: false)
                    == ["vapid.privada": "dos"])
            // Three phones and a browser: each notice reaches them by shards (§20), never
            // a delivery row each.
            let moviles = ["apns-0000000001", "apns-0000000002", "apns-0000000003"].map {
                CanalConfigurado(nombre: $0, tipo: .dispositivoAPNs, ajustes: #"{"token":"ab"}"#)
            }
            #expect(try buzon.guardar(moviles) == 3)
            #expect(try buzon.guardar(moviles) == 0)
            #expect(try buzon.existe("apns-0000000002") == .dispositivoAPNs)
            #expect(try buzon.canales().allSatisfy { !$0.tipo.esDispositivo })
            #expect(try buzon.dispositivos().map(\.nombre) == moviles.map(\.nombre))
            // Ids of the first, 40-bit form, as devices stored then keep them.
            #expect(
                try buzon.dispositivosDeNombreAntiguo(nil).keys.sorted() == moviles.map(\.nombre))
            #expect(
                try buzon.dispositivosDeNombreAntiguo("apns-0000000002")
                    == ["apns-0000000002": #"{"token":"ab"}"#])
            #expect(try buzon.dispositivosDeNombreAntiguo("apns-00000000020000").isEmpty)
            _ = try await Self.jugarPartidoUno(tienda)
            let difusiones = tienda.difusiones
            #expect(try difusiones.recuentoDeDifusion(aviso: nil).pendientes == 5)
            let ahora = segundosUnix()
            func reclamar(_ quien: String) throws -> TramoReclamado? {
                try difusiones.reclamarTramo(
                    ReclamoDeTramo(arrendatario: quien, ahora: ahora, arriendo: 60))
            }
            let primero = try #require(try reclamar("uno"))
            #expect(primero.tipo == .dispositivoAPNs)
            #expect(primero.aviso.identificador == "gol-10-Ana")
            #expect(primero.equipo == "Rayo FC")
            // The run's next notice waits until this one has reached every device.
            #expect(try reclamar("dos") == nil)
            let todos = try difusiones.dispositivos(de: primero, despues: nil, limite: 10)
            #expect(todos.map(\.canal.nombre) == moviles.map(\.nombre))
            var avance = AvanceDeTramo(tramo: primero)
            avance.cursor = moviles[0].nombre
            avance.entregadas = 1
            #expect(try difusiones.avanzar(avance, arrendatario: "uno", ahora: ahora, arriendo: 60))
            #expect(
                try !difusiones.avanzar(avance, arrendatario: "dos", ahora: ahora, arriendo: 60))
            // Its holder is gone: the next one resumes after the cursor.
            #expect(try buzon.liberar(arrendatario: "uno", canal: nil, ahora: ahora) == 1)
            let retomado = try #require(try reclamar("dos"))
            #expect(retomado.id == primero.id)
            #expect(retomado.cursor == moviles[0].nombre)
            #expect(
                try difusiones.dispositivos(de: retomado, despues: nil, limite: 10).map(
                    \.canal.nombre) == [moviles[1].nombre, moviles[2].nombre])
            // The second phone is gone, the third is tried again later, on its own.
            avance = AvanceDeTramo(tramo: retomado)
            avance.cursor = moviles[2].nombre
            avance.retirados = [moviles[1].nombre]
            avance.reintentos = [
                .init(dispositivo: moviles[2].nombre, cuando: ahora, error: "APNs 503")
            ]
            avance.final = .entregada
            #expect(try difusiones.avanzar(avance, arrendatario: "dos", ahora: ahora, arriendo: 60))
            #expect(try buzon.existe(moviles[1].nombre) == nil)
            // The retry is older than the second notice's shard: it comes first.
            let reintento = try #require(try reclamar("uno"))
            #expect(reintento.unico && reintento.desde == moviles[2].nombre)
            #expect(reintento.intento == 2)
            let segundo = try #require(try reclamar("uno"))
            #expect(!segundo.unico && segundo.avisoId > primero.avisoId)
            // The third phone waits behind its retry of the first notice.
            #expect(
                try difusiones.dispositivos(de: segundo, despues: nil, limite: 10).map {
                    "\($0.canal.nombre) \($0.detras)"
                } == ["\(moviles[0].nombre) false", "\(moviles[2].nombre) true"])
            var hecho = AvanceDeTramo(tramo: reintento)
            hecho.entregadas = 1
            hecho.final = .entregada
            #expect(try difusiones.avanzar(hecho, arrendatario: "uno", ahora: ahora, arriendo: 60))
            let recuento = try difusiones.recuentoDeDifusion(aviso: primero.avisoId)
            #expect(recuento.tramos[.entregada] == 2)
            #expect(recuento.entregadas == 2 && recuento.retiradas == 1)
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
            #expect(
                try tienda.buzon.cambiarFiltros("toros", FiltrosDeCanal(competiciones: ["Liga"])))
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

        /// A channel's delay is stored with each delivery (contract.md: a delay against
        /// spoilers): nothing is due for it before the delay has passed, everything after.
        @MainActor
        func unCanalConRetraso(_ tienda: any Tienda) async throws {
            var tarde = CanalConfigurado(nombre: "tarde", tipo: .registro)
            tarde.retraso = 30
            #expect(try tienda.buzon.guardar(tarde, reemplazar: false))
            #expect(try tienda.buzon.canales().first { $0.nombre == "tarde" }?.retraso == 30)
            let antes = segundosUnix()
            _ = try await Self.jugarPartidoUno(tienda)
            func reclamar(_ ahora: Double) throws -> Int {
                try tienda.buzon.reclamar(
                    Reclamo(
                        canal: "tarde", arrendatario: "contrato", ahora: ahora, arriendo: 60,
                        limite: 100, caducidad: 3600)
                ).count
            }
            #expect(try reclamar(segundosUnix()) == 0)
            #expect(try reclamar(antes + 29) == 0)
            #expect(try reclamar(segundosUnix() + 31) == 5)
            // The channel without a delay has its notices due at once.
            #expect(try tienda.buzon.reclamar(Self.reclamo("contrato")).count == 5)
        }

        /// «Empieza pronto»: one per match whoever queues it, to the channels that choose
        /// reminders, each due its own lead time before kick-off.
        func unRecordatorioPorPartido(_ tienda: any Tienda) throws {
            var ajustes = try tienda.partidos.ajustes()
            ajustes.avisosPermitidos = true
            try tienda.partidos.guardar(ajustes)
            var pronto = CanalConfigurado(nombre: "pronto", tipo: .registro)
            pronto.avisar = [.recordatorio]
            pronto.antes = 600
            var hora = CanalConfigurado(nombre: "hora", tipo: .registro)
            hora.avisar = [.recordatorio, .goles]
            hora.antes = 3_600
            #expect(try tienda.buzon.guardar(pronto, reemplazar: false))
            #expect(try tienda.buzon.guardar(hora, reemplazar: false))
            #expect(try tienda.buzon.canales().first { $0.nombre == "pronto" }?.antes == 600)
            let ahora = segundosUnix()
            let saque = ahora + 1_800
            let aviso = AvisoDeGol.recordatorio(
                local: "Rayo FC", visitante: "Toros", hora: "16:00", partidoId: 1)
            #expect(try tienda.buzon.encolarRecordatorios([(aviso, saque)], ahora: ahora) == 1)
            #expect(try tienda.buzon.encolarRecordatorios([(aviso, saque)], ahora: ahora) == 0)
            let guardado = try #require(try tienda.buzon.ultimos(limite: 1).first)
            #expect(guardado.aviso.tipo == .recordatorio)
            #expect(guardado.aviso.cuerpo == "Rayo FC - Toros, 16:00")
            // Not to «registro» (goals and annulments only).
            #expect(guardado.entregas.map(\.canal).sorted() == ["hora", "pronto"])
            func debidas(_ canal: String, _ momento: Double) throws -> Int {
                try tienda.buzon.reclamar(
                    Reclamo(
                        canal: canal, arrendatario: "contrato", ahora: momento, arriendo: 60,
                        limite: 10, caducidad: 7_200)
                ).count
            }
            // An hour's lead is already past: due now; ten minutes' lead, at 20 minutes.
            #expect(try debidas("hora", ahora + 1) == 1)
            #expect(try debidas("pronto", saque - 601) == 0)
            #expect(try debidas("pronto", saque - 599) == 1)
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
            let muerto = Propietario(
                anfitrion: Propietario.actual.anfitrion, pid: 999_999, inicio: 1)
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
                notificaciones.compactMap(\.aviso?.identificador)
                    == Array(Self.partidoUno.prefix(3)))
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
                    ResultadoDeEntrega(
                        avisoId: $0.avisoId, canal: "registro", desenlace: .entregada)
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
                trasLaProrroga: Marcador(local: 2, visitante: 1), penaltis: nil,
                tieneProrroga: true,
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
            // The scorers summed by the store, one row per stored player; none for an
            // unknown competition.
            let goles = try tienda.partidos.goles(competicion: "Prueba")
            #expect(
                Set(goles.porJugador) == [
                    Goleadores.Fila(jugador: "Uno", equipo: "Azul", goles: 2),
                    Goleadores.Fila(jugador: "Dos", equipo: "Rojo", goles: 1),
                ])
            #expect(goles.partidos == 1 && goles.sinLista == 0)
            #expect(
                try tienda.partidos.nombresDeCompeticiones()
                    == tienda.partidos.competiciones().compactMap(\.nombre))
            #expect(try tienda.partidos.nombresDeCompeticiones().contains("Prueba"))
            let ninguna = try tienda.partidos.goles(competicion: "Otra")
            #expect(ninguna.porJugador.isEmpty && ninguna.partidos == 0 && ninguna.sinLista == 0)
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
            #expect(
                try tienda.lineasDelRegistro(partido: nil, limite: 1).map(\.linea) == ["cuatro"])
            #expect(todas.last?.momento.hasSuffix("Z") == true)
        }

        /// A run whose process died (SIGKILL) is «Interrumpido» and can be resumed.
        @MainActor
        func reanudarTrasUnaMuerte(_ tienda: any Tienda) async throws {
            let partido = try #require(try tienda.partidos.partido(id: 1))
            let muerto = Propietario(
                anfitrion: Propietario.actual.anfitrion, pid: 999_999, inicio: 1)
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
            let dormido = Propietario(
                anfitrion: Propietario.actual.anfitrion, pid: 999_998, inicio: 1)
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
            #expect(
                try tienda.buzon.ultimos(limite: 10).isEmpty, "the lost owner's goal is not queued")
            #expect(
                try nueva.registrar(minuto: 8, goles: .cero, avisos: [], ultimoAviso: { _ in "" })
                    == .hecha(golesAMano: .cero))
            #expect(try nueva.terminar(minuto: 90) == .hecha(golesAMano: .cero))
            #expect(try tienda.ejecuciones.ultima(partido: 1)?.estado == .terminado)
        }
    }
#endif
