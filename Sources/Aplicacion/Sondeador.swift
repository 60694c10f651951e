import Avisos
import Directo
import Persistencia
import Sistema
import Synchronization
import Torneo

/// Polls the live feeds (directo.md) for `marcador directo`: every source that is due and not
/// held by another poller is leased, fetched with its validators (`If-None-Match`,
/// `If-Modified-Since`) and its key, read, compared with each match's snapshot, and the
/// outcome written with its notices in one transaction. Sources are polled concurrently, so
/// one that hangs delays no other; the dispatchers that deliver the notices run beside it.
public final class Sondeador: Servicio {
    public typealias Cliente = @Sendable (PeticionHTTP) async throws -> RespuestaHTTP

    let nucleo: Nucleo
    let registro: any Registro
    let arrendatario: String
    let cliente: Cliente
    /// Told after each round of polls that brought something (the terminal's lines). The
    /// notices a poll queued reach the dispatchers through the store's commit signal.
    let alSondear: @Sendable ([Resultado]) -> Void
    /// What this process last wrote for each followed match (`fuente|clave`): the feed's
    /// fingerprint of it and the snapshot stored. A match whose fingerprint and stored
    /// snapshot are both unchanged needs no decoding, comparing or encoding (most of a poll of
    /// a thousand matches, when a few of them change).
    private let escritas = Mutex<[String: (huella: String, foto: String)]>([:])
    /// The match resource last read for each live match (`fuente|clave`), with the list
    /// entry's fingerprint then: fetched again only when the entry changes, and meanwhile
    /// what fills in the goals and cards the list does not carry.
    private let detalles = Mutex<[String: (entrada: String, partido: PartidoDelFeed)]>([:])
    /// When each source's requests went out in the last minute: football-data's free plan
    /// allows 10 a minute for every competition a key follows.
    private let peticiones = Mutex<[Int: [Double]]>([:])
    /// Requests a minute when the provider does not say how many are left.
    public static let peticionesPorMinuto = 10
    /// How long a source is this poller's once leased: twice the longest request (10 s), so
    /// only a poller that died or froze loses it — and not much longer, since a poller killed
    /// in the middle of a poll keeps every other one off the source until it expires (at 60 s
    /// a loaded test run saw a restarted `directo` miss a half-time that lasted 30 s). A poll
    /// that outlives its lease stores nothing (its outcome is fenced by the holder).
    public static let arriendo = 20.0
    /// The largest answer read (a season's match list is well under 1 MB).
    public static let bytesMaximos = 16 * 1024 * 1024

    public init(
        nucleo: Nucleo, registro: any Registro,
        arrendatario: String = Arrendatario(
            etiqueta: "directo-" + String(UInt32.random(in: 0...UInt32.max), radix: 16),
            propietario: .actual
        ).texto,
        cliente: @escaping Cliente = ClienteHTTP.enviar,
        alSondear: @escaping @Sendable ([Resultado]) -> Void = { _ in }
    ) {
        self.nucleo = nucleo
        self.registro = registro
        self.arrendatario = arrendatario
        self.cliente = cliente
        self.alSondear = alSondear
    }

    /// Gives back at once the sources leased by a poller observably gone (a process of this
    /// host that no longer exists), so a `directo` started after a `kill -9` polls them now,
    /// not when the lease runs out (issue 40); a holder on another host keeps its lease.
    func relevarHuerfanas() async {
        let arrendadas =
            (try? await enLaTienda { try self.nucleo.tienda.fuentes.arrendadas() }) ?? []
        guard !arrendadas.isEmpty else { return }
        let sesiones =
            (try? await enLaTienda { try self.nucleo.tienda.buzon.sesionesDeMarcador() }) ?? nil
        for (fuente, texto) in arrendadas
        where texto != arrendatario && Propietario.huerfano(texto, sesiones: sesiones) != nil {
            _ = try? await enLaTienda {
                try self.nucleo.tienda.fuentes.soltar(fuente: fuente, arrendatario: texto)
            }
        }
    }

    /// What one poll of one source did.
    public struct Resultado: Sendable, Hashable {
        public var fuente: String
        public var estado: String
        public var avisos: Int
        public var guardado: Bool
    }

    /// Polls every source due now, at once, and returns what each did.
    @discardableResult
    public func sondearDebidas() async throws -> [Resultado] {
        await relevarHuerfanas()
        let debidas = try await enLaTienda {
            try self.nucleo.tienda.fuentes.arrendarDebidas(
                arrendatario: self.arrendatario, ahora: self.nucleo.ahora(),
                arriendo: Self.arriendo)
        }
        return await withTaskGroup(of: Resultado?.self) { grupo in
            for fuente in debidas {
                grupo.addTask(executorPreference: EjecutorDedicado.deLaTienda) {
                    await self.sondear(fuente)
                }
            }
            var resultados: [Resultado] = []
            for await resultado in grupo { if let resultado { resultados.append(resultado) } }
            return resultados.sorted { $0.fuente < $1.fuente }
        }
    }

    /// Polls until cancelled, each source when it is due; looks at least every second (a
    /// source added meanwhile, one another poller gave back). A poll in flight when it is
    /// stopped stores nothing it has not committed; its lease runs out or is taken back.
    public func run() async {
        while !Task.isCancelled {
            do {
                let resultados = try await sondearDebidas()
                if !resultados.isEmpty { alSondear(resultados) }
            } catch {
                registro.anotar("no se pudieron leer las fuentes: \(explicacion(de: error))")
            }
            let ahora = nucleo.ahora()
            let proximo =
                (try? await enLaTienda { try self.nucleo.tienda.fuentes.proximoSondeo() }) ?? nil
            let espera = min(1, max(0.02, (proximo ?? ahora + 1) - ahora))
            try? await nucleo.reloj.esperar(.milliseconds(Int64(espera * 1000)))
        }
    }

    // MARK: - One source

    private func sondear(_ arrendada: FuenteArrendada) async -> Resultado? {
        let fuente = arrendada.estado
        let nombre = fuente.configurada.nombre
        let formato = FormatoDeFuente(rawValue: fuente.configurada.formato) ?? .openfootball
        var cabeceras = [("Accept", "application/json"), ("User-Agent", "marcador")]
        if let etag = arrendada.etag { cabeceras.append(("If-None-Match", etag)) }
        if let modificado = arrendada.modificado {
            cabeceras.append(("If-Modified-Since", modificado))
        }
        if formato == .footballData, let clave = fuente.configurada.clave {
            cabeceras.append(("X-Auth-Token", clave))
        }
        let cada = fuente.configurada.cada
        // A poll never takes longer than its interval (2 s at least, 10 s at most): a
        // provider that hangs costs one poll, not the source.
        let limite = min(10, max(2, cada))
        let sondeo: SondeoHecho
        do {
            anotarPeticiones(1, fuente: fuente.id)
            let respuesta = try await cliente(
                PeticionHTTP(
                    url: fuente.configurada.url, cabeceras: cabeceras, limite: limite,
                    maximoDeBytes: Self.bytesMaximos))
            if Task.isCancelled { return await soltar(fuente) }
            var lectura: LecturaDeFeed?
            if formato == .footballData, (200..<300).contains(respuesta.codigo),
                !respuesta.cortado,
                var leida = try? formato.leer(
                    respuesta.cuerpo, nombrePorDefecto: fuente.configurada.nombre)
            {
                leida.partidos = await conDetalles(
                    leida.partidos, de: fuente, respuesta: respuesta, cabeceras: cabeceras,
                    limite: limite)
                if Task.isCancelled { return await soltar(fuente) }
                lectura = leida
            }
            sondeo = leer(respuesta, de: arrendada, formato: formato, lectura: lectura)
        } catch is CancellationError {
            return await soltar(fuente)
        } catch {
            if Task.isCancelled { return await soltar(fuente) }
            sondeo = fallido(arrendada, "sin respuesta: \(error)")
        }
        let avisos = sondeo.partidos.reduce(0) { $0 + $1.avisos.count }
        do {
            let guardado = try nucleo.tienda.fuentes.registrar(
                sondeo, arrendatario: arrendatario, ahora: nucleo.ahora())
            if !guardado {
                registro.anotar(
                    "fuente \(citado(nombre)): otro proceso la tomó mientras este la sondeaba; "
                        + "este sondeo no se guarda")
            } else if sondeo.fallido || avisos > 0 || !sondeo.partidos.isEmpty {
                registro.anotar("fuente \(citado(nombre)): \(sondeo.estado)")
            }
            return Resultado(
                fuente: nombre, estado: sondeo.estado, avisos: guardado ? avisos : 0,
                guardado: guardado)
        } catch {
            // The lease runs out by itself; the next poll (here or elsewhere) tries again
            // from the same snapshot, so nothing is lost and nothing doubled.
            registro.anotar(
                "fuente \(citado(nombre)): no se pudo guardar el sondeo: \(explicacion(de: error))")
            return Resultado(fuente: nombre, estado: sondeo.estado, avisos: 0, guardado: false)
        }
    }

    private func soltar(_ fuente: EstadoDeFuente) async -> Resultado? {
        try? nucleo.tienda.fuentes.soltar(fuente: fuente.id, arrendatario: arrendatario)
        return nil
    }

    /// The outcome of an answer.
    /// - Parameter lectura: the answer already read (with the match resources it led to).
    func leer(
        _ respuesta: RespuestaHTTP, de arrendada: FuenteArrendada, formato: FormatoDeFuente,
        lectura leida: LecturaDeFeed? = nil
    ) -> SondeoHecho {
        let fuente = arrendada.estado
        let ahora = nucleo.ahora()
        let cada = fuente.configurada.cada
        // football-data says how many requests are left this minute: none left, none sent.
        var proximo = ahora + cada
        if respuesta.cabeceras["x-requests-available-minute"] == "0" {
            let reinicio = respuesta.cabeceras["x-requestcounter-reset"].flatMap(Double.init) ?? 60
            proximo = max(proximo, ahora + reinicio)
        }
        switch respuesta.codigo {
        case 304:
            return SondeoHecho(
                fuente: fuente.id, etag: arrendada.etag, modificado: arrendada.modificado,
                proximo: proximo, estado: "sin cambios (304)", fallido: false)
        case 200..<300:
            guard !respuesta.cortado else {
                return fallido(
                    arrendada, "la respuesta pasa de \(Self.bytesMaximos / 1_048_576) MB")
            }
            let lectura: LecturaDeFeed
            do {
                lectura =
                    try leida
                    ?? formato.leer(respuesta.cuerpo, nombrePorDefecto: fuente.configurada.nombre)
            } catch {
                return fallido(arrendada, "respuesta ilegible: \(TextoSeguro.limpio("\(error)"))")
            }
            let partidos = lectura.partidos
            let cambiados = comparar(partidos, con: arrendada, ahora: ahora)
            let avisos = cambiados.reduce(0) { $0 + $1.avisos.count }
            // A match that could not be read is said, not a failure of the source: the others
            // of the answer go on (issue 41).
            let ilegibles =
                lectura.descartados.isEmpty
                ? ""
                : "; "
                    + Textos.cuenta(
                        lectura.descartados.count, "partido ilegible", "partidos ilegibles") + " ("
                    + lectura.descartados.prefix(3).map { TextoSeguro.limpio($0) }.joined(
                        separator: "; ") + (lectura.descartados.count > 3 ? "; …" : "") + ")"
            return SondeoHecho(
                fuente: fuente.id, etag: respuesta.cabeceras["etag"],
                modificado: respuesta.cabeceras["last-modified"], proximo: proximo,
                estado: "\(respuesta.codigo), "
                    + Textos.cuenta(partidos.count, "partido", "partidos") + ", "
                    + "\(cambiados.count) cambiaron, "
                    + Textos.cuenta(avisos, "aviso", "avisos") + ilegibles,
                fallido: false, partidos: cambiados)
        case 429:
            let espera = max(
                respuesta.reintentarTras ?? 0,
                Self.espera(fallos: fuente.fallosSeguidos, cada: cada))
            return SondeoHecho(
                fuente: fuente.id, etag: nil, modificado: nil, proximo: ahora + espera,
                estado: "HTTP 429: espera \(Textos.segundos(espera)) s", fallido: true)
        default:
            return fallido(
                arrendada, "HTTP \(respuesta.codigo)", reintentarTras: respuesta.reintentarTras)
        }
    }

    private func fallido(
        _ arrendada: FuenteArrendada, _ motivo: String, reintentarTras: Double? = nil
    )
        -> SondeoHecho
    {
        let fuente = arrendada.estado
        let espera = max(
            reintentarTras ?? 0,
            Self.espera(fallos: fuente.fallosSeguidos, cada: fuente.configurada.cada))
        return SondeoHecho(
            fuente: fuente.id, etag: nil, modificado: nil, proximo: nucleo.ahora() + espera,
            estado: "\(motivo); se reintenta en \(Textos.segundos(espera)) s", fallido: true)
    }

    // MARK: - The match resource

    /// The list's matches, each live one whose entry changed read again from the match resource
    /// (football-data's list carries no bookings, substitutions or lineups), as many as the
    /// provider's budget allows this minute; the others filled in from the resource last read.
    private func conDetalles(
        _ partidos: [PartidoDelFeed], de fuente: EstadoDeFuente, respuesta: RespuestaHTTP,
        cabeceras: [(String, String)], limite: Double
    ) async -> [PartidoDelFeed] {
        let prefijo = "\(fuente.id)|"
        let guardados = detalles.withLock { $0 }
        var candidatos: [(indice: Int, entrada: String, url: String)] = []
        let ahora = nucleo.ahora()
        for (i, partido) in partidos.enumerated()
        where partido.estado != .programado || Self.alineacionesPronto(partido, ahora: ahora) {
            let entrada = Self.huella(partido)
            let anterior = guardados[prefijo + partido.claveExterna]
            // A match over before this process read it live is not news: no request.
            guard anterior?.entrada != entrada,
                partido.estado != .terminado || anterior != nil,
                let url = LectorDeFootballData.urlDelDetalle(
                    lista: fuente.configurada.url, id: partido.claveExterna)
            else { continue }
            candidatos.append((i, entrada, url))
        }
        let cupo = presupuesto(
            fuente: fuente.id,
            disponibles: respuesta.cabeceras["x-requests-available-minute"].flatMap { Int($0) })
        let elegidos = Array(candidatos.prefix(cupo))
        anotarPeticiones(elegidos.count, fuente: fuente.id)
        let leidos = await withTaskGroup(of: (Int, String, PartidoDelFeed?).self) { grupo in
            for candidato in elegidos {
                grupo.addTask {
                    let respuesta = try? await self.cliente(
                        PeticionHTTP(
                            url: candidato.url,
                            cabeceras: cabeceras.filter {
                                $0.0 != "If-None-Match" && $0.0 != "If-Modified-Since"
                            }, limite: limite, maximoDeBytes: Self.bytesMaximos))
                    guard let respuesta, (200..<300).contains(respuesta.codigo),
                        !respuesta.cortado
                    else { return (candidato.indice, candidato.entrada, nil) }
                    return (
                        candidato.indice, candidato.entrada,
                        LectorDeFootballData.leerDetalle(
                            respuesta.cuerpo, competicion: fuente.configurada.nombre)
                    )
                }
            }
            var leidos: [(Int, String, PartidoDelFeed?)] = []
            for await leido in grupo { leidos.append(leido) }
            return leidos
        }
        var resultado = partidos
        var nuevos: [String: (entrada: String, partido: PartidoDelFeed)] = [:]
        for (indice, entrada, detalle) in leidos {
            guard var detalle, detalle.claveExterna == partidos[indice].claveExterna else {
                continue
            }
            // The list's names and day are the match's key in the store: the resource
            // fills in, it does not rename.
            detalle.competicion = partidos[indice].competicion
            detalle.local = partidos[indice].local
            detalle.visitante = partidos[indice].visitante
            detalle.fecha = partidos[indice].fecha
            resultado[indice] = detalle
            nuevos[prefijo + detalle.claveExterna] = (entrada, detalle)
        }
        for (i, partido) in resultado.enumerated()
        where nuevos[prefijo + partido.claveExterna] == nil {
            guard let anterior = guardados[prefijo + partido.claveExterna]?.partido else {
                continue
            }
            // The list's goals are the fresher word, but only the resource names who made
            // the pass: each keeps the assist it was read with (else every poll between two
            // reads would store the goals without them, and the next read with them again).
            resultado[i].goles =
                partido.goles.map { goles in
                    goles.map { gol in
                        var conPase = gol
                        conPase.asistencia =
                            anterior.goles?.first {
                                $0.minuto == gol.minuto && $0.jugador.nombre == gol.jugador.nombre
                            }?.asistencia
                        return conPase
                    }
                } ?? anterior.goles
            resultado[i].rojas = partido.rojas ?? anterior.rojas
            resultado[i].cambios = partido.cambios ?? anterior.cambios
            if partido.alineaciones.isEmpty { resultado[i].alineaciones = anterior.alineaciones }
        }
        if !nuevos.isEmpty { detalles.withLock { $0.merge(nuevos) { _, nuevo in nuevo } } }
        return resultado
    }

    /// Whether a match not started yet may have its lineups out: they are published about an
    /// hour before kick-off, so a changed entry is read from 75 minutes before it.
    static func alineacionesPronto(_ partido: PartidoDelFeed, ahora: Double) -> Bool {
        guard let saque = Saque(fecha: partido.fecha, hora: partido.hora), saque.instanteConocido
        else { return false }
        return Double(saque.segundos) - ahora <= 75 * 60
    }

    /// How many match resources this poll may read: what the provider says is left this
    /// minute (`X-Requests-Available-Minute`), else the free plan's 10 less this source's
    /// requests of the last minute; one always kept for the next list.
    private func presupuesto(fuente: Int, disponibles: Int?) -> Int {
        if let disponibles { return max(0, disponibles - 1) }
        let hace = nucleo.ahora() - 60
        let usadas = peticiones.withLock { $0[fuente, default: []].filter { $0 > hace }.count }
        return max(0, Self.peticionesPorMinuto - usadas - 1)
    }

    private func anotarPeticiones(_ n: Int, fuente: Int) {
        guard n > 0 else { return }
        let ahora = nucleo.ahora()
        peticiones.withLock { todas in
            var suyas = todas[fuente, default: []].filter { $0 > ahora - 60 }
            suyas += Array(repeating: ahora, count: n)
            todas[fuente] = suyas
        }
    }

    /// After `fallos` failures in a row: the interval, doubled each time, 5 minutes at most.
    static func espera(fallos: Int, cada: Double) -> Double {
        min(300, max(cada, 1) * Double(1 << min(fallos + 1, 8)) / 2)
    }

    /// The matches whose snapshot changed, with their notices.
    private func comparar(
        _ partidos: [PartidoDelFeed], con arrendada: FuenteArrendada, ahora: Double
    )
        -> [PartidoSondeado]
    {
        // A source that follows nothing yet is being looked at for the first time: what it
        // shows is where things stand, not news.
        let primeraVez = arrendada.fotos.isEmpty
        var vistas: Set<String> = []
        var cambiados: [PartidoSondeado] = []
        let fuente = arrendada.estado.id
        let cache = escritas.withLock { $0 }
        var nuevas: [String: (huella: String, foto: String)] = [:]
        for partido in partidos where vistas.insert(partido.claveExterna).inserted {
            let guardada = arrendada.fotos[partido.claveExterna]
            let huella = Self.huella(partido)
            let clave = "\(fuente)|\(partido.claveExterna)"
            if let guardada, let escrita = cache[clave], escrita.huella == huella,
                escrita.foto == guardada.foto
            {
                continue
            }
            let anterior = guardada.flatMap { FotoDePartido.leer($0.foto) }
            let (comparada, avisos) = Comparador.comparar(
                anterior: anterior, con: partido, partidoId: guardada?.partido ?? 0,
                silencioso: primeraVez, minutoEstimado: Self.minutoEstimado(partido, ahora: ahora))
            var foto = comparada
            foto.sustituciones = partido.cambios.map(\.count)
            foto.asistencias = partido.goles.map { $0.filter { $0.asistencia != nil }.count }
            let json = foto.json
            nuevas[clave] = (huella, json)
            guard json != guardada?.foto || !avisos.isEmpty else { continue }
            var entrada = EntradaDeImportacion(
                clave: partido.clave, local: partido.local, visitante: partido.visitante,
                competicion: partido.competicion, ronda: partido.ronda, fecha: partido.fecha,
                hora: partido.hora, grupo: partido.grupo, estadio: nil,
                finalDelPartido: partido.finalDelPartido ?? partido.marcador,
                trasLaProrroga: partido.trasLaProrroga, penaltis: partido.penaltis,
                tieneProrroga: partido.trasLaProrroga != nil, goles: partido.goles,
                conAvisos: false)
            entrada.rojas = partido.rojas ?? []
            entrada.cambios = partido.cambios ?? []
            cambiados.append(
                PartidoSondeado(
                    claveExterna: partido.claveExterna, entrada: entrada, directo: partido.estado,
                    minuto: partido.minuto, anadido: partido.anadido, foto: json,
                    avisos: avisos))
        }
        // Remembered once written (or found equal); a poll that is then not stored leaves a
        // stored snapshot that differs, so the match is compared again next time.
        escritas.withLock { $0.merge(nuevas) { _, nueva in nueva } }
        return cambiados
    }

    /// Everything of a feed's match that the snapshot and the stored match depend on.
    static func huella(_ partido: PartidoDelFeed) -> String {
        var texto = "\(partido.estado.rawValue)|\(partido.minuto ?? -1)|\(partido.anadido ?? 0)|"
        texto +=
            "\(partido.marcador?.description ?? "")|\(partido.finalDelPartido?.description ?? "")|"
        texto +=
            "\(partido.trasLaProrroga?.description ?? "")|\(partido.penaltis?.description ?? "")|"
        texto +=
            "\(partido.local)|\(partido.visitante)|\(partido.competicion)|\(partido.fecha ?? "")|"
        texto += "\(partido.hora ?? "")|\(partido.ronda ?? "")|\(partido.grupo ?? "")|"
        if let goles = partido.goles {
            for gol in goles {
                texto += "\(gol.minuto)\u{1F}\(gol.jugador.nombre)\u{1F}\(gol.lado.rawValue)"
                texto += "\(gol.penalti ? "p" : "")\(gol.enPropiaPuerta ? "pp" : "")\u{1E}"
            }
        } else {
            texto += "-"
        }
        for tarjeta in partido.rojas ?? [] {
            texto += "|\(tarjeta.identificador)\u{1F}\(tarjeta.lado.rawValue)"
        }
        for cambio in partido.cambios ?? [] {
            texto += "|\(cambio.minuto)\u{1F}\(cambio.entra)\u{1F}\(cambio.sale)"
        }
        for gol in partido.goles ?? [] { texto += "|\(gol.asistencia ?? "")" }
        texto += "|\(partido.actualizado ?? "")"
        for lado in [Lado.local, .visitante] {
            texto += "|\(partido.alineaciones[lado]?.titulares.count ?? 0)"
        }
        return texto
    }

    /// A goal's minute when the feed gives neither the goal's nor the match's: the time since
    /// kick-off, less a 15-minute half-time after the first 45.
    static func minutoEstimado(_ partido: PartidoDelFeed, ahora: Double) -> Int? {
        guard let saque = Saque(fecha: partido.fecha, hora: partido.hora), saque.instanteConocido
        else { return nil }
        let transcurridos = Int((ahora - Double(saque.segundos)) / 60) + 1
        let jugados = transcurridos <= 45 ? transcurridos : max(45, transcurridos - 15)
        return min(120, max(1, jugados))
    }

    private func enLaTienda<T: Sendable>(_ trabajo: @escaping @Sendable () throws -> T)
        async throws -> T
    {
        try await withTaskExecutorPreference(EjecutorDedicado.deLaTienda) { try trabajo() }
    }
}
